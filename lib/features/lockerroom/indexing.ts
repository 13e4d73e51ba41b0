import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { visiblePostSql } from "../../core/visibility/service";
import { insertNotifications, actorJsonSql, actorNameSql, recipientAcceptsSql, threadNotMutedSql } from "../../core/notifications/service";
import { notePushSoon } from "../../core/push/service";
import { parseMentions, parseTags, type ParsedTag } from "./parse";

// The write-time side of tags and mentions: one call from the locker room's create and edit (indexPost) and from
// comment creation (indexComment), in their transaction, so the rows and the MENTION notifications exist exactly
// when the post or comment does. Rules: docs/domains/tags.md.

/** Creates the tags not seen before (sorted, so concurrent writers take the unique index's locks in one order). */
async function ensureTags(tx: DbTx, tags: ParsedTag[]) {
  if (!tags.length) return;
  const sorted = [...tags].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  await tx.$executeRaw`
    INSERT INTO tags (tag, name)
    SELECT t.tag, t.name FROM unnest(${sorted.map((t) => t.tag)}::text[], ${sorted.map((t) => t.name)}::text[]) WITH ORDINALITY AS t(tag, name, i)
    ORDER BY t.i
    ON CONFLICT (tag) DO NOTHING`;
}

/** The live accounts (a handle, so not erased) the handle keys name. */
async function mentionedUsers(tx: DbTx, handles: string[]): Promise<string[]> {
  if (!handles.length) return [];
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM users WHERE handle_key = ANY(${handles}::text[]) AND handle IS NOT NULL ORDER BY id`;
  return rows.map((r) => r.id);
}

interface MentionSource {
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
function notifyMention(tx: DbTx, s: MentionSource, userId: string) {
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

async function notifyMentions(tx: DbTx, s: MentionSource, userIds: string[]) {
  let written = 0;
  for (const id of userIds) written += await notifyMention(tx, s, id);
  if (written) notePushSoon();
}

/**
 * (Re)indexes a post's tags and mentions from its current content, in the caller's transaction (create, edit): rows
 * no longer in the text go, new ones come, and each newly mentioned fan is notified (once ever per post and fan).
 */
export async function indexPost(tx: DbTx, postId: string): Promise<void> {
  const [post] = await tx.$queryRaw<{ authorId: string; content: string; publishAt: Date }[]>`
    SELECT author_id::text AS "authorId", content, publish_at AS "publishAt" FROM posts WHERE id = ${postId}::uuid`;
  if (!post) return;
  const tags = parseTags(post.content);
  const userIds = await mentionedUsers(tx, parseMentions(post.content));
  await ensureTags(tx, tags);
  const keys = tags.map((t) => t.tag);
  await tx.$executeRaw`DELETE FROM post_tags WHERE post_id = ${postId}::uuid AND tag <> ALL(${keys}::text[])`;
  if (keys.length) {
    await tx.$executeRaw`
      INSERT INTO post_tags (post_id, tag, author_id, publish_at)
      SELECT ${postId}::uuid, t, ${post.authorId}::uuid, ${post.publishAt} FROM unnest(${keys}::text[]) AS t
      ON CONFLICT (post_id, tag) DO NOTHING`;
  }
  await tx.$executeRaw`DELETE FROM post_mentions WHERE post_id = ${postId}::uuid AND user_id <> ALL(${userIds}::uuid[])`;
  if (userIds.length) {
    await tx.$executeRaw`
      INSERT INTO post_mentions (post_id, user_id) SELECT ${postId}::uuid, u FROM unnest(${userIds}::uuid[]) AS u
      ON CONFLICT (post_id, user_id) DO NOTHING`;
  }
  await notifyMentions(tx, { postId, commentId: null, actorId: post.authorId, content: post.content }, userIds);
}

/** Indexes a new comment's tags and mentions and notifies the mentioned fans, in the comment's transaction. */
export async function indexComment(tx: DbTx, commentId: string): Promise<void> {
  const [comment] = await tx.$queryRaw<{ postId: string; authorId: string; content: string }[]>`
    SELECT post_id::text AS "postId", author_id::text AS "authorId", content FROM post_comments WHERE id = ${commentId}::uuid`;
  if (!comment) return;
  const tags = parseTags(comment.content);
  const userIds = await mentionedUsers(tx, parseMentions(comment.content));
  await ensureTags(tx, tags);
  if (tags.length) {
    await tx.$executeRaw`
      INSERT INTO comment_tags (comment_id, tag, post_id, author_id)
      SELECT ${commentId}::uuid, t, ${comment.postId}::uuid, ${comment.authorId}::uuid FROM unnest(${tags.map((t) => t.tag)}::text[]) AS t
      ON CONFLICT (comment_id, tag) DO NOTHING`;
  }
  if (userIds.length) {
    await tx.$executeRaw`
      INSERT INTO comment_mentions (comment_id, user_id) SELECT ${commentId}::uuid, u FROM unnest(${userIds}::uuid[]) AS u
      ON CONFLICT (comment_id, user_id) DO NOTHING`;
  }
  await notifyMentions(tx, { postId: comment.postId, commentId, actorId: comment.authorId, content: comment.content }, userIds);
}
