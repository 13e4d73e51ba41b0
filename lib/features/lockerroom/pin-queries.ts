import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { visiblePostSql, type Viewer } from "../../core/visibility/service";
import { selectPosts, type PostRow } from "./queries";

// The pins' reads (pins.ts; their writes are writes.ts). A post is pinned on one profile: a fan's or a team's.

export type PinProfile = { userId: string; teamId: null } | { userId: null; teamId: string };

/** SQL condition over the pins `pn`: the pin is on the profile. */
export const profileWhere = (p: PinProfile) => (p.userId ? Prisma.sql`pn.user_id = ${p.userId}::uuid` : Prisma.sql`pn.team_id = ${p.teamId}`);

/** The post's author and the team it was posted as, whatever its state (none for no such post). */
export async function postAuthorOf(db: RawDb | DbTx, postId: string) {
  const [post] = await raw(db).$queryRaw<{ authorId: string; authorTeamId: string | null }[]>`
    SELECT author_id::text AS "authorId", author_team_id AS "authorTeamId" FROM posts WHERE id = ${postId}::uuid`;
  return post;
}

/** Locks the team's row (a team profile's pins are counted under it). */
export const lockTeam = (tx: DbTx, teamId: string) => tx.$executeRaw`SELECT 1 FROM teams WHERE id = ${teamId} FOR NO KEY UPDATE`;

/** When the post was pinned, if it is. */
export async function pinnedAt(tx: DbTx, postId: string): Promise<Date | undefined> {
  const [existing] = await tx.$queryRaw<{ at: Date }[]>`SELECT created_at AS at FROM post_pins WHERE post_id = ${postId}::uuid`;
  return existing?.at;
}

/** The pins on the profile that count toward its cap: their posts not hidden. */
export async function countedPins(tx: DbTx, profile: PinProfile): Promise<number> {
  const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM post_pins pn JOIN posts p ON p.id = pn.post_id WHERE ${profileWhere(profile)} AND p.hidden_at IS NULL`;
  return n;
}

/** The profile's pinned posts the viewer may see, newest pin first (at most `take`). */
export function pinnedPosts(db: RawDb | DbTx, viewer: Viewer, profile: PinProfile, take: number) {
  const extra = Prisma.sql`, pn.created_at AS "pinnedAt"`;
  // Staff see every post through visiblePostSql; a profile still shows only published, live ones.
  const live = Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`;
  return raw(db).$queryRaw<(PostRow & { pinnedAt: Date })[]>`
    ${selectPosts(viewer, extra)}
    JOIN post_pins pn ON pn.post_id = p.id
    WHERE ${profileWhere(profile)} AND ${visiblePostSql(viewer)} AND ${live}
    ORDER BY pn.created_at DESC, pn.post_id DESC
    LIMIT ${take}`;
}

/** A live (not archived) team by its id or slug, the id first. */
export async function liveTeamByIdOrSlug(db: RawDb | DbTx, idOrSlug: string) {
  const [team] = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT id FROM teams WHERE (id = ${idOrSlug} OR slug = ${idOrSlug.toLowerCase()}) AND archived_at IS NULL ORDER BY id = ${idOrSlug} DESC LIMIT 1`;
  return team;
}
