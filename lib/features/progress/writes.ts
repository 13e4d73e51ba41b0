// Progress writes: the season peaks, badge grants and keepsakes (each a backfill, safe to run twice or concurrently),
// the featured badges, and streak freezes with the at-risk notifications.
import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { type Season } from "../../core/rep/leaderboard/service";
import { SPENDING_KINDS } from "../../core/rep/service";
import { insertNotifications } from "../../core/notifications/service";
import { addUtcDays, utcDay } from "../../time";
import { KEEPSAKE_DUE } from "./queries";
import { AT_RISK_EVENING } from "./schemas";

/** Rep `userId` earned in `season` and the season's peak, recorded as of now (it only rises). */
export async function recordSeasonPeak(db: RawDb | DbTx, userId: string, season: Season): Promise<{ earned: number; peak: number }> {
  const [row] = await raw(db).$queryRaw<{ earned: bigint; peak: bigint }[]>`
    WITH e AS (
      SELECT coalesce(sum(amount), 0)::int8 AS earned FROM rep_entries
      WHERE user_id = ${userId}::uuid AND created_at >= ${season.startsAt}::timestamptz AND created_at < ${season.endsAt}::timestamptz
        AND earn_kind <> ALL(${SPENDING_KINDS})
    ), p AS (
      INSERT INTO user_season_peaks (user_id, season, peak_earned) SELECT ${userId}::uuid, ${season.id}, earned FROM e
      ON CONFLICT (user_id, season) DO UPDATE SET peak_earned = EXCLUDED.peak_earned, updated_at = now()
      WHERE user_season_peaks.peak_earned < EXCLUDED.peak_earned
      RETURNING peak_earned
    )
    SELECT e.earned, GREATEST(e.earned, coalesce((SELECT peak_earned FROM p),
             (SELECT peak_earned FROM user_season_peaks WHERE user_id = ${userId}::uuid AND season = ${season.id}), 0)) AS peak
    FROM e`;
  return { earned: Number(row?.earned ?? 0), peak: Number(row?.peak ?? 0) };
}

/**
 * Records `season`'s peak for every user who earned in it (the badges cron, before the tier badges): one statement,
 * rising only.
 */
export function refreshSeasonPeaks(db: RawDb | DbTx, season: Season): Promise<number> {
  return raw(db).$executeRaw`
    INSERT INTO user_season_peaks (user_id, season, peak_earned)
    SELECT user_id, ${season.id}, sum(amount)::int8 FROM rep_entries
    WHERE created_at >= ${season.startsAt}::timestamptz AND created_at < ${season.endsAt}::timestamptz AND earn_kind <> ALL(${SPENDING_KINDS})
    GROUP BY user_id
    ON CONFLICT (user_id, season) DO UPDATE SET peak_earned = EXCLUDED.peak_earned, updated_at = now()
    WHERE user_season_peaks.peak_earned < EXCLUDED.peak_earned`;
}

/** A credit that was not reversed (its reversal's grant key is reversal:<id>, lib/operations/admin reverseEntry). */
const NOT_REVERSED = Prisma.sql`NOT EXISTS (SELECT 1 FROM rep_entries r WHERE r.user_id = e.user_id AND r.grant_key = 'reversal:' || e.id::text)`;

