import { Prisma } from "../../../generated/prisma/client";
import type { DbTx } from "../../../db/client";
import { int8, raw, type Int8 } from "../../../db/raw";
import { SPENDING_KINDS } from "../kinds";
import { REP_EARNED } from "../queries";
import type { Season } from "./seasons";

// A fan's points on a board are the Rep they earned in the board's period: every ledger entry but spending (so a
// staff reversal lowers them, a reward never does), all sources alike. All-time points are the earned total kept on
// the user's row; a season's are the sum of its entries. "Reached at" is the fan's last such entry in the period.

const EARNING = Prisma.sql`e.earn_kind <> ALL(${SPENDING_KINDS})`;
/** Erased accounts (lib/core/accounts) keep their Rep ledger but are on no board: the rebuild and season closings skip them. */
const notErased = (userId: Prisma.Sql) => Prisma.sql`NOT EXISTS (SELECT 1 FROM account_deletions d WHERE d.user_id = ${userId} AND d.state = 'erased')`;
const NOT_ERASED = notErased(Prisma.sql`e.user_id`);
const inSeason = (s: Season) => Prisma.sql`e.created_at >= ${s.startsAt}::timestamptz AND e.created_at < ${s.endsAt}::timestamptz`;

export interface FanScores {
  userId: string;
  points: number;
  reachedAt: Date | null;
  seasonPoints: number;
  seasonReachedAt: Date | null;
  /** Live teams the fan joined (their team boards). */
  teams: string[];
}

/** The all-time and `season` points of each of `userIds`, with the teams they joined: one statement. */
export async function fanScores(db: DbTx, userIds: string[], season: Season) {
  const rows = await raw(db).$queryRaw<Int8<FanScores, "points" | "seasonPoints">[]>`
    SELECT u.id::text AS "userId", GREATEST(0, ${REP_EARNED}) AS points,
           (SELECT max(e.created_at) FROM rep_entries e WHERE e.user_id = u.id AND ${EARNING}) AS "reachedAt",
           COALESCE(s.points, 0)::int8 AS "seasonPoints", s.reached AS "seasonReachedAt",
           ARRAY(SELECT m.team_id FROM team_members m JOIN teams t ON t.id = m.team_id AND t.archived_at IS NULL WHERE m.user_id = u.id) AS teams
    FROM users u
    LEFT JOIN LATERAL (
      SELECT sum(e.amount) AS points, max(e.created_at) AS reached FROM rep_entries e
      WHERE e.user_id = u.id AND ${inSeason(season)} AND ${EARNING}
    ) s ON true
    WHERE u.id = ANY(${userIds}::uuid[])
      -- An erased account is on no board: a move noted before its erasure never puts it back.
      AND ${notErased(Prisma.sql`u.id`)}`;
  return rows.map((r) => int8(r, ["points", "seasonPoints"]));
}

export interface BoardRow {
  userId: string;
  points: number;
  reachedAt: Date;
}

/**
 * A page of every fan's points in a period, from the ledger alone (the rebuild and the drift check), by user id
 * after `afterUserId`. `season` null: all time. Fans with no earning entry in the period are not on it.
 */
export async function ledgerScores(db: DbTx, season: Season | null, afterUserId: string | null, limit: number) {
  const window = season ? Prisma.sql`AND ${inSeason(season)}` : Prisma.empty;
  const rows = await raw(db).$queryRaw<Int8<BoardRow, "points">[]>`
    SELECT e.user_id::text AS "userId", GREATEST(0, sum(e.amount))::int8 AS points, max(e.created_at) AS "reachedAt"
    FROM rep_entries e
    WHERE ${EARNING} AND ${NOT_ERASED} ${window} AND (${afterUserId}::uuid IS NULL OR e.user_id > ${afterUserId}::uuid)
    GROUP BY e.user_id
    ORDER BY e.user_id
    LIMIT ${limit}`;
  return rows.map((r) => int8(r, ["points"]));
}

/** Every live team's members, by team: team boards list them whatever their points. */
export function teamMembers(db: DbTx) {
  return raw(db).$queryRaw<{ teamId: string; userIds: string[] }[]>`
    SELECT m.team_id AS "teamId", array_agg(m.user_id::text ORDER BY m.user_id) AS "userIds"
    FROM team_members m JOIN teams t ON t.id = m.team_id AND t.archived_at IS NULL
    GROUP BY m.team_id`;
}

export interface FanRow {
  id: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
}

/** The public face of each fan on a board, by id. */
export function fansById(db: DbTx, ids: string[]) {
  if (!ids.length) return Promise.resolve([] as FanRow[]);
  return raw(db).$queryRaw<FanRow[]>`
    SELECT id::text AS id, handle, display_name AS "displayName", avatar_url AS "avatarUrl" FROM users WHERE id = ANY(${ids}::uuid[])`;
}

export const toFan = (f: FanRow | undefined, id: string) => ({
  id,
  handle: f?.handle ?? null,
  displayName: f?.displayName ?? null,
  avatarUrl: f?.avatarUrl ?? null,
});

/**
 * Fans whose handle starts with `prefix` (case-insensitive: handle_key is the lower-cased handle), by handle. A
 * range on handle_key's unique index finds them (LIKE could use it only under the C collation); LIKE then keeps
 * exactly the prefix's matches whatever the collation.
 */
