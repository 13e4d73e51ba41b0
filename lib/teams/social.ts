import { Prisma } from "../generated/prisma/client";
import type { DbTx } from "../db/client";
import { decodeTimeCursor, encodeCursor } from "../http/cursor";
import { getUserTeams } from "../users/activity";
import { findTeamRef, liveTeamIdOrThrow } from "./lookup";
import { TEAM_COLUMNS, TEAM_FROM, toTeam, type TeamRow } from "./service";

// Follow (social, team_follows) and join (leaderboard entry, team_members) are independent of each other and of
// stars: each function here writes exactly one table. Writes are idempotent through the (user_id, team_id)
// primary keys with ON CONFLICT DO NOTHING, so concurrent repeats of one request end on one row.

/** POST /api/teams/{id}/follow: the social follow only. Missing or archived team → 404. */
export async function followTeam(db: DbTx, userId: string, idOrSlug: string) {
  const teamId = await liveTeamIdOrThrow(db, idOrSlug);
  await db.teamFollow.createMany({ data: [{ userId, teamId }], skipDuplicates: true });
  const row = await db.teamFollow.findUniqueOrThrow({ where: { userId_teamId: { userId, teamId } }, select: { createdAt: true } });
  return { following: true as const, teamId, followedAt: row.createdAt.toISOString() };
}

/**
 * DELETE /api/teams/{id}/follow: idempotent. An archived team can be unfollowed too; an id that names no team is
 * a no-op (answers following: false for that id).
 */
export async function unfollowTeam(db: DbTx, userId: string, idOrSlug: string) {
  const teamId = (await findTeamRef(db, idOrSlug))?.id ?? idOrSlug;
  await db.teamFollow.deleteMany({ where: { userId, teamId } });
  return { following: false as const, teamId };
}

/** POST /api/teams/{id}/join: upserts the leaderboard entry only. Missing or archived team → 404. */
export async function joinTeam(db: DbTx, userId: string, idOrSlug: string) {
  const teamId = await liveTeamIdOrThrow(db, idOrSlug);
  await db.teamMember.createMany({ data: [{ userId, teamId }], skipDuplicates: true });
  return getUserTeams(db, userId);
}

/** DELETE /api/teams/{id}/join: removes the leaderboard entry only (the follow stays). Not joined → no-op. */
export async function leaveTeam(db: DbTx, userId: string, idOrSlug: string) {
  const teamId = (await findTeamRef(db, idOrSlug))?.id ?? idOrSlug;
  await db.teamMember.deleteMany({ where: { userId, teamId } });
  return getUserTeams(db, userId);
}

/** GET /api/teams/followed: the caller's followed live teams, newest follow first (created_at desc, team_id desc). */
export async function listFollowedTeams(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeTimeCursor(cursor) : undefined;
  const keyset = after ? Prisma.sql`AND (f.created_at, f.team_id) < (${after.at}::timestamptz, ${after.id})` : Prisma.empty;
  const rows = await db.$queryRaw<(TeamRow & { followedAt: Date })[]>`
    SELECT ${TEAM_COLUMNS}, f.created_at AS "followedAt"
    FROM ${TEAM_FROM} JOIN team_follows f ON f.team_id = t.id
    WHERE f.user_id = ${userId}::uuid AND t.archived_at IS NULL ${keyset}
    ORDER BY f.created_at DESC, f.team_id DESC
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    teams: page.map((r) => ({ ...toTeam(r), followedAt: r.followedAt.toISOString() })),
    ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.followedAt.getTime(), last.id) } : {}),
  };
}