/** Grants every badge that qualifies and is missing, for everyone or `userId`. Answers how many grants it wrote. */
export async function grantBadges(db: RawDb | DbTx, userId?: string): Promise<number> {
  const e = userId ? Prisma.sql`AND e.user_id = ${userId}::uuid` : Prisma.empty;
  const s = userId ? Prisma.sql`AND s.user_id = ${userId}::uuid` : Prisma.empty;
  const p = userId ? Prisma.sql`AND p.user_id = ${userId}::uuid` : Prisma.empty;
  const q = raw(db);
  const once = await q.$executeRaw`
    INSERT INTO badge_grants (id, user_id, badge_id, grant_key, source_entry_id, granted_at)
    SELECT ${UUIDV7_SQL}, x.user_id, x.badge_id, 'once', x.entry_id, x.at FROM (
      SELECT DISTINCT ON (e.user_id, b.id) e.user_id, b.id AS badge_id, e.id AS entry_id, e.created_at AS at
      FROM badges b JOIN rep_entries e ON e.earn_kind = ANY(b.earn_kinds) AND e.amount > 0 ${e}
      WHERE b.active AND b.rule = 'rep_kind' AND NOT b.repeatable AND ${NOT_REVERSED}
      ORDER BY e.user_id, b.id, e.created_at, e.id
    ) x
    ON CONFLICT (user_id, badge_id, grant_key) DO NOTHING`;
  const repeated = await q.$executeRaw`
    INSERT INTO badge_grants (id, user_id, badge_id, grant_key, source_entry_id, granted_at)
    SELECT ${UUIDV7_SQL}, e.user_id, b.id, e.id::text, e.id, e.created_at
    FROM badges b JOIN rep_entries e ON e.earn_kind = ANY(b.earn_kinds) AND e.amount > 0 ${e}
    WHERE b.active AND b.rule = 'rep_kind' AND b.repeatable AND ${NOT_REVERSED}
    ON CONFLICT (user_id, badge_id, grant_key) DO NOTHING`;
  const streaks = await q.$executeRaw`
    INSERT INTO badge_grants (id, user_id, badge_id, grant_key)
    SELECT ${UUIDV7_SQL}, s.user_id, b.id, 'once'
    FROM badges b JOIN user_streaks s ON s.longest >= b.threshold ${s}
    WHERE b.active AND b.rule = 'streak'
    ON CONFLICT (user_id, badge_id, grant_key) DO NOTHING`;
  const tiers = await q.$executeRaw`
    INSERT INTO badge_grants (id, user_id, badge_id, grant_key)
    SELECT ${UUIDV7_SQL}, x.user_id, x.badge_id, 'once' FROM (
      SELECT DISTINCT p.user_id, b.id AS badge_id
      FROM badges b JOIN tiers t ON t.id = b.tier_id JOIN user_season_peaks p ON p.peak_earned >= t.min_rep ${p}
      WHERE b.active AND b.rule = 'tier'
    ) x
    ON CONFLICT (user_id, badge_id, grant_key) DO NOTHING`;
  return once + repeated + streaks + tiers;
}

