import { Prisma } from "../../generated/prisma/client";
import type { AuthUser } from "../../auth/users";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { actorJsonSql, actorNameSql, insertNotifications, recipientAcceptsSql, threadNotMutedSql } from "../../core/notifications/service";
import { visiblePostSql } from "../../core/visibility/service";
import type { ParsedTag } from "./parse";
import { profileWhere, type PinProfile } from "./pin-queries";
import type { commentPolicyDb } from "./sharing";

// The locker room's writes beside a post's own (queries.ts): reply controls, reposts and quotes, pins, bookmarks,
// and the tag and mention rows with their notifications.

/** Sets who may comment on the post (its interaction policy). */
export const setCommentPolicy = (tx: DbTx, postId: string, policy: ReturnType<typeof commentPolicyDb>) =>
  tx.$executeRaw`UPDATE posts SET comment_policy = ${policy}::"CommentPolicy" WHERE id = ${postId}::uuid`;

// Reposts and quotes (reposts.ts) -------------------------------------------------------------------------------------

/** Adds the fan's repost of the post: its time, or none when they had reposted it already. */
export async function insertRepost(tx: DbTx, userId: string, postId: string): Promise<Date | undefined> {
  const [inserted] = await tx.$queryRaw<{ at: Date }[]>`
    INSERT INTO post_reposts (user_id, post_id) VALUES (${userId}::uuid, ${postId}::uuid)
    ON CONFLICT (user_id, post_id) DO NOTHING RETURNING created_at AS at`;
  return inserted?.at;
}

/** Removes the fan's repost of the post: how many rows went (0 or 1). */
export const deleteRepost = (tx: DbTx, userId: string, postId: string) =>
  tx.$executeRaw`DELETE FROM post_reposts WHERE user_id = ${userId}::uuid AND post_id = ${postId}::uuid`;

export const incrementRepostCount = (tx: DbTx, postId: string) => tx.$executeRaw`UPDATE posts SET repost_count = repost_count + 1 WHERE id = ${postId}::uuid`;

export const decrementRepostCount = (tx: DbTx, postId: string) => tx.$executeRaw`UPDATE posts SET repost_count = repost_count - 1 WHERE id = ${postId}::uuid`;

/** Detaches the quote from the post it quotes (the first time stays): when, or none when it does not quote that post. */
export async function detachQuoteRow(db: RawDb | DbTx, postId: string, quotePostId: string): Promise<Date | undefined> {
  const [row] = await raw(db).$queryRaw<{ at: Date }[]>`
    UPDATE posts SET quote_detached_at = COALESCE(quote_detached_at, now())
    WHERE id = ${quotePostId}::uuid AND quoted_post_id = ${postId}::uuid
    RETURNING quote_detached_at AS at`;
  return row?.at;
}

/**
 * Tells a post's author that a fan reposted (REPOST, once per fan and post, grouped per post like REACTION) or quoted
 * it (QUOTE, once per quote): with their notifyCommunity on, never for their own action, not across a block, not when
 * they muted the post's thread or the fan (lib/core/mutes). Written in the repost's or the quote's transaction.
 */
export const notifyRepost = (tx: DbTx, postId: string, userId: string) =>
  insertNotifications(tx, {
    type: "REPOST",
    recipient: Prisma.sql`p.author_id`,
    cause: Prisma.sql`'repost:' || p.id || ':' || a.id`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('postId', p.id::text, 'actor', ${actorJsonSql()},
                              'title', ${actorNameSql()} || ' reposted your post', 'body', left(p.content, 140),
                              'href', '/api/locker-room/' || p.id)`,
    from: Prisma.sql`FROM posts p JOIN users u ON u.id = p.author_id JOIN users a ON a.id = ${userId}::uuid
    WHERE p.id = ${postId}::uuid AND ${notifiable}`,
  });

export const notifyQuote = (tx: DbTx, quoteId: string) =>
  insertNotifications(tx, {
    type: "QUOTE",
    recipient: Prisma.sql`p.author_id`,
    cause: Prisma.sql`'quote:' || q.id`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('postId', p.id::text, 'quotePostId', q.id::text, 'actor', ${actorJsonSql()},
                              'title', ${actorNameSql()} || ' quoted your post', 'body', left(q.content, 140),
                              'href', '/api/locker-room/' || q.id)`,
    from: Prisma.sql`FROM posts q JOIN posts p ON p.id = q.quoted_post_id JOIN users u ON u.id = p.author_id JOIN users a ON a.id = q.author_id
    WHERE q.id = ${quoteId}::uuid AND ${notifiable}`,
  });

