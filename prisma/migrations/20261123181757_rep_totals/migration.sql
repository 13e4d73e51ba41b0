-- AlterTable
ALTER TABLE "users" ADD COLUMN     "rep_earned_club" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rep_earned_fan_amp" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rep_earned_player_amp" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rep_earned_service_direct" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "rep_spent" INTEGER NOT NULL DEFAULT 0;

-- Backfill from the ledger: earned per source is every entry but spending; spent is spending's negated sum.
UPDATE "users" u SET
  "rep_earned_fan_amp" = t.fan_amp,
  "rep_earned_club" = t.club,
  "rep_earned_player_amp" = t.player_amp,
  "rep_earned_service_direct" = t.service_direct,
  "rep_spent" = t.spent
FROM (
  SELECT user_id,
         COALESCE(SUM(amount) FILTER (WHERE source = 'fanAmp' AND earn_kind <> 'reward_redemption'), 0) AS fan_amp,
         COALESCE(SUM(amount) FILTER (WHERE source = 'club' AND earn_kind <> 'reward_redemption'), 0) AS club,
         COALESCE(SUM(amount) FILTER (WHERE source = 'playerAmp' AND earn_kind <> 'reward_redemption'), 0) AS player_amp,
         COALESCE(SUM(amount) FILTER (WHERE source = 'serviceDirect' AND earn_kind <> 'reward_redemption'), 0) AS service_direct,
         COALESCE(-SUM(amount) FILTER (WHERE earn_kind = 'reward_redemption'), 0) AS spent
  FROM "rep_entries" GROUP BY user_id
) t
WHERE t.user_id = u.id;
