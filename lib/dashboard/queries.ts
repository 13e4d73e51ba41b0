import type { DbTx } from "../db/client";
import { SPENDING_KINDS } from "../rep/grants";
import { toStreak } from "../quests/service";
import { utcDayStart } from "../time";
import { raw } from "../db/raw";

export interface RepTotalsRow {
  balance: number;
  streakCurrent: number | null;
  streakLongest: number | null;
  streakLastDay: Date | null;
  fanAmp: bigint;
  club: bigint;
  playerAmp: bigint;
  serviceDirect: bigint;
  spent: bigint;
}

/**
 * The caller's Rep and streak in one statement: the spendable balance (users.rep_balance), the ledger summed per
 * source, and the daily streak row. Earned Rep per source counts credits net of staff reversals; spending (reward
 * redemptions) is counted apart, so earned − spent = balance.
 */
export async function repAndStreak(db: DbTx, userId: string, now: Date) {
  const [row] = await raw(db).$queryRaw<RepTotalsRow[]>`
    SELECT u.rep_balance AS balance, st.current AS "streakCurrent", st.longest AS "streakLongest", st.last_day AS "streakLastDay",
           COALESCE(SUM(e.amount) FILTER (WHERE e.source = 'fanAmp' AND e.earn_kind <> ALL(${SPENDING_KINDS})), 0) AS "fanAmp",
           COALESCE(SUM(e.amount) FILTER (WHERE e.source = 'club' AND e.earn_kind <> ALL(${SPENDING_KINDS})), 0) AS club,
           COALESCE(SUM(e.amount) FILTER (WHERE e.source = 'playerAmp' AND e.earn_kind <> ALL(${SPENDING_KINDS})), 0) AS "playerAmp",
           COALESCE(SUM(e.amount) FILTER (WHERE e.source = 'serviceDirect' AND e.earn_kind <> ALL(${SPENDING_KINDS})), 0) AS "serviceDirect",
           COALESCE(-SUM(e.amount) FILTER (WHERE e.earn_kind = ANY(${SPENDING_KINDS})), 0) AS spent
    FROM users u LEFT JOIN user_streaks st ON st.user_id = u.id LEFT JOIN rep_entries e ON e.user_id = u.id
    WHERE u.id = ${userId}::uuid
    GROUP BY u.id, st.user_id`;
  const bySource = {
    fanAmp: Number(row?.fanAmp ?? 0),
    club: Number(row?.club ?? 0),
    playerAmp: Number(row?.playerAmp ?? 0),
    serviceDirect: Number(row?.serviceDirect ?? 0),
  };
  const rep = {
    balance: row?.balance ?? 0,
    earned: bySource.fanAmp + bySource.club + bySource.playerAmp + bySource.serviceDirect,
    spent: Number(row?.spent ?? 0),
    bySource,
  };
  const streakRow = row?.streakLastDay ? { current: row.streakCurrent!, longest: row.streakLongest!, lastDay: row.streakLastDay } : null;
  return { rep, streak: toStreak(streakRow, now) };
}

export interface ActivityRow {
  questsCompleted: bigint;
  questsCompletedToday: bigint;
  checkIns: bigint;
  gamesRated: bigint;
  rewardsClaimed: bigint;
}

/** Counts for the stats screen, one statement of index-served subqueries. */
export async function activityCounts(db: DbTx, userId: string, now: Date) {
  const today = utcDayStart(now);
  const [row] = await raw(db).$queryRaw<ActivityRow[]>`
    SELECT (SELECT count(*) FROM quest_progress WHERE user_id = ${userId}::uuid AND completed_at IS NOT NULL) AS "questsCompleted",
           (SELECT count(*) FROM quest_progress WHERE user_id = ${userId}::uuid AND completed_at >= ${today}) AS "questsCompletedToday",
           (SELECT count(*) FROM arena_check_ins WHERE user_id = ${userId}::uuid) AS "checkIns",
           (SELECT count(*) FROM game_ratings WHERE user_id = ${userId}::uuid) AS "gamesRated",
           (SELECT count(*) FROM reward_claims WHERE user_id = ${userId}::uuid) AS "rewardsClaimed"`;
  return {
    questsCompleted: Number(row!.questsCompleted),
    questsCompletedToday: Number(row!.questsCompletedToday),
    checkIns: Number(row!.checkIns),
    gamesRated: Number(row!.gamesRated),
    rewardsClaimed: Number(row!.rewardsClaimed),
  };
}
