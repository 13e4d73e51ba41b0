// Tiers: reached with Rep EARNED in a season (the leaderboard's monthly seasons, lib/core/rep/leaderboard/seasons.ts). Spending
// never lowers earned (SPENDING_KINDS); a staff reversal does, yet the tier follows the season's peak of earned
// (user_season_peaks), which only rises within a season, so a reversal demotes only when the next season starts.
//
// Where the peak is evaluated (docs/decisions/0042): not on the Rep credit path (no statement added to every credit).
// Earned only falls through a reversal, so its highest value in a season is either now or just before a reversal:
// GET /api/v1/me/tier records the peak as of now, the trigger rep_entries_reversal_progress records it just before
// each reversal, and the badges cron refreshes the current season's peaks for everyone (for the tier badges).
import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { notFound } from "../../kernel/errors";
import { seasonOf, type Season } from "../../core/rep/leaderboard/service";
import { tiersOf, toTier, userExists, type TierRow } from "./queries";
import { recordSeasonPeak } from "./writes";

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

/** GET /api/v1/me/tier: the caller's tier this season (from the peak), Rep earned, and how far the next tier is. */
export async function myTier(db: RawDb | DbTx, userId: string, now = new Date()) {
  const season = seasonOf(now);
  if (!(await userExists(db, userId))) throw notFound("User");
  const [tiers, { earned, peak }] = await Promise.all([tiersOf(db), recordSeasonPeak(db, userId, season)]);
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
