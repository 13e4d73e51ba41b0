// Tiers: reached with Rep EARNED in a season (the leaderboard's monthly seasons, lib/core/rep/leaderboard/seasons.ts). Spending
// never lowers earned (SPENDING_KINDS); a staff reversal does, yet the tier follows the season's peak of earned
// (user_season_peaks), which only rises within a season, so a reversal demotes only when the next season starts.
//
// Where the peak is evaluated (docs/decisions/0042): not on the Rep credit path (no statement added to every credit).
// Earned only falls through a reversal, so its highest value in a season is either now or just before a reversal:
// GET /api/v1/me/tier records the peak as of now, the trigger rep_entries_reversal_progress records it just before
// each reversal, and the badges cron refreshes the current season's peaks for everyone (for the tier badges).
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { notFound } from "../../kernel/errors";
import { seasonOf, type Season } from "../../core/rep/leaderboard/service";
import { SPENDING_KINDS } from "../../core/rep/service";
import { tiersOf, toTier, type TierRow } from "./queries";

const toSeason = (s: Season) => ({ id: s.id, name: s.name, startsAt: s.startsAt.toISOString(), endsAt: s.endsAt.toISOString() });

/** GET /api/v1/engage/tiers: every tier, lowest first, and the season in progress. */
export async function listTiers(db: RawDb | DbTx, now = new Date()) {
  return { tiers: (await tiersOf(db)).map(toTier), season: toSeason(seasonOf(now)) };
}

/** The highest tier `earned` reaches, and the next one up. */
export function tierFor(tiers: TierRow[], earned: number) {
  const reached = tiers.filter((t) => t.minRep <= earned);
  return { tier: reached.at(-1) ?? null, next: tiers.find((t) => t.minRep > earned) ?? null };
}

/** Rep `userId` earned in `season` and the season's peak, recorded as of now (it only rises). */
export async function seasonEarned(db: RawDb | DbTx, userId: string, season: Season): Promise<{ earned: number; peak: number }> {
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

/** GET /api/v1/me/tier: the caller's tier this season (from the peak), Rep earned, and how far the next tier is. */
export async function myTier(db: RawDb | DbTx, userId: string, now = new Date()) {
  const season = seasonOf(now);
  const [exists] = await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM users WHERE id = ${userId}::uuid`;
  if (!exists) throw notFound("User");
  const [tiers, { earned, peak }] = await Promise.all([tiersOf(db), seasonEarned(db, userId, season)]);
  const { tier, next } = tierFor(tiers, peak);
  return {
    season: toSeason(season),
    earned,
    peakEarned: peak,
    tier: tier && toTier(tier),
    next: next && toTier(next),
    toNext: next ? Math.max(0, next.minRep - earned) : null,
  };
}

/**
 * Records the current season's peak for every user who earned in it (the badges cron, before the tier badges): one
 * statement, rising only.
 */
export function refreshSeasonPeaks(db: RawDb | DbTx, now: Date): Promise<number> {
  const season = seasonOf(now);
  return raw(db).$executeRaw`
    INSERT INTO user_season_peaks (user_id, season, peak_earned)
    SELECT user_id, ${season.id}, sum(amount)::int8 FROM rep_entries
    WHERE created_at >= ${season.startsAt}::timestamptz AND created_at < ${season.endsAt}::timestamptz AND earn_kind <> ALL(${SPENDING_KINDS})
    GROUP BY user_id
    ON CONFLICT (user_id, season) DO UPDATE SET peak_earned = EXCLUDED.peak_earned, updated_at = now()
    WHERE user_season_peaks.peak_earned < EXCLUDED.peak_earned`;
}
