import type { AuthUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { txOptions } from "../../db/tx";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { DomainError, notFound, validationError, sharedErrors } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import { assertMayPost, blockedBetween, visiblePost, type Viewer } from "../../core/visibility/service";
import { commentById, commentsPage, commentState, insertComment, lockPostForComments, notifyReply, softDeleteComment, type CommentRow } from "./queries";
import { viewerTextFilter } from "../../core/mutes/service";
import { notePushSoon } from "../../core/push/service";
import { assertMayComment } from "../lockerroom/service";
import { indexComment } from "../lockerroom/service";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { commentState } from "./queries";

// Comments on locker-room posts, one level of replies. Commenting follows the post's visibility (a post the caller
// may not see, blocks either way included, is 404) and the posting rules (terms, suspension). Counters move in the
// comment's transaction under the post's row lock; the moderation module hides and restores under the same lock.

function toComment(c: CommentRow, viewer: Viewer) {
  return {
    id: c.id,
    postId: c.postId,
    parentId: c.parentId,
    author: c.removed ? null : { id: c.authorId, handle: c.handle, displayName: c.displayName, avatarUrl: c.avatarUrl },
    content: c.removed ? null : c.content,
    removed: c.removed,
    createdAt: c.createdAt.toISOString(),
    replyCount: c.replyCount,
    viewer: { canDelete: !c.removed && Boolean(viewer && (viewer.id === c.authorId || viewer.isAdmin)) },
  };
}

export async function createComment(db: Db, user: AuthUser, postId: string, content: string, parentId?: string) {
  await assertMayPost(db, user.id);
  const id = await db.$transaction(async (tx) => {
    await visiblePost(tx, postId, user, { forUpdate: true });
    await assertMayComment(tx, user, postId); // the post's interaction policy, under its row lock
    if (parentId) {
      const parent = await commentState(tx, parentId);
      if (!parent || parent.postId !== postId) {
        throw validationError("parentId is not a comment of this post.", [{ path: "body.parentId", message: "Not a comment of this post" }]);
      }
      if (parent.parentId) {
        throw validationError("Replies are one level deep: reply to the top-level comment.", [
          { path: "body.parentId", message: `Reply to ${parent.parentId} instead` },
        ]);
      }
      if (parent.deletedAt || parent.hiddenAt || (await blockedBetween(tx, user.id, parent.authorId))) throw notFound("Comment");
    }
    const created = await insertComment(tx, postId, user.id, content, parentId ?? null);
    await notifyReply(tx, created);
    await indexComment(tx, created); // tags and mentions (lib/features/tags), with their MENTION notifications
    notePushSoon();
    return created;
  }, txOptions());
  return toComment(await commentById(db, id), user);
}

export async function listComments(db: Db, viewer: Viewer, postId: string, q: { parentId?: string; cursor?: string; limit: number }) {
  await visiblePost(db, postId, viewer);
  if (q.parentId) {
    const parent = await commentState(db, q.parentId);
    if (!parent || parent.postId !== postId || parent.parentId) throw notFound("Comment");
  }
  const after = q.cursor ? decodeIdCursor(q.cursor) : undefined;
  const rows = await commentsPage(db, postId, { parentId: q.parentId ?? null, viewerId: viewer?.id, after, take: q.limit + 1 });
  const filtered = await viewerTextFilter(db, viewer?.id, "comments", rows);
  // A muted author's comments, and live comments (never the viewer's own) a filter matches, are left out.
  return keysetPage(
    "comments",
    rows,
    q.limit,
    (last) => encodeIdCursor(last.id),
    (c) => toComment(c, viewer),
    (c) => !c.muted && (c.removed || c.authorId === viewer?.id || !filtered(c.content)),
  );
}

/** The author (or staff) deletes a comment; deleting again answers the same; the counters move once. */
export async function deleteComment(db: Db, user: AuthUser, postId: string, commentId: string) {
  const comment = await commentState(db, commentId);
  if (!comment || comment.postId !== postId) throw notFound("Comment");
  if (comment.authorId !== user.id && !user.isAdmin) {
    await visiblePost(db, postId, user);
    throw new DomainError(sharedErrors.FORBIDDEN, "Only the author can delete a comment.");
  }
  if (!comment.deletedAt) {
    await db.$transaction(async (tx) => {
      await lockPostForComments(tx, postId);
      await softDeleteComment(tx, commentId);
    }, txOptions());
  }
  return { id: commentId, deleted: true as const };
}
