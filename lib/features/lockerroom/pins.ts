import { Prisma } from "../../generated/prisma/client";
import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { targetOf } from "../../core/follows/service";
import type { UserRef } from "../../core/follows/schemas";
import { teamSummaries } from "../../core/teams/service";
import { visiblePost, visiblePostSql, type Viewer } from "../../core/visibility/service";
import { canPostAsTeam } from "../../core/teams/service";
import { errors as lockerroomErrors } from "./errors";
import { selectPosts, type PostRow } from "./queries";
import { toPost } from "./service";
import { postTeamIds } from "./sharing";

// Pins (PUT and DELETE /api/locker-room/{postId}/pin; GET /api/v1/users/{userId}/pins, GET /api/teams/{id}/pins):
// a post is pinned on the one profile it belongs to, a fan's own post on the fan's, a post posted as a team on the
// team's (by its staff accounts). At most PINS_MAX per profile: counted under the profile's row lock (the user's, as
// every capped write of a user; the team's), so concurrent pins never pass the cap. Reads apply the visibility rule
// in the statement that reads them: a pinned post that is deleted, hidden, private to a team the reader is not a fan
// of, or whose author and the reader blocked one another is not shown.

export const PINS_MAX = 3;

type Profile = { userId: string; teamId: null } | { userId: null; teamId: string };

const profileWhere = (p: Profile) => (p.userId ? Prisma.sql`pn.user_id = ${p.userId}::uuid` : Prisma.sql`pn.team_id = ${p.teamId}`);

/** The profile a post is pinned on, if the user may pin it there (403 otherwise). */
async function profileFor(db: RawDb | DbTx, user: AuthUser, post: { authorId: string; authorTeamId: string | null }): Promise<Profile> {
  if (post.authorTeamId) {
    if (await canPostAsTeam(db, user, post.authorTeamId)) return { userId: null, teamId: post.authorTeamId };
    throw new DomainError(sharedErrors.FORBIDDEN, "Only the team's staff can pin a post posted as the team.");
  }
  if (post.authorId === user.id) return { userId: user.id, teamId: null };
  throw new DomainError(sharedErrors.FORBIDDEN, "You can pin only your own posts.");
}

async function lockProfile(tx: DbTx, p: Profile) {
  if (p.userId) await lockUser(tx, p.userId);
  else await tx.$executeRaw`SELECT 1 FROM teams WHERE id = ${p.teamId} FOR NO KEY UPDATE`;
}

export async function pinPost(db: Db, user: AuthUser, postId: string, now = new Date()) {
  const pinnedAt = await db.$transaction(async (tx) => {
    const post = await visiblePost(tx, postId, user);
    if (post.deletedAt || post.hiddenAt) throw notFound("Post");
    const profile = await profileFor(tx, user, post);
    if (post.publishAt > now) throw new DomainError(lockerroomErrors.POST_NOT_PUBLISHED, "A scheduled post can be pinned once it is published.");
    await lockProfile(tx, profile);
    const [existing] = await tx.$queryRaw<{ at: Date }[]>`SELECT created_at AS at FROM post_pins WHERE post_id = ${postId}::uuid`;
    if (existing) return existing.at;
    // Pins of deleted posts go; hidden ones stay (moderation may restore them) but do not count.
    await tx.$executeRaw`DELETE FROM post_pins pn USING posts p WHERE p.id = pn.post_id AND ${profileWhere(profile)} AND p.deleted_at IS NOT NULL`;
    const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM post_pins pn JOIN posts p ON p.id = pn.post_id WHERE ${profileWhere(profile)} AND p.hidden_at IS NULL`;
    if (n >= PINS_MAX) {
      throw new DomainError(lockerroomErrors.PIN_LIMIT_REACHED, `At most ${PINS_MAX} posts can be pinned on a profile: unpin one first.`);
    }
    const [row] = await tx.$queryRaw<{ at: Date }[]>`
      INSERT INTO post_pins (post_id, user_id, team_id) VALUES (${postId}::uuid, ${profile.userId}::uuid, ${profile.teamId})
      RETURNING created_at AS at`;
    return row!.at;
  }, txOptions());
  return { postId, pinned: true, pinnedAt: pinnedAt.toISOString() };
}

/** Unpins the post: its author (for a team's post, the team's staff). Idempotent; 404 when the caller may not see it. */
export async function unpinPost(db: Db, user: AuthUser, postId: string) {
  const [post] = await raw(db).$queryRaw<{ authorId: string; authorTeamId: string | null }[]>`
    SELECT author_id::text AS "authorId", author_team_id AS "authorTeamId" FROM posts WHERE id = ${postId}::uuid`;
  if (!post) throw notFound("Post");
  try {
    await profileFor(db, user, post);
  } catch (e) {
    await visiblePost(db, postId, user); // 404 rather than 403 for a post the caller may not see
    throw e;
  }
  await raw(db).$executeRaw`DELETE FROM post_pins WHERE post_id = ${postId}::uuid`;
  return { postId, pinned: false, pinnedAt: null };
}

function pinsOf(db: RawDb | DbTx, viewer: Viewer, profile: Profile) {
  const extra = Prisma.sql`, pn.created_at AS "pinnedAt"`;
  // Staff see every post through visiblePostSql; a profile still shows only published, live ones.
  const live = Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`;
  return raw(db).$queryRaw<(PostRow & { pinnedAt: Date })[]>`
    ${selectPosts(viewer, extra)}
    JOIN post_pins pn ON pn.post_id = p.id
    WHERE ${profileWhere(profile)} AND ${visiblePostSql(viewer)} AND ${live}
    ORDER BY pn.created_at DESC, pn.post_id DESC
    LIMIT ${PINS_MAX}`;
}

async function pinsPage(db: Db, viewer: Viewer, profile: Profile) {
  const rows = await pinsOf(db, viewer, profile);
  const teams = await teamSummaries(db, postTeamIds(rows));
  const now = new Date();
  return { pins: rows.map((row) => ({ ...toPost(row, teams, viewer, now), pinnedAt: row.pinnedAt.toISOString() })) };
}

/** A fan's pinned posts, newest pin first: 404 for an unknown user or a block either way (as their profile). */
export async function userPins(db: Db, viewer: Viewer, ref: UserRef) {
  const target = await targetOf(db, viewer?.id ?? null, ref);
  if (!target || (target.blocked && !viewer?.isAdmin)) throw notFound("User");
  return pinsPage(db, viewer, { userId: target.id, teamId: null });
}

/** A team's pinned posts, newest pin first; `{id}` is its id or slug (id first): 404 for an unknown or archived team. */
export async function teamPins(db: Db, viewer: Viewer, idOrSlug: string) {
  const [team] = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT id FROM teams WHERE (id = ${idOrSlug} OR slug = ${idOrSlug.toLowerCase()}) AND archived_at IS NULL ORDER BY id = ${idOrSlug} DESC LIMIT 1`;
  if (!team) throw notFound("Team");
  return pinsPage(db, viewer, { userId: null, teamId: team.id });
}