/** Over the post `p`, its author `u` and the actor `a`: the author wants this notification. */
const notifiable = Prisma.sql`p.author_id <> a.id AND u.notify_community
      AND ${recipientAcceptsSql(Prisma.sql`u.id`, Prisma.sql`a.id`)}
      AND ${threadNotMutedSql(Prisma.sql`p.author_id`, Prisma.sql`p.id`)}`;

// Pins (pins.ts) ------------------------------------------------------------------------------------------------------

/** Removes the profile's pins of deleted posts (hidden ones stay). */
export const deletePinsOfDeletedPosts = (tx: DbTx, profile: PinProfile) =>
  tx.$executeRaw`DELETE FROM post_pins pn USING posts p WHERE p.id = pn.post_id AND ${profileWhere(profile)} AND p.deleted_at IS NOT NULL`;

/** Pins the post on the profile: when. */
export async function insertPin(tx: DbTx, postId: string, profile: PinProfile): Promise<Date> {
  const [row] = await tx.$queryRaw<{ at: Date }[]>`
    INSERT INTO post_pins (post_id, user_id, team_id) VALUES (${postId}::uuid, ${profile.userId}::uuid, ${profile.teamId})
    RETURNING created_at AS at`;
  return row!.at;
}

export const deletePin = (db: RawDb | DbTx, postId: string) => raw(db).$executeRaw`DELETE FROM post_pins WHERE post_id = ${postId}::uuid`;

// Bookmarks (bookmarks.ts) --------------------------------------------------------------------------------------------

/** Bookmarks the post if the caller may see it, in one statement; the first bookmark's time stays (idempotent). */
export async function insertBookmark(db: RawDb | DbTx, user: AuthUser, postId: string): Promise<Date | undefined> {
  // DO UPDATE (a no-op) rather than DO NOTHING: a concurrent or repeated PUT still returns the row's time.
  const [row] = await raw(db).$queryRaw<{ createdAt: Date }[]>`
    INSERT INTO bookmarks (user_id, post_id)
    SELECT ${user.id}::uuid, p.id FROM posts p WHERE p.id = ${postId}::uuid AND ${visiblePostSql(user)}
    ON CONFLICT (user_id, post_id) DO UPDATE SET created_at = bookmarks.created_at
    RETURNING created_at AS "createdAt"`;
  return row?.createdAt;
}

export const deleteBookmark = (db: RawDb | DbTx, userId: string, postId: string) =>
  raw(db).$executeRaw`DELETE FROM bookmarks WHERE user_id = ${userId}::uuid AND post_id = ${postId}::uuid`;

// Tags and mentions (indexing.ts) -------------------------------------------------------------------------------------

/** Creates the tags not seen before (sorted, so concurrent writers take the unique index's locks in one order). */
export async function ensureTags(tx: DbTx, tags: ParsedTag[]) {
  if (!tags.length) return;
  const sorted = [...tags].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  await tx.$executeRaw`
    INSERT INTO tags (tag, name)
    SELECT t.tag, t.name FROM unnest(${sorted.map((t) => t.tag)}::text[], ${sorted.map((t) => t.name)}::text[]) WITH ORDINALITY AS t(tag, name, i)
    ORDER BY t.i
    ON CONFLICT (tag) DO NOTHING`;
}

