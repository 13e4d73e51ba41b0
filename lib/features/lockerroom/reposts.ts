import type { AuthUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { txOptions } from "../../db/tx";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { targetOf } from "../../core/follows/service";
import type { UserRef } from "../../core/follows/schemas";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { notePushSoon } from "../../core/push/service";
import { teamSummaries } from "../../core/teams/service";
import { visiblePost, type Viewer } from "../../core/visibility/service";
import { ownsPost } from "./policy";
import { lockPost, quotesPage, repostOf, repostsPage, visibleRepostCount } from "./queries";
import { newestPostsPage, toPost } from "./service";
import { assertShareable, postTeamIds } from "./sharing";
import { decrementRepostCount, deleteRepost, detachQuoteRow, incrementRepostCount, insertRepost, notifyRepost } from "./writes";

// Reposts and quotes (PUT and DELETE /api/locker-room/{postId}/repost, GET /api/v1/users/{userId}/reposts,
// GET /api/locker-room/{postId}/quotes, POST /api/locker-room/{postId}/quotes/{quotePostId}/detach). A repost is a
// row in post_reposts, once per fan and post, and posts.repost_count moves with it under the post's row lock (as
// reactions). A quote is a post with quoted_post_id (created by POST /api/locker-room, service.ts + sharing.ts);
// posts.quote_count is kept by a trigger. Only live, published, public posts can be reposted or quoted. Every read
// applies the visibility rule to the ORIGINAL post in the statement that reads it: a post hidden, deleted or blocked
// since is never shown as reposted, and a quote shows its quoted post only to who may see it.

/** Reposts the post (idempotent, also concurrently: one row, the first time kept, counted once). */
export async function repostPost(db: Db, user: AuthUser, postId: string) {
  return db.$transaction(async (tx) => {
    assertShareable(await visiblePost(tx, postId, user, { forUpdate: true }));
    if (await insertRepost(tx, user.id, postId)) {
      await incrementRepostCount(tx, postId);
      if ((await notifyRepost(tx, postId, user.id)) > 0) notePushSoon();
    }
    const row = await repostOf(tx, user.id, postId);
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
    await lockPost(tx, postId);
    const removed = await deleteRepost(tx, user.id, postId);
    if (removed > 0) await decrementRepostCount(tx, postId);
    return { postId, reposted: false, repostedAt: null, repostCount: await visibleRepostCount(tx, user, postId) };
  }, txOptions());
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
  const at = await detachQuoteRow(db, postId, quotePostId);
  if (!at) throw notFound("Quote");
  return { postId, quotePostId, detached: true, detachedAt: at.toISOString() };
}