export function fansByHandlePrefix(db: DbTx, prefix: string, limit: number) {
  const from = prefix.toLowerCase();
  const to = from.slice(0, -1) + String.fromCodePoint(from.codePointAt(from.length - 1)! + 1);
  const pattern = `${from.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return raw(db).$queryRaw<FanRow[]>`
    SELECT id::text AS id, handle, display_name AS "displayName", avatar_url AS "avatarUrl" FROM users
    WHERE handle_key >= ${from} AND handle_key < ${to} AND handle_key LIKE ${pattern}
    ORDER BY handle_key LIMIT ${limit}`;
}

/** The earliest ledger entry's time: seasons are listed from its month. */
export async function firstEntryAt(db: DbTx): Promise<Date | null> {
  const [row] = await raw(db).$queryRaw<{ at: Date | null }[]>`SELECT min(created_at) AS at FROM rep_entries`;
  return row?.at ?? null;
}

/** Whether `teamId` is a live (not archived) team: team boards exist for those. */
export async function isLiveTeam(db: DbTx, teamId: string): Promise<boolean> {
  return (await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM teams WHERE id = ${teamId} AND archived_at IS NULL`).length > 0;
}

// Seasons' closings and winners ------------------------------------------------------------------------------------

/** Which of the seasons `ids` are closed. */
export async function closedSeasons(db: DbTx, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await raw(db).$queryRaw<{ id: string }[]>`SELECT season_id AS id FROM leaderboard_season_closings WHERE season_id = ANY(${ids}::text[])`;
  return new Set(rows.map((r) => r.id));
}

/**
 * Closes season `s` in one statement: the closing row (the claim: a second or concurrent run inserts nothing and so
 * writes nothing) and, only then, the season's top fans with points from the ledger, `top.global` on the global board
 * and `top.team` per live team, ranked as the boards rank them (points, then the minute reached, then fan id
 * descending; equal points in the same minute share a rank).
 */
export async function closeSeason(db: DbTx, s: Season, now: Date, top: { global: number; team: number }) {
  const [row] = await raw(db).$queryRaw<{ claimed: boolean; winners: number }[]>`
    WITH claim AS (
      INSERT INTO leaderboard_season_closings (season_id, closed_at) VALUES (${s.id}, ${now}::timestamptz)
      ON CONFLICT DO NOTHING RETURNING season_id
    ), scored AS (
      SELECT e.user_id, GREATEST(0, sum(e.amount))::int8 AS points, max(e.created_at) AS reached_at FROM rep_entries e
      WHERE ${inSeason(s)} AND ${EARNING} AND ${NOT_ERASED}
      GROUP BY e.user_id
    ), boards AS (
      SELECT 'global' AS board, user_id, points, reached_at FROM scored
      UNION ALL
      SELECT 'team:' || m.team_id, m.user_id, COALESCE(sc.points, 0), COALESCE(sc.reached_at, ${s.endsAt}::timestamptz)
      FROM team_members m JOIN teams t ON t.id = m.team_id AND t.archived_at IS NULL LEFT JOIN scored sc ON sc.user_id = m.user_id
    ), ranked AS (
      SELECT b.*, rank() OVER (PARTITION BY board ORDER BY points DESC, date_trunc('minute', reached_at)) AS rank,
             row_number() OVER (PARTITION BY board ORDER BY points DESC, date_trunc('minute', reached_at), user_id::text COLLATE "C" DESC) AS n
      FROM boards b WHERE points > 0
    ), written AS (
      INSERT INTO leaderboard_winners (season_id, board, rank, user_id, points, reached_at)
      SELECT ${s.id}, board, rank, user_id, points, reached_at FROM ranked
      WHERE EXISTS (SELECT 1 FROM claim) AND n <= CASE WHEN board = 'global' THEN ${top.global}::int ELSE ${top.team}::int END
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM claim) AS claimed, (SELECT count(*)::int FROM written) AS winners`;
  return row;
}

/** Closed season ids, newest first: only `season` when given, older than `before` when given. */
export function closedSeasonsPage(db: DbTx, season: string | null, before: string | null, take: number) {
  return raw(db).$queryRaw<{ id: string }[]>`
    SELECT season_id AS id FROM leaderboard_season_closings
    WHERE (${season}::text IS NULL OR season_id = ${season}) AND (${before}::text IS NULL OR season_id < ${before})
    ORDER BY season_id DESC LIMIT ${take}`;
}

export interface WinnerRow {
  seasonId: string;
  rank: number;
  points: number;
  reachedAt: Date;
  userId: string;
}

/** The winners of `seasonIds` on `board`, newest season first, then by rank. */
export async function winnersOf(db: DbTx, board: string, seasonIds: string[]): Promise<WinnerRow[]> {
  if (!seasonIds.length) return [];
  const rows = await raw(db).$queryRaw<Int8<WinnerRow, "points">[]>`
    SELECT season_id AS "seasonId", rank, points, reached_at AS "reachedAt", user_id::text AS "userId" FROM leaderboard_winners
    WHERE board = ${board} AND season_id = ANY(${seasonIds}::text[])
    ORDER BY season_id DESC, rank, reached_at, user_id`;
  return rows.map((r) => int8(r, ["points"]));
}
