import type { AuthUser } from "../../auth/users";
import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { DomainError } from "../../kernel/errors";
import type { VisiblePost } from "../../core/visibility/service";
import { canPostAsTeam } from "../../core/teams/service";
import { errors as lockerroomErrors } from "./errors";
import { commentPolicyOf, type CommentPolicy } from "./sharing";
import { commentPermission } from "./sharing-queries";

// Reply controls (PUT /api/locker-room/{postId}/interaction-policy): who may comment on a post, like Bluesky's
// threadgate and Mastodon's quote policy. The rule is one SQL condition (sharing-queries.ts commentAllowedSql): the
// post's `viewer.canComment` is computed with it in the statement that reads the post, and a new comment is checked
// with it in the comment's transaction, under the post's row lock, which the policy's change also takes: a comment
// and a change of policy are serialized, so a comment is never written under a policy that refused it.

/** Whether the user speaks for the post: its author, or for a post posted as a team the team's staff (and staff). */
export async function ownsPost(db: RawDb | DbTx, user: AuthUser, post: Pick<VisiblePost, "authorId" | "authorTeamId">): Promise<boolean> {
  if (post.authorTeamId) return canPostAsTeam(db, user, post.authorTeamId);
  return post.authorId === user.id || user.isAdmin;
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
  const row = await commentPermission(tx, user, postId);
  if (!row || row.allowed) return;
  const policy = commentPolicyOf(row.policy);
  throw new DomainError(lockerroomErrors.COMMENTS_RESTRICTED, REFUSALS[policy], [{ path: "interactionPolicy.comments", message: policy }]);
}
