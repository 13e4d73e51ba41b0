import { Prisma } from "../../generated/prisma/client";
import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { txOptions } from "../../db/tx";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { targetOf } from "../../core/follows/service";
import type { UserRef } from "../../core/follows/schemas";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { filtersVersionSql, mutedAuthorSql } from "../../core/mutes/service";
import { notePushSoon } from "../../core/push/service";
import { teamSummaries } from "../../core/teams/service";
import { visiblePost, visiblePostSql, type Viewer } from "../../core/visibility/service";
import { ownsPost } from "./policy";
import { selectPosts, type PostRow } from "./queries";
import { newestPostsPage, toPost } from "./service";
import { assertShareable, notifyRepost, postTeamIds } from "./sharing";

// Reposts and quotes (PUT and DELETE /api/locker-room/{postId}/repost, GET /api/v1/users/{userId}/reposts,
// GET /api/locker-room/{postId}/quotes, POST /api/locker-room/{postId}/quotes/{quotePostId}/detach). A repost is a
// row in post_reposts, once per fan and post, and posts.repost_count moves with it under the post's row lock (as
// reactions). A quote is a post with quoted_post_id (created by POST /api/locker-room, service.ts + sharing.ts);
// posts.quote_count is kept by a trigger. Only live, published, public posts can be reposted or quoted. Every read
// applies the visibility rule to the ORIGINAL post in the statement that reads it: a post hidden, deleted or blocked
// since is never shown as reposted, and a quote shows its quoted post only to who may see it.

type After = { at: Date; id: string } | undefined;

/** Reposts the post (idempotent, also concurrently: one row, the first time kept, counted once). */
export async function repostPost(db: Db, user: AuthUser, postId: string) {
  return db.$transaction(async (tx) => {
    assertShareable(await visiblePost(tx, postId, user, { forUpdate: true }));
    const [inserted] = await tx.$queryRaw<{ at: Date }[]>`
      INSERT INTO post_reposts (user_id, post_id) VALUES (${user.id}::uuid, ${postId}::uuid)
      ON CONFLICT (user_id, post_id) DO NOTHING RETURNING created_at AS at`;
    if (inserted) {
      await tx.$executeRaw`UPDATE posts SET repost_count = repost_count + 1 WHERE id = ${postId}::uuid`;
      if ((await notifyRepost(tx, postId, user.id)) > 0) notePushSoon();
    }
    const [row] = await tx.$queryRaw<{ at: Date; count: number }[]>`
      SELECT r.created_at AS at, p.repost_count AS count FROM post_reposts r JOIN posts p ON p.id = r.post_id
      WHERE r.user_id = ${user.id}::uuid AND r.post_id = ${postId}::uuid`;
    return { postId, reposted: true, repostedAt: row!.at.toISOString(), repostCount: row!.count };
  }, txOptions());
}

/**
 * Removes the caller's repost, if any, whether or not the post is still visible (so a repost of a post that became
 * invisible can be taken back). The post's row is locked first, as a repost locks it, so the two never deadlock.
 * `repostCount` is null when the caller may not see the post.
 */
export async function unrepostPost(db: Db, user: AuthUser, postId: string) {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM posts WHERE id = ${postId}::uuid FOR UPDATE`;
    const removed = await tx.$executeRaw`DELETE FROM post_reposts WHERE user_id = ${user.id}::uuid AND post_id = ${postId}::uuid`;
    if (removed > 0) await tx.$executeRaw`UPDATE posts SET repost_count = repost_count - 1 WHERE id = ${postId}::uuid`;
    const [row] = await tx.$queryRaw<{ count: number }[]>`
      SELECT p.repost_count AS count FROM posts p WHERE p.id = ${postId}::uuid AND ${visiblePostSql(user)}`;
    return { postId, reposted: false, repostedAt: null, repostCount: row?.count ?? null };
  }, txOptions());
}

/** A page of a fan's reposts, newest first by (created_at, post_id), over the index (user_id, created_at DESC, post_id DESC). */
function repostsPage(db: RawDb | DbTx, viewer: Viewer, userId: string, after: After, take: number) {
  const where: Prisma.Sql[] = [
    Prisma.sql`rr.user_id = ${userId}::uuid`,
    visiblePostSql(viewer),
    // Staff see every post through visiblePostSql; reposts still list only live, published ones.
    Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`,
  ];
  if (after) where.push(Prisma.sql`(rr.created_at, rr.post_id) < (${after.at}, ${after.id}::uuid)`);
  const extra = Prisma.sql`, rr.created_at AS "repostedAt", ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted`;
  return raw(db).$queryRaw<(PostRow & { repostedAt: Date; muted: boolean })[]>`
    ${selectPosts(viewer, extra)}
    JOIN post_reposts rr ON rr.post_id = p.id
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY rr.created_at DESC, rr.post_id DESC
    LIMIT ${take}`;
}

