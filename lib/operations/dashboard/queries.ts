import type { DbTx } from "../../db/client";
import { Prisma } from "../../generated/prisma/client";
import { myTeamIdsColumn } from "../../features/games/service";
import { todaysQuestsColumns, todaysQuestsFrom, type TodaysQuestsAt, type TodaysQuestsRow } from "../../features/quests/service";
import { batchConcurrentCallsPerClient, inItemOrder } from "../../db/batch";
import { toStreak } from "../../features/quests/service";
import { utcDayStart } from "../../time";
import { int8, raw, type Int8 } from "../../db/raw";

export interface RepTotalsRow {
  balance: number;
  streakCurrent: number | null;
  streakLongest: number | null;
  streakLastDay: Date | null;
  fanAmp: number;
  club: number;
  playerAmp: number;
  serviceDirect: number;
  spent: number;
}

const REP_INT8 = ["balance", "fanAmp", "club", "playerAmp", "serviceDirect", "spent"] as const;
const repAndStreakSql = (userId: string | Prisma.Sql) => Prisma.sql`
    SELECT u.rep_balance AS balance, st.current AS "streakCurrent", st.longest AS "streakLongest", st.last_day AS "streakLastDay",
           u.rep_earned_fan_amp AS "fanAmp", u.rep_earned_club AS club, u.rep_earned_player_amp AS "playerAmp",
           u.rep_earned_service_direct AS "serviceDirect", u.rep_spent AS spent
    FROM users u LEFT JOIN user_streaks st ON st.user_id = u.id
    WHERE u.id = ${userId}::uuid`;

function toRepAndStreak(row: RepTotalsRow | undefined, now: Date) {
  const bySource = { fanAmp: row?.fanAmp ?? 0, club: row?.club ?? 0, playerAmp: row?.playerAmp ?? 0, serviceDirect: row?.serviceDirect ?? 0 };
  const rep = {
    balance: row?.balance ?? 0,
    earned: bySource.fanAmp + bySource.club + bySource.playerAmp + bySource.serviceDirect,
    spent: row?.spent ?? 0,
    bySource,
  };
  const streakRow = row?.streakLastDay ? { current: row.streakCurrent!, longest: row.streakLongest!, lastDay: row.streakLastDay } : null;
  return { rep, streak: toStreak(streakRow, now) };
}

/**
 * The caller's Rep and streak in one primary-key read: the spendable balance and the ledger's totals that the same
 * statements keep on the user's row (lib/core/rep/writes.ts): earned per source (credits net of staff reversals) and
 * spent (reward redemptions), so earned − spent = balance.
 */
export async function repAndStreak(db: DbTx, userId: string, now: Date) {
  const [row] = await raw(db).$queryRaw<Int8<RepTotalsRow, (typeof REP_INT8)[number]>[]>`${repAndStreakSql(userId)}`;
  return toRepAndStreak(row && int8(row, REP_INT8), now);
}

/**
 * The home screen's per-caller reads, for many callers in one statement (lib/db/batch.ts: concurrent callers share
 * it): repAndStreak, today's quest ids with their state (todaysQuestsColumns) and the caller's teams. What is the
 * same for every fan comes from caches in its modules: the quests' definitions (todaysQuests) and the teams' next
 * games (nextGamesOf). Measured against /api/health's throughput: three statements side by side 30%, one building
 * everything as JSON 34%, one statement per caller 42–59%, shared by concurrent callers 55–62% (PostgreSQL's time
 * per home screen halved).
 */
async function homeScreensOf(db: DbTx, items: TodaysQuestsAt[]) {
  const rows = await raw(db).$queryRaw<(TodaysQuestsRow & { n: bigint | number; rep: JsonRepTotalsRow | null; teams: string[] })[]>`
    SELECT i.n, (SELECT to_jsonb(r) FROM (${repAndStreakSql(Prisma.sql`i.user_id`)}) r) AS rep,
           ${myTeamIdsColumn(Prisma.sql`i.user_id`)} AS teams, ${todaysQuestsColumns}
    FROM ${todaysQuestsFrom(items)}`;
  return inItemOrder(rows, items.length).map((row, k) => {
    const { rep, teams, ...today } = row!;
    const now = items[k]!.now;
    return {
      ...toRepAndStreak(rep ? { ...rep, streakLastDay: rep.streakLastDay === null ? null : new Date(`${rep.streakLastDay}T00:00:00Z`) } : undefined, now),
      today,
      teams,
    };
  });
}

const readHomeScreen = batchConcurrentCallsPerClient(homeScreensOf, { max: 64 });

/** The caller's home screen reads (homeScreensOf). */
export const homeScreen = (db: DbTx, userId: string, now: Date) => readHomeScreen(db, { userId, now });

type JsonRepTotalsRow = Omit<RepTotalsRow, "streakLastDay"> & { streakLastDay: string | null };

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
