-- AlterEnum
ALTER TYPE "NotificationType" ADD VALUE 'STREAK_AT_RISK';

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "timezone" TEXT,
ADD COLUMN     "timezone_changed_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "streak_freezes" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "acquired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_for_day" DATE,
    "rep_entry_id" UUID,

    CONSTRAINT "streak_freezes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tiers" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "min_rep" INTEGER NOT NULL,
    "perks" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tiers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_season_peaks" (
    "user_id" UUID NOT NULL,
    "season" TEXT NOT NULL,
    "peak_earned" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_season_peaks_pkey" PRIMARY KEY ("user_id","season")
);

-- CreateTable
CREATE TABLE "badges" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "earn_kinds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "threshold" INTEGER,
    "tier_id" UUID,
    "repeatable" BOOLEAN NOT NULL DEFAULT false,
    "revoke_on_reversal" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "badges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "badge_grants" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "badge_id" UUID NOT NULL,
    "grant_key" TEXT NOT NULL,
    "source_entry_id" UUID,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "badge_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "featured_badges" (
    "user_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "badge_id" UUID NOT NULL,

    CONSTRAINT "featured_badges_pkey" PRIMARY KEY ("user_id","position")
);

-- CreateIndex
CREATE UNIQUE INDEX "streak_freezes_user_id_used_for_day_key" ON "streak_freezes"("user_id", "used_for_day");

-- CreateIndex
CREATE UNIQUE INDEX "tiers_slug_key" ON "tiers"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "tiers_min_rep_key" ON "tiers"("min_rep");

-- CreateIndex
CREATE UNIQUE INDEX "badges_slug_key" ON "badges"("slug");

-- CreateIndex
CREATE INDEX "badge_grants_source_entry_id_idx" ON "badge_grants"("source_entry_id");

-- CreateIndex
CREATE UNIQUE INDEX "badge_grants_user_id_badge_id_grant_key_key" ON "badge_grants"("user_id", "badge_id", "grant_key");

-- CreateIndex
CREATE UNIQUE INDEX "featured_badges_user_id_badge_id_key" ON "featured_badges"("user_id", "badge_id");

-- AddForeignKey
ALTER TABLE "streak_freezes" ADD CONSTRAINT "streak_freezes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_season_peaks" ADD CONSTRAINT "user_season_peaks_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "badges" ADD CONSTRAINT "badges_tier_id_fkey" FOREIGN KEY ("tier_id") REFERENCES "tiers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "badge_grants" ADD CONSTRAINT "badge_grants_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "badge_grants" ADD CONSTRAINT "badge_grants_badge_id_fkey" FOREIGN KEY ("badge_id") REFERENCES "badges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "featured_badges" ADD CONSTRAINT "featured_badges_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "featured_badges" ADD CONSTRAINT "featured_badges_badge_id_fkey" FOREIGN KEY ("badge_id") REFERENCES "badges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (lib/progress, docs/domains/progress.md) -------------------------------------------------------------

ALTER TABLE "tiers" ADD CONSTRAINT "tiers_min_rep_check" CHECK (min_rep >= 0);
ALTER TABLE "badges" ADD CONSTRAINT "badges_rule_check" CHECK (
     (rule = 'rep_kind' AND cardinality(earn_kinds) > 0)
  OR (rule = 'streak' AND threshold IS NOT NULL AND threshold > 0 AND NOT repeatable)
  OR (rule = 'tier' AND tier_id IS NOT NULL AND NOT repeatable));
ALTER TABLE "featured_badges" ADD CONSTRAINT "featured_badges_position_check" CHECK (position BETWEEN 1 AND 3);
ALTER TABLE "users" ADD CONSTRAINT "users_timezone_check" CHECK (timezone IS NULL OR length(timezone) BETWEEN 1 AND 64);

-- The default tiers and badges (staff edit them in /admin/progress).
INSERT INTO tiers (id, slug, name, min_rep, perks) VALUES
  ('0193a000-0000-7000-8000-000000000001', 'bronze', 'Bronze', 0, ARRAY['Season badge']),
  ('0193a000-0000-7000-8000-000000000002', 'silver', 'Silver', 500, ARRAY['Silver profile frame']),
  ('0193a000-0000-7000-8000-000000000003', 'gold', 'Gold', 2000, ARRAY['Gold profile frame', 'Early access to drops']),
  ('0193a000-0000-7000-8000-000000000004', 'platinum', 'Platinum', 5000, ARRAY['Platinum profile frame', 'Early access to drops', 'Priority support']);
