import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { filtersVersionSql, mutedAuthorSql } from "../../core/mutes/service";
import { actorJsonSql, actorNameSql, insertNotifications, recipientAcceptsSql, threadNotMutedSql } from "../../core/notifications/service";

// Comments: rows in post_comments (one level of replies); posts.comment_count and the parent's reply_count count the
// comments neither deleted nor hidden, and move in the transaction that changes a comment, under the post's lock.

export interface CommentRow {
  id: string;
  postId: string;
  parentId: string | null;
  authorId: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  content: string;
  createdAt: Date;
  replyCount: number;
  removed: boolean;
}

/** A comment's state a change needs. */
export async function commentState(db: RawDb | DbTx, commentId: string) {
  const [row] = await raw(db).$queryRaw<
    { id: string; postId: string; parentId: string | null; authorId: string; deletedAt: Date | null; hiddenAt: Date | null }[]
  >`
    SELECT id::text AS id, post_id::text AS "postId", parent_id::text AS "parentId", author_id::text AS "authorId",
           deleted_at AS "deletedAt", hidden_at AS "hiddenAt"
    FROM post_comments WHERE id = ${commentId}::uuid`;
  return row;
}

/** Inserts the comment and moves the counters (post, and the parent for a reply). */
export async function insertComment(tx: DbTx, postId: string, authorId: string, content: string, parentId: string | null) {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    WITH c AS (
      INSERT INTO post_comments (id, post_id, author_id, parent_id, content)
      VALUES (${UUIDV7_SQL}, ${postId}::uuid, ${authorId}::uuid, ${parentId}::uuid, ${content})
      RETURNING id),
    p AS (UPDATE posts SET comment_count = comment_count + 1 WHERE id = ${postId}::uuid),
    r AS (UPDATE post_comments SET reply_count = reply_count + 1 WHERE id = ${parentId}::uuid)
    SELECT id::text AS id FROM c`;
  return row!.id;
}

/** Soft-deletes the comment once; when it was counted (not hidden), the counters move back. */
export async function softDeleteComment(tx: DbTx, commentId: string) {
  const [row] = await tx.$queryRaw<{ counted: boolean }[]>`
    WITH d AS (
      UPDATE post_comments SET deleted_at = now() WHERE id = ${commentId}::uuid AND deleted_at IS NULL
      RETURNING post_id, parent_id, hidden_at IS NULL AS counted),
    p AS (UPDATE posts SET comment_count = comment_count - 1 WHERE id = (SELECT post_id FROM d WHERE counted)),
    r AS (UPDATE post_comments SET reply_count = reply_count - 1 WHERE id = (SELECT parent_id FROM d WHERE counted))
    SELECT counted FROM d`;
  return row !== undefined;
}

export const lockPostForComments = (tx: DbTx, postId: string) => tx.$executeRaw`SELECT 1 FROM posts WHERE id = ${postId}::uuid FOR UPDATE`;

/**
 * REPLY for the post's author (a comment) or the parent comment's author (a reply): not for one's own, only with
 * notifyCommunity on, no block either way, the post's thread not muted by them and the commenter not muted by them
 * (a mute with notifications, lib/core/mutes).
 */
export const notifyReply = (tx: DbTx, commentId: string) =>
  insertNotifications(tx, {
    type: "REPLY",
    recipient: Prisma.sql`r.id`,
    cause: Prisma.sql`'reply:' || c.id`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('postId', c.post_id::text, 'commentId', c.id::text, 'parentId', c.parent_id::text,
                              'actor', ${actorJsonSql()},
                              'title', ${actorNameSql()} || CASE WHEN c.parent_id IS NULL THEN ' commented on your post' ELSE ' replied to your comment' END,
                              'body', left(c.content, 140), 'href', '/api/locker-room/' || c.post_id)`,
    from: Prisma.sql`FROM post_comments c
    JOIN users a ON a.id = c.author_id
    JOIN users r ON r.id = COALESCE((SELECT pc.author_id FROM post_comments pc WHERE pc.id = c.parent_id), (SELECT p.author_id FROM posts p WHERE p.id = c.post_id))
    WHERE c.id = ${commentId}::uuid AND r.id <> a.id AND r.notify_community
      AND ${recipientAcceptsSql(Prisma.sql`r.id`, Prisma.sql`a.id`)}
      AND ${threadNotMutedSql(Prisma.sql`r.id`, Prisma.sql`c.post_id`)}`,
  });

/**
 * A page of a post's top-level comments (parentId null) or of one comment's replies, oldest first by id. Deleted and
 * hidden comments are left out, except top-level ones with replies (a placeholder keeps the thread); comments by
 * users in a block relation with the viewer are never listed. Each row says whether the viewer mutes its author
 * (`muted`) and carries the viewer's filters version (lib/core/mutes); the caller leaves muted ones and live comments a
 * comment filter matches out of a page read in keyset order, so the page may be short and its cursor never skips one.
 */
export function commentsPage(
  db: RawDb | DbTx,
  postId: string,
  { parentId, viewerId, after, take }: { parentId: string | null; viewerId?: string; after?: string; take: number },
) {
  const where: Prisma.Sql[] = [
    Prisma.sql`c.post_id = ${postId}::uuid`,
    parentId ? Prisma.sql`c.parent_id = ${parentId}::uuid` : Prisma.sql`c.parent_id IS NULL`,
    Prisma.sql`((c.deleted_at IS NULL AND c.hidden_at IS NULL) OR c.reply_count > 0)`,
  ];
  if (after) where.push(Prisma.sql`c.id > ${after}::uuid`);
  if (viewerId) {
    where.push(Prisma.sql`NOT EXISTS (SELECT 1 FROM user_blocks b WHERE (b.blocker_id = ${viewerId}::uuid AND b.blocked_id = c.author_id)
                                                           OR (b.blocker_id = c.author_id AND b.blocked_id = ${viewerId}::uuid))`);
  }
  return raw(db).$queryRaw<(CommentRow & { muted: boolean; filtersVersion: number })[]>`
    SELECT c.id::text AS id, c.post_id::text AS "postId", c.parent_id::text AS "parentId", c.author_id::text AS "authorId",
           u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", c.content, c.created_at AS "createdAt",
           c.reply_count AS "replyCount", (c.deleted_at IS NOT NULL OR c.hidden_at IS NOT NULL) AS removed,
           ${mutedAuthorSql(viewerId, Prisma.sql`c.author_id`)} AS muted, ${filtersVersionSql(viewerId)} AS "filtersVersion"
    FROM post_comments c JOIN users u ON u.id = c.author_id
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY c.id
    LIMIT ${take}`;
}

export async function commentById(db: RawDb | DbTx, commentId: string) {
  const rows = await raw(db).$queryRaw<CommentRow[]>`
    SELECT c.id::text AS id, c.post_id::text AS "postId", c.parent_id::text AS "parentId", c.author_id::text AS "authorId",
           u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", c.content, c.created_at AS "createdAt",
           c.reply_count AS "replyCount", (c.deleted_at IS NOT NULL OR c.hidden_at IS NOT NULL) AS removed
    FROM post_comments c JOIN users u ON u.id = c.author_id WHERE c.id = ${commentId}::uuid`;
  return rows[0]!;
}
