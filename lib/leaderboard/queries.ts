import { Prisma } from "../generated/prisma/client";
import type { DbTx } from "../db/client";
import { raw } from "../db/raw";
import { REP_EARNED, SPENDING_KINDS } from "../rep/grants";
import type { Season } from "./seasons";

// A fan's points on a board are the Rep they earned in the board's period: every ledger entry but spending (so a
// staff reversal lowers them, a reward never does), all sources alike. All-time points are the earned total kept on
// the user's row; a season's are the sum of its entries. "Reached at" is the fan's last such entry in the period.

const EARNING = Prisma.sql`e.earn_kind <> ALL(${SPENDING_KINDS})`;

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
export function fanScores(db: DbTx, userIds: string[], season: Season) {
  return raw(db).$queryRaw<FanScores[]>`
    SELECT u.id::text AS "userId", GREATEST(0, ${REP_EARNED})::int AS points,
           (SELECT max(e.created_at) FROM rep_entries e WHERE e.user_id = u.id AND ${EARNING}) AS "reachedAt",
           COALESCE(s.points, 0)::int AS "seasonPoints", s.reached AS "seasonReachedAt",
           ARRAY(SELECT m.team_id FROM team_members m JOIN teams t ON t.id = m.team_id AND t.archived_at IS NULL WHERE m.user_id = u.id) AS teams
    FROM users u
    LEFT JOIN LATERAL (
      SELECT sum(e.amount) AS points, max(e.created_at) AS reached FROM rep_entries e
      WHERE e.user_id = u.id AND e.created_at >= ${season.startsAt}::timestamptz AND e.created_at < ${season.endsAt}::timestamptz AND ${EARNING}
    ) s ON true
    WHERE u.id = ANY(${userIds}::uuid[])`;
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
export function ledgerScores(db: DbTx, season: Season | null, afterUserId: string | null, limit: number) {
  const window = season ? Prisma.sql`AND e.created_at >= ${season.startsAt}::timestamptz AND e.created_at < ${season.endsAt}::timestamptz` : Prisma.empty;
  return raw(db).$queryRaw<BoardRow[]>`
    SELECT e.user_id::text AS "userId", GREATEST(0, sum(e.amount))::int AS points, max(e.created_at) AS "reachedAt"
    FROM rep_entries e
    WHERE ${EARNING} ${window} AND (${afterUserId}::uuid IS NULL OR e.user_id > ${afterUserId}::uuid)
    GROUP BY e.user_id
    ORDER BY e.user_id
    LIMIT ${limit}`;
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
