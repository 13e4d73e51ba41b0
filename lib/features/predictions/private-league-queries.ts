import { Prisma } from "../../generated/prisma/client";
import { raw, type RawDb } from "../../db/raw";
import type { DbTx } from "../../db/client";
import { COUNTS } from "./queries";
import { POINTS } from "./schemas";

// Private leagues' SQL (lib/features/predictions/private-leagues.ts).

export interface LeagueRow {
  id: string;
  name: string;
  ownerId: string;
  code: string;
  memberCount: number;
  codeRotatedAt: Date;
  createdAt: Date;
  joinedAt: Date;
}

const LEAGUE_COLUMNS = Prisma.sql`l.id, l.name, l.owner_id AS "ownerId", l.code, l.member_count AS "memberCount", l.code_rotated_at AS "codeRotatedAt",
  l.created_at AS "createdAt", m.joined_at AS "joinedAt"`;

/** The caller's leagues (joined first first); at most LEAGUES_PER_USER by the cap. */
export async function leaguesOf(db: RawDb | DbTx, userId: string) {
  return raw(db).$queryRaw<LeagueRow[]>`
    SELECT ${LEAGUE_COLUMNS} FROM private_league_members m JOIN private_leagues l ON l.id = m.league_id
    WHERE m.user_id = ${userId}::uuid ORDER BY m.joined_at, l.id`;
}

/** The league as its member `userId` sees it; null when no such league or the caller is not a member. */
export async function leagueOfMember(db: RawDb | DbTx, leagueId: string, userId: string): Promise<LeagueRow | null> {
  const [row] = await raw(db).$queryRaw<LeagueRow[]>`
    SELECT ${LEAGUE_COLUMNS} FROM private_leagues l JOIN private_league_members m ON m.league_id = l.id AND m.user_id = ${userId}::uuid
    WHERE l.id = ${leagueId}::uuid`;
  return row ?? null;
}

export async function membersOf(db: RawDb | DbTx, leagueId: string) {
  return raw(db).$queryRaw<{ userId: string; handle: string | null; displayName: string | null; joinedAt: Date }[]>`
    SELECT m.user_id AS "userId", u.handle, u.display_name AS "displayName", m.joined_at AS "joinedAt"
    FROM private_league_members m JOIN users u ON u.id = m.user_id
    WHERE m.league_id = ${leagueId}::uuid ORDER BY m.joined_at, m.user_id`;
}

/** How many leagues the user is in and owns (counted under the user's row lock for the caps). */
export async function leagueCounts(tx: RawDb, userId: string) {
  const [row] = await tx.$queryRaw<{ member: number; owned: number }[]>`
    SELECT (SELECT count(*)::int FROM private_league_members WHERE user_id = ${userId}::uuid) AS member,
           (SELECT count(*)::int FROM private_leagues WHERE owner_id = ${userId}::uuid) AS owned`;
  return row!;
}

/** Locks the league's row by id or join code: members join, leave and are counted under it. */
export async function lockLeague(tx: RawDb, by: { id: string } | { code: string }) {
  const where = "id" in by ? Prisma.sql`id = ${by.id}::uuid` : Prisma.sql`code = ${by.code}`;
  const [row] = await tx.$queryRaw<{ id: string; ownerId: string; memberCount: number }[]>`
    SELECT id, owner_id AS "ownerId", member_count AS "memberCount" FROM private_leagues WHERE ${where} FOR UPDATE`;
  return row ?? null;
}

export async function isMember(tx: RawDb, leagueId: string, userId: string) {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM private_league_members WHERE league_id = ${leagueId}::uuid AND user_id = ${userId}::uuid`;
  return rows.length > 0;
}

export async function insertLeague(tx: RawDb, l: { id: string; name: string; ownerId: string; code: string; now: Date }) {
  await tx.$executeRaw`
    INSERT INTO private_leagues (id, name, owner_id, code, member_count, code_rotated_at, created_at)
    VALUES (${l.id}::uuid, ${l.name}, ${l.ownerId}::uuid, ${l.code}, 1, ${l.now}::timestamptz, ${l.now}::timestamptz)`;
  await tx.$executeRaw`INSERT INTO private_league_members (league_id, user_id, joined_at) VALUES (${l.id}::uuid, ${l.ownerId}::uuid, ${l.now}::timestamptz)`;
}

export async function addMember(tx: RawDb, leagueId: string, userId: string, now: Date) {
  await tx.$executeRaw`INSERT INTO private_league_members (league_id, user_id, joined_at) VALUES (${leagueId}::uuid, ${userId}::uuid, ${now}::timestamptz)`;
  await tx.$executeRaw`UPDATE private_leagues SET member_count = member_count + 1 WHERE id = ${leagueId}::uuid`;
}

export async function removeMember(tx: RawDb, leagueId: string, userId: string): Promise<boolean> {
  const n = await tx.$executeRaw`DELETE FROM private_league_members WHERE league_id = ${leagueId}::uuid AND user_id = ${userId}::uuid`;
  if (n > 0) await tx.$executeRaw`UPDATE private_leagues SET member_count = member_count - 1 WHERE id = ${leagueId}::uuid`;
  return n > 0;
}

export async function deleteLeague(tx: RawDb, leagueId: string) {
  await tx.$executeRaw`DELETE FROM private_leagues WHERE id = ${leagueId}::uuid`;
}

export async function setCode(tx: RawDb, leagueId: string, code: string, now: Date) {
  await tx.$executeRaw`UPDATE private_leagues SET code = ${code}, code_rotated_at = ${now}::timestamptz WHERE id = ${leagueId}::uuid`;
}

/**
 * Every member's points from settled predictions of games that kicked off after they joined (void ones count 0), in
 * the standings' order: points desc, exact scores desc, joined first, user id.
 */
export async function standingsRows(db: RawDb | DbTx, leagueId: string) {
  return raw(db).$queryRaw<
    { userId: string; handle: string | null; displayName: string | null; joinedAt: Date; points: number; exactScores: number; settled: number }[]
  >`
    SELECT m.user_id AS "userId", u.handle, u.display_name AS "displayName", m.joined_at AS "joinedAt",
      coalesce(s.points, 0)::int AS points, coalesce(s.exact, 0)::int AS "exactScores", coalesce(s.settled, 0)::int AS settled
    FROM private_league_members m JOIN users u ON u.id = m.user_id
    LEFT JOIN LATERAL (
      SELECT sum(p.points) AS points, count(*) FILTER (WHERE p.points = ${POINTS.exact}) AS exact, count(*) AS settled
      FROM predictions p JOIN games g ON g.id = p.game_id
      WHERE p.user_id = m.user_id AND p.points IS NOT NULL AND g.starts_at > m.joined_at AND ${COUNTS}
    ) s ON true
    WHERE m.league_id = ${leagueId}::uuid
    ORDER BY points DESC, "exactScores" DESC, m.joined_at, m.user_id`;
}