/** The keepsakes' transaction-scoped advisory lock: concurrent runs never give a number twice. */
export async function lockKeepsakeSerials(tx: RawDb): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('arena_keepsakes'))`;
}

/**
 * Keepsakes for the verified check-ins at a game that have none (everyone's, or only at the games `userId` checked
 * in at), numbered per game in arrival order (check-in time, then id), under lockKeepsakeSerials. Answers how many.
 */
export function insertKeepsakes(tx: RawDb, userId?: string): Promise<number> {
  const games = userId
    ? Prisma.sql`AND c.game_id IN (SELECT c2.game_id FROM arena_check_ins c2 WHERE c2.user_id = ${userId}::uuid AND c2.game_id IS NOT NULL)`
    : Prisma.empty;
  // Serials continue from the game's counter (games.keepsake_serial), moved in the same statement, never from the
  // highest keepsake still held: an erasure deletes its fan's keepsakes, and their serials must not come back.
  return tx.$executeRaw`
    WITH fresh AS (
      SELECT c.user_id, c.game_id, c.id, row_number() OVER (PARTITION BY c.game_id ORDER BY c.created_at, c.id) AS n
      FROM arena_check_ins c WHERE ${KEEPSAKE_DUE} ${games}
    ), counted AS (
      UPDATE games g SET keepsake_serial = g.keepsake_serial + f.n
      FROM (SELECT game_id, count(*)::int AS n FROM fresh GROUP BY game_id) f
      WHERE g.id = f.game_id
      RETURNING g.id, g.keepsake_serial - f.n AS base
    )
    INSERT INTO arena_keepsakes (id, user_id, game_id, check_in_id, serial)
    SELECT ${UUIDV7_SQL}, fresh.user_id, fresh.game_id, fresh.id, (counted.base + fresh.n)::int
    FROM fresh JOIN counted ON counted.id = fresh.game_id`;
}

/** Replaces the user's featured badges with `badgeIds`, in their order. */
export async function replaceFeatured(tx: RawDb | DbTx, userId: string, badgeIds: string[]): Promise<void> {
  await raw(tx).$executeRaw`DELETE FROM featured_badges WHERE user_id = ${userId}::uuid`;
  if (badgeIds.length > 0) {
    await raw(tx).$executeRaw`
      INSERT INTO featured_badges (user_id, position, badge_id)
      SELECT ${userId}::uuid, u.n::int, u.id::uuid FROM unnest(${badgeIds}::text[]) WITH ORDINALITY AS u(id, n)`;
  }
}

/**
 * Takes one held freeze for the day after the last counted day of every streak (or `userId`'s) whose last counted day
 * is before yesterday (UTC day `today`): the oldest freeze acquired before that day began, taken only while still
 * held, with the streak row locked first. The saved day becomes the streak's last day. Answers how many it used.
 */
export function takeFreezesForNextDay(db: RawDb | DbTx, today: string, now: Date, userId?: string): Promise<number> {
  const who = userId ? Prisma.sql`AND user_id = ${userId}::uuid` : Prisma.empty;
  return raw(db).$executeRaw`
    WITH s AS (
      SELECT user_id, last_day FROM user_streaks WHERE current > 0 AND last_day < ${today}::date - 1 ${who} FOR UPDATE
    ), f AS (
      SELECT DISTINCT ON (fr.user_id) fr.id, fr.user_id, s.last_day + 1 AS day
      FROM s JOIN streak_freezes fr ON fr.user_id = s.user_id AND fr.used_for_day IS NULL
        AND fr.acquired_at < ((s.last_day + 1)::timestamp AT TIME ZONE 'UTC')
      ORDER BY fr.user_id, fr.acquired_at, fr.id
    ), taken AS (
      UPDATE streak_freezes fz SET used_for_day = f.day FROM f WHERE fz.id = f.id AND fz.used_for_day IS NULL RETURNING fz.user_id, fz.used_for_day
    )
    UPDATE user_streaks st SET last_day = taken.used_for_day, updated_at = ${now}::timestamptz
    FROM taken WHERE st.user_id = taken.user_id AND st.last_day = taken.used_for_day - 1`;
}

/** A freeze the user now holds, acquired at `now`. */
export async function insertFreeze(tx: RawDb | DbTx, userId: string, now: Date): Promise<{ id: string; acquiredAt: Date } | undefined> {
  const [freeze] = await raw(tx).$queryRaw<{ id: string; acquiredAt: Date }[]>`
    INSERT INTO streak_freezes (id, user_id, acquired_at) VALUES (${UUIDV7_SQL}, ${userId}::uuid, ${now}::timestamptz)
    RETURNING id::text AS id, acquired_at AS "acquiredAt"`;
  return freeze;
}

/** The Rep entry that paid for the freeze. */
export async function setFreezeEntry(tx: RawDb | DbTx, freezeId: string, entryId: string): Promise<void> {
  await raw(tx).$executeRaw`UPDATE streak_freezes SET rep_entry_id = ${entryId}::uuid WHERE id = ${freezeId}::uuid`;
}

/**
 * STREAK_AT_RISK for every fan whose streak is above 0 with no daily quest completed yet today (UTC), whose local
 * clock (users.timezone, else UTC) is in the evening window, with notify_milestones on (the in-app preference and
 * quiet hours are applied by lib/core/push's triggers and delivery, as for every producer). Cause key
 * streak_at_risk:<UTC day>: once per fan and UTC day, whatever runs concurrently.
 */
export async function notifyStreaksAtRisk(db: RawDb | DbTx, now: Date): Promise<number> {
  const today = utcDay(now);
  const endsAt = addUtcDays(now, 1);
  return insertNotifications(raw(db), {
    type: "STREAK_AT_RISK",
    recipient: Prisma.sql`s.user_id`,
    cause: Prisma.sql`'streak_at_risk:' || ${today}`,
    actor: null,
    payload: Prisma.sql`jsonb_build_object('day', ${today}::text, 'streak', s.current, 'endsAt', ${endsAt.toISOString()}::text,
             'title', 'Your ' || s.current || '-day streak is at risk',
             'body', 'Complete a daily quest before ' || to_char(${endsAt}::timestamptz AT TIME ZONE coalesce(u.timezone, 'UTC'), 'HH24:MI') || ' your time to keep it.',
             'href', '/api/v1/engage/streak')`,
    from: Prisma.sql`FROM user_streaks s JOIN users u ON u.id = s.user_id
    WHERE s.current > 0 AND s.last_day = ${today}::date - 1 AND u.notify_milestones
      AND extract(hour FROM ${now}::timestamptz AT TIME ZONE coalesce(u.timezone, 'UTC')) >= ${AT_RISK_EVENING.startHour}
      AND extract(hour FROM ${now}::timestamptz AT TIME ZONE coalesce(u.timezone, 'UTC')) < ${AT_RISK_EVENING.endHour}`,
  });
}