INSERT INTO badges (id, slug, name, description, rule, earn_kinds, threshold, tier_id, repeatable, revoke_on_reversal) VALUES
  ('0193a000-0000-7000-8000-000000000101', 'first-quest', 'First quest', 'Completed a quest for the first time.', 'rep_kind', ARRAY['quest_completion', 'daily_quest_completion'], NULL, NULL, false, true),
  ('0193a000-0000-7000-8000-000000000102', 'streak-7', 'Seven days straight', 'A daily streak of 7 days.', 'streak', ARRAY[]::text[], 7, NULL, false, false),
  ('0193a000-0000-7000-8000-000000000103', 'first-check-in', 'In the building', 'Checked in at the arena for the first time.', 'rep_kind', ARRAY['arena_check_in'], NULL, NULL, false, true),
  ('0193a000-0000-7000-8000-000000000104', 'arena-regular', 'Arena regular', 'One for every arena check-in.', 'rep_kind', ARRAY['arena_check_in'], NULL, NULL, true, true),
  ('0193a000-0000-7000-8000-000000000105', 'first-rating', 'Critic', 'Rated the players of a game for the first time.', 'rep_kind', ARRAY['game_rating'], NULL, NULL, false, true),
  ('0193a000-0000-7000-8000-000000000106', 'tier-gold', 'Gold', 'Reached the Gold tier in a season.', 'tier', ARRAY[]::text[], NULL, '0193a000-0000-7000-8000-000000000003', false, false);

-- Streak freezes at the moment the streak moves: the quests' completion statement restarts the streak at 1 after a
-- gap; when every missed UTC day (at most 2) can take a held freeze acquired before that day began (oldest freeze for
-- the earliest day), the freezes are used and the streak goes on instead. applyFreezes (lib/progress/streaks.ts) does
-- the same for days already past, one day at a time, without a gap here.
CREATE FUNCTION user_streaks_use_freezes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missed int; ids uuid[]; ok boolean; BEGIN
  IF OLD.current > 0 AND NEW.last_day > OLD.last_day + 1 AND NEW.last_day - OLD.last_day - 1 <= 2 THEN
    missed := NEW.last_day - OLD.last_day - 1; SELECT array_agg(f.id ORDER BY f.n), bool_and(f.acquired_at < ((OLD.last_day + f.n::int)::timestamp AT TIME ZONE 'UTC'))
      INTO ids, ok
    FROM (SELECT h.id, h.acquired_at, row_number() OVER (ORDER BY h.acquired_at, h.id) AS n
          FROM (SELECT id, acquired_at FROM streak_freezes WHERE user_id = NEW.user_id AND used_for_day IS NULL
                ORDER BY acquired_at, id LIMIT missed FOR UPDATE) h) f; IF coalesce(array_length(ids, 1), 0) = missed AND ok THEN
      UPDATE streak_freezes s SET used_for_day = OLD.last_day + u.n::int FROM unnest(ids) WITH ORDINALITY AS u(id, n) WHERE s.id = u.id; NEW.current := OLD.current + 1; NEW.longest := GREATEST(OLD.longest, OLD.current + 1); END IF; END IF; RETURN NEW; END $$;
CREATE TRIGGER user_streaks_use_freezes BEFORE UPDATE OF last_day ON user_streaks
  FOR EACH ROW EXECUTE FUNCTION user_streaks_use_freezes();

-- A staff reversal (earn_kind 'reversal', target_id the credit's id): badges granted for that credit go when the badge
-- says so, and the season's peak of Rep earned is recorded as it was just before, so the reversal cannot lower the
-- tier before the season ends. Earned = every entry but spending (the array is SPENDING_KINDS of lib/rep/grants.ts).
CREATE FUNCTION rep_entries_reversal_progress() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  starts timestamptz := date_trunc('month', NEW.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'; BEGIN
  IF NEW.target_id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
    DELETE FROM badge_grants g USING badges b
    WHERE g.source_entry_id = NEW.target_id::uuid AND g.user_id = NEW.user_id AND b.id = g.badge_id AND b.revoke_on_reversal; END IF; INSERT INTO user_season_peaks (user_id, season, peak_earned)
  SELECT NEW.user_id, to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM'), coalesce(sum(e.amount), 0) - NEW.amount
  FROM rep_entries e
  WHERE e.user_id = NEW.user_id AND e.created_at >= starts AND e.created_at < starts + interval '1 month'
    AND e.earn_kind <> ALL (ARRAY['reward_redemption', 'streak_freeze'])
  ON CONFLICT (user_id, season) DO UPDATE SET peak_earned = GREATEST(user_season_peaks.peak_earned, EXCLUDED.peak_earned), updated_at = now(); RETURN NULL; END $$;
CREATE TRIGGER rep_entries_reversal_progress AFTER INSERT ON rep_entries
  FOR EACH ROW WHEN (NEW.earn_kind = 'reversal') EXECUTE FUNCTION rep_entries_reversal_progress();

-- STREAK_AT_RISK is a milestones notification: users.notify_milestones is its in-app switch too (lib/push SETTING_TYPES).
CREATE OR REPLACE FUNCTION users_notify_preferences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notification_preferences SET in_app = true, updated_at = now()
  WHERE user_id = NEW.id AND NOT in_app AND (
       (NEW.notify_teams AND NOT OLD.notify_teams AND type IN ('GAME_ALERT', 'RATING', 'TEAM_POST'))
    OR (NEW.notify_milestones AND NOT OLD.notify_milestones AND type IN ('MILESTONE', 'STREAK_AT_RISK'))
    OR (NEW.notify_community AND NOT OLD.notify_community AND type IN ('REPLY', 'REACTION', 'FOLLOW', 'FOLLOW_REQUEST'))); RETURN NULL; END $$;
