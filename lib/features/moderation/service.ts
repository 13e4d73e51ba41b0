import { recordAudit, type StaffActor } from "../../core/audit/service";
import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { txOptions } from "../../db/tx";
import { decodeCursor, decodeUuidTimeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { DomainError, notFound } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { keysetPage } from "../../kernel/page";
import { UUID_PATTERN } from "../../kernel/schemas";
import { blockedBetween, visiblePost } from "../../core/visibility/service";
import { commentState } from "../comments/service";
import {
  adjustCommentCounters,
  commentPostId,
  insertAction,
  insertReport,
  liftActionRow,
  liftSpentContentAction,
  latestOpenReports,
  liftSuspensionRow,
  lockComment,
  lockPost,
  openStats,
  queueHeads,
  reportsOf,
  resolveReports,
  setCommentHidden,
  setPostHidden,
  snapshots,
  suspensionsOf,
  targetExists,
  toReport,
  toStaffReport,
  toSuspension,
  type CommentState,
  type QueueHead,
  type ReportTarget,
} from "./queries";
import type { ReportReason } from "./schemas";
import { errors as moderationErrors } from "./errors";
import { imposeSanction } from "./sanctions";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { assertMayTrade, standingRefusal, tradingStanding, assertMayBuyCoins } from "./sanctions";

export * from "./reports";
export * from "./sanctions";
export * from "./appeals";

// Moderation: users report posts and comments (once per target); staff work a queue of reported targets, hide or
// restore them (hiding resolves their open reports), dismiss reports, and suspend users from posting for a time.
// The API routes and the staff console call these same functions: one rule set. Staff act by their
// identity-provider id (AuthUser.externalId / the console session), which need not have a users row.

type Reporter = Pick<AuthUser, "id" | "isAdmin">;

const alreadyReported = () => new DomainError(moderationErrors.ALREADY_REPORTED, "You already reported this.");
const ownContent = (what: string) => new DomainError(moderationErrors.CANNOT_REPORT_OWN, `You cannot report your own ${what}.`);

/** Reports a post the reporter can see (404 otherwise), not their own, once. */
export async function reportPost(db: DbTx, reporter: Reporter, postId: string, reason: ReportReason, note?: string) {
  const post = await visiblePost(db, postId, reporter);
  if (post.authorId === reporter.id) throw ownContent("post");
  const row = await insertReport(db, reporter.id, { postId }, reason, note || null);
  if (!row) throw alreadyReported();
  return toReport(row);
}

/**
 * Reports a comment of a post the reporter can see: the comment must be of that post, neither deleted nor hidden,
 * and its author and the reporter must not have blocked each other (404 otherwise, as for a comment they cannot see).
 */
export async function reportComment(db: DbTx, reporter: Reporter, postId: string, commentId: string, reason: ReportReason, note?: string) {
  await visiblePost(db, postId, reporter);
  const comment = await commentState(db, commentId);
  if (!comment || comment.postId !== postId) throw notFound("Comment");
  if (!reporter.isAdmin && (comment.deletedAt || comment.hiddenAt || (await blockedBetween(db, reporter.id, comment.authorId)))) throw notFound("Comment");
  if (comment.authorId === reporter.id) throw ownContent("comment");
  const row = await insertReport(db, reporter.id, { commentId }, reason, note || null);
  if (!row) throw alreadyReported();
  return toReport(row);
}

// The queue -----------------------------------------------------------------------------------------------------

const queueCursor = (head: QueueHead) => encodeCursor(head.createdAt.getTime(), head.id);

/** Targets with open reports, oldest open report first (keyset), each with its snapshot, counts and latest reports. */
export async function moderationQueue(db: DbTx, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const heads = await queueHeads(db, after, limit + 1);
  const shown = heads.slice(0, limit);
  const postIds = shown.flatMap((h) => (h.postId ? [h.postId] : []));
  const commentIds = shown.flatMap((h) => (h.commentId ? [h.commentId] : []));
  const [stats, latest, snaps] = shown.length
    ? await Promise.all([openStats(db, postIds, commentIds), latestOpenReports(db, postIds, commentIds), snapshots(db, postIds, commentIds)])
    : [[], [], []];
  const key = (postId: string | null, commentId: string | null) => (commentId ? `c:${commentId}` : `p:${postId}`);
  const statsBy = new Map(stats.map((s) => [key(s.postId, s.commentId), s]));
  const snapBy = new Map(snaps.map((s) => [key(s.commentId ? null : s.postId, s.commentId), s]));
  const latestBy = new Map<string, typeof latest>();
  for (const r of latest) {
    const k = key(r.postId, r.commentId);
    latestBy.set(k, [...(latestBy.get(k) ?? []), r]);
  }
  // A target whose reports were resolved between the reads has no stats: it has left the queue.
  const items = shown
    .filter((h) => statsBy.has(key(h.postId, h.commentId)) && snapBy.has(key(h.postId, h.commentId)))
    .map((h) => {
      const k = key(h.postId, h.commentId);
      const s = statsBy.get(k)!;
      const snap = snapBy.get(k)!;
      return {
        target: { type: h.commentId ? ("comment" as const) : ("post" as const), postId: snap.postId, commentId: h.commentId },
        content: {
          content: snap.content,
          mediaCount: snap.mediaCount,
          author: { id: snap.authorId, handle: snap.handle, displayName: snap.displayName, avatarUrl: snap.avatarUrl },
          createdAt: snap.createdAt.toISOString(),
          hiddenAt: snap.hiddenAt?.toISOString() ?? null,
          deletedAt: snap.deletedAt?.toISOString() ?? null,
        },
        openReports: s.openReports,
        reasons: s.reasons,
        firstReportedAt: s.firstReportedAt.toISOString(),
        lastReportedAt: s.lastReportedAt.toISOString(),
        latestReports: (latestBy.get(k) ?? []).map(toStaffReport),
      };
    });
  const last = shown[shown.length - 1];
  return heads.length > limit && last ? { items, nextCursor: queueCursor(last) } : { items };
}

const idCursor = (kind: string) => (cursor: string) => {
  const { sortKey, id } = decodeCursor(cursor);
  if (sortKey !== kind || !UUID_PATTERN.test(id)) throw invalidCursor();
  return id;
};

/** Every report of one target (open and resolved), newest first, keyset. */
export async function targetReports(db: DbTx, { postId, commentId, cursor, limit }: { postId?: string; commentId?: string; cursor?: string; limit: number }) {
  const target: ReportTarget = postId ? { postId } : { commentId: commentId! };
  const rows = await reportsOf(db, target, cursor ? idCursor("reports")(cursor) : undefined, limit + 1);
  return keysetPage("reports", rows, limit, (r) => encodeCursor("reports", r.id), toStaffReport);
}

// Hide, restore, dismiss ----------------------------------------------------------------------------------------

/** Hides (staffId given) or restores (null) a post; hiding resolves its open reports. Idempotent. */
export async function setPostVisibility(db: Db, postId: string, actor: StaffActor, hide: boolean, note?: string) {
  const staffId = actor.id;
  const result = await db.$transaction(async (tx) => {
    const post = await lockPost(tx, postId);
    if (!post) throw notFound("Post");
    const changed = hide === (post.hiddenAt === null);
    let hiddenAt = post.hiddenAt;
    if (changed && hide) {
      // A CONTENT_HIDDEN action against the author: they see it and may appeal it.
      const actionId = uuidv7();
      await insertAction(tx, { id: actionId, userId: post.authorId, kind: "CONTENT_HIDDEN", reason: note || "Post hidden by staff", staffId, hours: null });
      hiddenAt = await setPostHidden(tx, postId, staffId, actionId);
    } else if (changed) {
      hiddenAt = await setPostHidden(tx, postId, null);
      if (post.hiddenActionId) await liftSpentContentAction(tx, post.hiddenActionId, staffId);
    }
    const resolvedReports = hide ? await resolveReports(tx, { postId }, staffId, "hidden") : 0;
    if (changed || resolvedReports) {
      const after = { hidden: hide, resolvedReports };
      await recordAudit(tx, actor, {
        action: hide ? "post.hide" : "post.restore",
        targetType: "post",
        targetId: postId,
        before: { hidden: post.hiddenAt !== null },
        after,
        note,
      });
    }
    return { postId, commentId: null as string | null, hiddenAt: hiddenAt?.toISOString() ?? null, changed, resolvedReports };
  }, txOptions());
  log("info", { msg: hide ? "post hidden" : "post restored", actor: staffId, post: postId, changed: result.changed, note });
  return result;
}

/** Records a CONTENT_HIDDEN action against the comment's author (who sees it and may appeal it); answers its id. */
async function hiddenAction(tx: DbTx, comment: CommentState, staffId: string, note: string | undefined) {
  const id = uuidv7();
  await insertAction(tx, { id, userId: comment.authorId, kind: "CONTENT_HIDDEN", reason: note || "Comment hidden by staff", staffId, hours: null });
  return id;
}

/**
 * Hides or restores a comment under its post's row lock; when the state changes and the comment is not deleted,
 * the post's comment_count (and a reply's parent's reply_count) moves by one, since they count visible comments.
 */
export async function setCommentVisibility(db: Db, commentId: string, actor: StaffActor, hide: boolean, note?: string) {
  const staffId = actor.id;
  const postId = await commentPostId(db, commentId);
  if (!postId) throw notFound("Comment");
  const result = await db.$transaction(async (tx) => {
    await lockPost(tx, postId);
    const comment = await lockComment(tx, commentId);
    if (!comment) throw notFound("Comment");
    const changed = hide === (comment.hiddenAt === null);
    let hiddenAt = comment.hiddenAt;
    if (changed) {
      hiddenAt = await setCommentHidden(tx, commentId, hide ? staffId : null, hide ? await hiddenAction(tx, comment, staffId, note) : null);
      if (!hide && comment.hiddenActionId) await liftSpentContentAction(tx, comment.hiddenActionId, staffId);
      if (!comment.deletedAt) await adjustCommentCounters(tx, comment, hide ? -1 : 1);
    }
    const resolvedReports = hide ? await resolveReports(tx, { commentId }, staffId, "hidden") : 0;
    if (changed || resolvedReports) {
      const after = { hidden: hide, resolvedReports };
      const before = { hidden: comment.hiddenAt !== null };
      await recordAudit(tx, actor, { action: hide ? "comment.hide" : "comment.restore", targetType: "comment", targetId: commentId, before, after, note });
    }
    return { postId, commentId, hiddenAt: hiddenAt?.toISOString() ?? null, changed, resolvedReports };
  }, txOptions());
  log("info", { msg: hide ? "comment hidden" : "comment restored", actor: staffId, comment: commentId, changed: result.changed, note });
  return result;
}

/** Dismisses the target's open reports (resolution "dismissed"); 404 for an unknown target. */
export async function dismissReports(db: Db, target: ReportTarget, actor: StaffActor) {
  const staffId = actor.id;
  const resolvedReports = await db.$transaction(async (tx) => {
    if (!(await targetExists(tx, target))) throw notFound(target.postId ? "Post" : "Comment");
    const resolved = await resolveReports(tx, target, staffId, "dismissed");
    const [targetType, targetId] = target.postId ? ["post", target.postId] : ["comment", target.commentId!];
    if (resolved) await recordAudit(tx, actor, { action: `${targetType}.reports_dismiss`, targetType, targetId, after: { resolvedReports: resolved } });
    return resolved;
  }, txOptions());
  log("info", { msg: "reports dismissed", actor: staffId, ...target, resolvedReports });
  return { postId: target.postId ?? null, commentId: target.commentId ?? null, resolvedReports };
}

// Suspensions ---------------------------------------------------------------------------------------------------

/**
 * Suspends the user from posting and commenting for `hours` (assertMayPost enforces it): a POSTING_SUSPENSION
 * moderation action whose posting_suspensions row has the same id; 404 for an unknown user.
 */
export async function suspendUser(db: Db, { userId, hours, reason }: { userId: string; hours: number; reason: string }, actor: StaffActor) {
  const { action } = await imposeSanction(db, { userId, kind: "posting", hours, reason }, actor);
  return toSuspension({
    id: action.id,
    userId,
    until: new Date(action.endsAt!),
    reason: action.reason,
    staffId: action.staffId,
    createdAt: new Date(action.createdAt),
    liftedAt: null,
  });
}

/** Lifts a suspension and its moderation action (idempotent: the first lift time is kept); 404 for an unknown id. */
export async function liftSuspension(db: Db, id: string, actor: StaffActor) {
  const staffId = actor.id;
  const row = await db.$transaction(async (tx) => {
    const lifted = await liftSuspensionRow(tx, id);
    if (lifted) {
      await liftActionRow(tx, id, staffId);
      await recordAudit(tx, actor, { action: "sanction.lift", targetType: "user", targetId: lifted.userId, after: { actionId: id, kind: "posting" } });
    }
    return lifted;
  }, txOptions());
  if (!row) throw notFound("Suspension");
  log("info", { msg: "posting suspension lifted", actor: staffId, suspension: id });
  return toSuspension(row);
}

/** The user's suspensions, newest first, keyset. */
export async function userSuspensions(db: DbTx, { userId, cursor, limit }: { userId: string; cursor?: string; limit: number }) {
  const rows = await suspensionsOf(db, userId, cursor ? idCursor("suspensions")(cursor) : undefined, limit + 1);
  const now = new Date();
  return keysetPage(
    "suspensions",
    rows,
    limit,
    (s) => encodeCursor("suspensions", s.id),
    (s) => toSuspension(s, now),
  );
}