/**
 * GET /api/v1/users/{userId}/reposts: the posts a fan reposted, newest repost first; 404 for an unknown user or a
 * block either way. Posts the viewer may not see, and posts by authors the viewer mutes, are left out (a short page).
 */
export async function userReposts(db: Db, viewer: Viewer, ref: UserRef, { cursor, limit }: { cursor?: string; limit: number }) {
  const target = await targetOf(db, viewer?.id ?? null, ref);
  if (!target || (target.blocked && !viewer?.isAdmin)) throw notFound("User");
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const rows = await repostsPage(db, viewer, target.id, after, limit + 1);
  const teams = await teamSummaries(db, postTeamIds(rows));
  const now = new Date();
  return keysetPage(
    "reposts",
    rows,
    limit,
    (last) => encodeCursor(last.repostedAt.getTime(), last.id),
    (row) => ({ ...toPost(row, teams, viewer, now), repostedAt: row.repostedAt.toISOString() }),
    (row) => !row.muted || row.authorId === viewer?.id,
  );
}

/** A page of the posts quoting a post, newest first by (publish_at, id), over the index (quoted_post_id, publish_at DESC, id DESC). */
function quotesPage(db: RawDb | DbTx, viewer: Viewer, postId: string, after: After, take: number) {
  const where: Prisma.Sql[] = [
    Prisma.sql`p.quoted_post_id = ${postId}::uuid`,
    Prisma.sql`p.quote_detached_at IS NULL`,
    visiblePostSql(viewer),
    Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`,
  ];
  if (after) where.push(Prisma.sql`(p.publish_at, p.id) < (${after.at}, ${after.id}::uuid)`);
  const extra = Prisma.sql`, ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted, ${filtersVersionSql(viewer?.id)} AS "filtersVersion"`;
  return raw(db).$queryRaw<(PostRow & { muted: boolean; filtersVersion: number })[]>`
    ${selectPosts(viewer, extra)}
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY p.publish_at DESC, p.id DESC
    LIMIT ${take}`;
}

/**
 * GET /api/locker-room/{postId}/quotes: the quotes of a post the caller may see (else 404), newest first; each one
 * the caller may see, not detached, its author not muted by the caller and its text not matched by their feed
 * filters (a short page, as the feed).
 */
export async function listQuotes(db: Db, viewer: Viewer, postId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  await visiblePost(db, postId, viewer);
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const rows = await quotesPage(db, viewer, postId, after, limit + 1);
  return newestPostsPage(db, viewer, rows, limit, "posts");
}

/**
 * The quoted post's author (for a team's post, its staff) detaches a quote: the quote no longer shows the post
 * (`quotedPost: { id, unavailable: true, detached: true }`), leaves its quotes list and count. Idempotent: the first
 * time is kept. 404 when the caller may not see the post, or the quote does not quote it.
 */
export async function detachQuote(db: Db, user: AuthUser, postId: string, quotePostId: string) {
  const post = await visiblePost(db, postId, user);
  if (!(await ownsPost(db, user, post))) {
    throw new DomainError(sharedErrors.FORBIDDEN, "Only the quoted post's author (for a team's post, its staff) can detach a quote of it.");
  }
  const [row] = await raw(db).$queryRaw<{ at: Date }[]>`
    UPDATE posts SET quote_detached_at = COALESCE(quote_detached_at, now())
    WHERE id = ${quotePostId}::uuid AND quoted_post_id = ${postId}::uuid
    RETURNING quote_detached_at AS at`;
  if (!row) throw notFound("Quote");
  return { postId, quotePostId, detached: true, detachedAt: row.at.toISOString() };
}
