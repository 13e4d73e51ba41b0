import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { DomainError, notFound } from "../../kernel/errors";
import { env } from "../../env";
import { errors as visibilityErrors } from "./errors";
import { postingStanding, visiblePostRow, type Viewer, type VisiblePost } from "./queries";

// Who may see and act on locker-room content: the one rule set the locker-room modules (lib/features/lockerroom,
// lib/features/comments, lib/features/reactions, lib/features/moderation) share.
//
// A viewer sees a post when all of these hold (staff, the admin role, see every post):
//   - it is neither deleted by its author nor hidden by staff;
//   - it is published (publish_at <= now), or the viewer is its author;
//   - it is public, or the viewer is its author, or follows or joined the post's team (its about-tag team or the
//     team it is posted as): "private" means the team's own fans;
//   - neither the viewer nor its author has blocked the other.
// Anonymous viewers see published public posts. Comments follow the same deleted / hidden / block rules.

/** The Terms of Use version a fan must have accepted to post or comment (POST /api/user/terms). */
export const currentTermsVersion = () => env().UGC_TERMS_VERSION;

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { blockedBetween, TEAM_FAN, visiblePostSql } from "./queries";
export type { Viewer, VisiblePost } from "./queries";

/**
 * The post if the viewer may see it, else 404 NOT_FOUND (a post the viewer may not see does not exist for them).
 * `forUpdate` locks the post's row for the rest of the transaction (counters kept on it).
 */
export async function visiblePost(db: RawDb | DbTx, postId: string, viewer: Viewer, { forUpdate = false } = {}): Promise<VisiblePost> {
  const post = await visiblePostRow(db, postId, viewer, forUpdate);
  if (!post) throw notFound("Post");
  return post;
}

/**
 * Refuses user-generated content (posts, comments) from a caller who has not accepted the current Terms of Use
 * (403 UGC_TERMS_REQUIRED) or whom staff suspended from posting (403 POSTING_SUSPENDED, with the end in details).
 */
export async function assertMayPost(db: RawDb | DbTx, userId: string, now = new Date()): Promise<void> {
  const row = await postingStanding(db, userId, now);
  const current = currentTermsVersion();
  if (!row || row.terms !== current) {
    throw new DomainError(
      visibilityErrors.UGC_TERMS_REQUIRED,
      `Accept the current Terms of Use (version "${current}") with POST /api/user/terms before posting.`,
      [{ path: "ugcTermsVersion", message: `must be "${current}"` }],
    );
  }
  if (row.until) {
    throw new DomainError(visibilityErrors.POSTING_SUSPENDED, `Posting is suspended until ${row.until.toISOString()}.`, [
      { path: "suspendedUntil", message: row.until.toISOString() },
    ]);
  }
}
