import type { DbTx } from "../../db/client";
import { notePushSoon } from "../../core/push/service";
import { parseMentions, parseTags } from "./parse";
import { commentToIndex, mentionedUsers, postToIndex } from "./queries";
import { ensureTags, insertCommentMentions, insertCommentTags, notifyMention, setPostMentions, setPostTags, type MentionSource } from "./writes";

// The write-time side of tags and mentions: one call from the locker room's create and edit (indexPost) and from
// comment creation (indexComment), in their transaction, so the rows and the MENTION notifications exist exactly
// when the post or comment does. Rules: docs/domains/tags.md.

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
  const post = await postToIndex(tx, postId);
  if (!post) return;
  const tags = parseTags(post.content);
  const userIds = await mentionedUsers(tx, parseMentions(post.content));
  await ensureTags(tx, tags);
  const keys = tags.map((t) => t.tag);
  await setPostTags(tx, postId, post, keys);
  await setPostMentions(tx, postId, userIds);
  await notifyMentions(tx, { postId, commentId: null, actorId: post.authorId, content: post.content }, userIds);
}

/** Indexes a new comment's tags and mentions and notifies the mentioned fans, in the comment's transaction. */
export async function indexComment(tx: DbTx, commentId: string): Promise<void> {
  const comment = await commentToIndex(tx, commentId);
  if (!comment) return;
  const tags = parseTags(comment.content);
  const userIds = await mentionedUsers(tx, parseMentions(comment.content));
  await ensureTags(tx, tags);
  const keys = tags.map((t) => t.tag);
  await insertCommentTags(tx, commentId, comment, keys);
  await insertCommentMentions(tx, commentId, userIds);
  await notifyMentions(tx, { postId: comment.postId, commentId, actorId: comment.authorId, content: comment.content }, userIds);
}
