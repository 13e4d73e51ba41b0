import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { txOptions } from "../../db/tx";
import { DomainError, sharedErrors } from "../../kernel/errors";
import { visiblePost, type VisiblePost } from "../../core/visibility/access";
import { canPostAsTeam } from "../../core/teams/queries";
import { errors as lockerroomErrors } from "./errors";
import { getPost } from "./service";
import { commentAllowedSql, commentPolicyDb, commentPolicyOf, type CommentPolicy } from "./sharing";

// Reply controls (PUT /api/locker-room/{postId}/interaction-policy): who may comment on a post, like Bluesky's
// threadgate and Mastodon's quote policy. The rule is one SQL condition (sharing.ts commentAllowedSql): the post's
// `viewer.canComment` is computed with it in the statement that reads the post, and a new comment is checked with
// it in the comment's transaction, under the post's row lock, which the policy's change also takes: a comment and a
// change of policy are serialized, so a comment is never written under a policy that refused it.

/** Whether the user speaks for the post: its author, or for a post posted as a team the team's staff (and staff). */
export async function ownsPost(db: RawDb | DbTx, user: AuthUser, post: Pick<VisiblePost, "authorId" | "authorTeamId">): Promise<boolean> {
  if (post.authorTeamId) return canPostAsTeam(db, user, post.authorTeamId);
  return post.authorId === user.id || user.isAdmin;
}

export async function setInteractionPolicy(db: Db, user: AuthUser, postId: string, comments: CommentPolicy) {
  await db.$transaction(async (tx) => {
    const post = await visiblePost(tx, postId, user, { forUpdate: true });
    if (!(await ownsPost(tx, user, post))) {
      throw new DomainError(sharedErrors.FORBIDDEN, "Only the post's author (for a team's post, its staff) can set who may comment.");
    }
    await tx.$executeRaw`UPDATE posts SET comment_policy = ${commentPolicyDb(comments)}::"CommentPolicy" WHERE id = ${postId}::uuid`;
  }, txOptions());
  return getPost(db, user, postId);
}

const REFUSALS: Record<CommentPolicy, string> = {
  everyone: "",
  followers: "Only fans who follow the author can comment on this post.",
  team_fans: "Only fans who follow or joined this post's team can comment on it.",
  nobody: "Comments are turned off for this post.",
};

/**
 * In a new comment's transaction, after the post's row lock (lib/features/comments): 403 COMMENTS_RESTRICTED when the post's
 * interaction policy does not let the user comment.
 */
export async function assertMayComment(tx: RawDb | DbTx, user: AuthUser, postId: string): Promise<void> {
  const [row] = await raw(tx).$queryRaw<{ policy: string; allowed: boolean }[]>`
    SELECT p.comment_policy::text AS policy, ${commentAllowedSql(user)} AS allowed FROM posts p WHERE p.id = ${postId}::uuid`;
  if (!row || row.allowed) return;
  const policy = commentPolicyOf(row.policy);
  throw new DomainError(lockerroomErrors.COMMENTS_RESTRICTED, REFUSALS[policy], [{ path: "interactionPolicy.comments", message: policy }]);
}