/** The post's tag rows become `keys`: the others go, new ones come (with the post's author and publication time). */
export async function setPostTags(tx: DbTx, postId: string, post: { authorId: string; publishAt: Date }, keys: string[]) {
  await tx.$executeRaw`DELETE FROM post_tags WHERE post_id = ${postId}::uuid AND tag <> ALL(${keys}::text[])`;
  if (keys.length) {
    await tx.$executeRaw`
      INSERT INTO post_tags (post_id, tag, author_id, publish_at)
      SELECT ${postId}::uuid, t, ${post.authorId}::uuid, ${post.publishAt} FROM unnest(${keys}::text[]) AS t
      ON CONFLICT (post_id, tag) DO NOTHING`;
  }
}

/** The post's mention rows become `userIds`: the others go, new ones come. */
export async function setPostMentions(tx: DbTx, postId: string, userIds: string[]) {
  await tx.$executeRaw`DELETE FROM post_mentions WHERE post_id = ${postId}::uuid AND user_id <> ALL(${userIds}::uuid[])`;
  if (userIds.length) {
    await tx.$executeRaw`
      INSERT INTO post_mentions (post_id, user_id) SELECT ${postId}::uuid, u FROM unnest(${userIds}::uuid[]) AS u
      ON CONFLICT (post_id, user_id) DO NOTHING`;
  }
}

/** A new comment's tag rows (with its post and author). */
export async function insertCommentTags(tx: DbTx, commentId: string, comment: { postId: string; authorId: string }, keys: string[]) {
  if (keys.length) {
    await tx.$executeRaw`
      INSERT INTO comment_tags (comment_id, tag, post_id, author_id)
      SELECT ${commentId}::uuid, t, ${comment.postId}::uuid, ${comment.authorId}::uuid FROM unnest(${keys}::text[]) AS t
      ON CONFLICT (comment_id, tag) DO NOTHING`;
  }
}

/** A new comment's mention rows. */
export async function insertCommentMentions(tx: DbTx, commentId: string, userIds: string[]) {
  if (userIds.length) {
    await tx.$executeRaw`
      INSERT INTO comment_mentions (comment_id, user_id) SELECT ${commentId}::uuid, u FROM unnest(${userIds}::uuid[]) AS u
      ON CONFLICT (comment_id, user_id) DO NOTHING`;
  }
}

export interface MentionSource {
  postId: string;
  commentId: string | null;
  actorId: string;
  content: string;
}

/**
 * MENTION to one mentioned fan, once per (post or comment, fan) by its cause key: not to the author, only with
 * notifyCommunity on, not across a block (with the post's author, by the visibility rule, and with the actor), not
 * when the fan mutes the actor (a mute with notifications) or the post's thread, and only when the fan may see the
 * post (THE visibility rule, lib/core/visibility/service.ts, read for that fan: published, live, public or theirs as a team fan).
 */
export function notifyMention(tx: DbTx, s: MentionSource, userId: string) {
  const cause = s.commentId ? `mention:comment:${s.commentId}` : `mention:post:${s.postId}`;
  const what = s.commentId ? " mentioned you in a comment" : " mentioned you in a post";
  return insertNotifications(tx, {
    type: "MENTION",
    recipient: Prisma.sql`r.id`,
    cause: Prisma.sql`${cause}`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('postId', p.id::text, 'commentId', ${s.commentId}::text,
                              'actor', ${actorJsonSql()},
                              'title', ${actorNameSql()} || ${what}, 'body', left(${s.content}, 140),
                              'href', '/api/locker-room/' || p.id)`,
    from: Prisma.sql`FROM posts p JOIN users a ON a.id = ${s.actorId}::uuid JOIN users r ON r.id = ${userId}::uuid
    WHERE p.id = ${s.postId}::uuid AND r.id <> a.id AND r.notify_community
      AND ${visiblePostSql({ id: userId, isAdmin: false })}
      AND ${recipientAcceptsSql(Prisma.sql`r.id`, Prisma.sql`a.id`)}
      AND ${threadNotMutedSql(Prisma.sql`r.id`, Prisma.sql`p.id`)}`,
  });
}
