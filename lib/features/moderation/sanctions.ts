// Sanctions (posting suspension, trading restriction, full suspension) and hidden content as moderation actions
// against a user; the trading gate; the caller's view of their actions; team staff hiding comments on their team's
// posts (escalated to platform staff's review). Every change of a user's actions runs under the user's row lock and
// recomputes users.trading_restricted_until / suspended_until in the same transaction.
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { errors as accountsErrors } from "../../core/accounts/errors";
import { errors as walletsErrors } from "../../core/wallets/errors";
import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { txOptions } from "../../db/tx";
import { forgetUser } from "../../auth/users";
import type { AuthUser } from "../../auth/users";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { decodeCursor, decodeUuidTimeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { log } from "../../kernel/log";
import { UUID_PATTERN } from "../../kernel/schemas";
import { visiblePost } from "../../core/visibility/service";
import {
  actionById,
  actionsOf,
  adjustCommentCounters,
  commentsHiddenBy,
  hidePostsOf,
  insertAction,
  insertPostingSuspensionFor,
  isTeamStaff,
  liftActionRow,
  lockAction,
  lockComment,
  lockPost,
  lockUser,
  pendingReviews,
  resolveReports,
  restorePostsOf,
  reviewActionRow,
  setCommentHidden,
  standingOf,
  syncUserSanctions,
  type ActionKindDb,
  type ActionRow,
} from "./queries";
import { APPEAL_WINDOW_DAYS, type ActionKind, type SanctionKind } from "./schemas";
import { errors as moderationErrors } from "./errors";

const DAY = 86_400_000;

const KIND_DB: Record<SanctionKind, ActionKindDb> = { posting: "POSTING_SUSPENSION", trading: "TRADING_RESTRICTION", full: "FULL_SUSPENSION" };

/** What the user sees of an action against them: kind, reason, end, state and appeal, never who acted. */
export const toAction = (a: ActionRow, now = new Date()) => ({
  id: a.id,
  kind: a.kind.toLowerCase() as ActionKind,
  reason: a.reason,
  createdAt: a.createdAt.toISOString(),
  endsAt: a.endsAt?.toISOString() ?? null,
  liftedAt: a.liftedAt?.toISOString() ?? null,
  active: a.liftedAt === null && (a.endsAt === null ? a.hiddenPosts.length + a.hiddenComments.length > 0 : a.endsAt > now),
  hiddenPosts: a.hiddenPosts,
  hiddenComments: a.hiddenComments,
  appealableUntil: new Date(a.createdAt.getTime() + APPEAL_WINDOW_DAYS * DAY).toISOString(),
  appeal: a.appealId
    ? {
        id: a.appealId,
        status: a.appealStatus!.toLowerCase() as "pending" | "granted" | "denied",
        createdAt: a.appealCreatedAt!.toISOString(),
        decidedAt: a.appealDecidedAt?.toISOString() ?? null,
      }
    : null,
});

export const toStaffAction = (a: ActionRow, now = new Date()) => ({
  ...toAction(a, now),
  userId: a.userId,
  staffId: a.staffId,
  teamId: a.teamId,
  liftedBy: a.liftedBy,
  reviewedAt: a.reviewedAt?.toISOString() ?? null,
  reviewedBy: a.reviewedBy,
});

// The trading gate --------------------------------------------------------------------------------------------------

/** What assertMayTrade refuses with: every route behind the trading gate lists these (`errors: [...tradingGateErrors, …]`). */
export const tradingGateErrors = [moderationErrors.TRADING_RESTRICTED, accountsErrors.ACCOUNT_DELETION_PENDING, walletsErrors.WALLET_FROZEN];

/** What assertMayBuyCoins refuses with (a frozen wallet may buy coins: a credit settles the debt first). */
export const coinGateErrors = [moderationErrors.TRADING_RESTRICTED, accountsErrors.ACCOUNT_DELETION_PENDING];

/**
 * Refuses trading (listing, bidding, offering, buying, checking out, accepting offers, minting) to a user whom staff
 * restricted from trading or suspended (403 TRADING_RESTRICTED with the end in details), whose account deletion is
 * scheduled (409 ACCOUNT_DELETION_PENDING, lib/core/accounts) or whose wallet owes a clawed-back top-up (409 WALLET_FROZEN,
 * lib/features/payments). One statement (standingOf, action-queries.ts) over the user's row (the sanction columns lib/features/moderation
 * keeps with each action), the deletion's primary key and the wallets' primary key; add further conditions to it.
 */
export async function assertMayTrade(db: RawDb | DbTx, userId: string): Promise<void> {
  const refusal = standingRefusal(await tradingStanding(db, userId), "trade");
  if (refusal) throw refusal;
}

/**
 * Refuses buying coins (a card top-up) to a restricted or suspended user and to one whose deletion is scheduled, as
 * GET /api/v1/me/eligibility reports for coins; a frozen wallet may buy (a credit settles the debt first).
 */
export async function assertMayBuyCoins(db: RawDb | DbTx, userId: string): Promise<void> {
  const refusal = standingRefusal(await tradingStanding(db, userId), "coins");
  if (refusal) throw refusal;
}

/**
 * The error a standing refuses `what` with, or none: the one rule behind assertMayTrade, assertMayBuyCoins and the
 * checks made for another party under a transaction's locks (an offer's buyer, an auction's winner, a store purchase).
 */
export function standingRefusal(s: TradingStanding, what: "trade" | "coins"): DomainError | undefined {
  if (s.restrictedUntil) {
    const until = s.restrictedUntil.toISOString();
    return new DomainError(moderationErrors.TRADING_RESTRICTED, `Trading is restricted until ${until}.`, [{ path: "tradingRestrictedUntil", message: until }]);
  }
  if (s.deletionPending) {
    return new DomainError(
      accountsErrors.ACCOUNT_DELETION_PENDING,
      what === "trade"
        ? "Your account is scheduled for deletion: cancel the deletion (DELETE /api/v1/me/deletion) to list, bid, offer, buy or trade."
        : "Your account is scheduled for deletion, and its coins are forfeited when it is erased: cancel the deletion (DELETE /api/v1/me/deletion) to buy coins.",
    );
  }
  if (s.debt && what === "trade") {
    return new DomainError(
      walletsErrors.WALLET_FROZEN,
      "Your wallet is frozen: a top-up was refunded or disputed after its coins were spent. Later credits settle the debt first; until then you cannot list, bid, offer or buy.",
      [{ path: "debt", message: String(s.debt) }],
    );
  }
  return undefined;
}

export type TradingStanding = { restrictedUntil: Date | null; deletionPending: boolean; debt: number };

/** What assertMayTrade checks, for callers that list reasons instead of refusing (GET /api/v1/me/eligibility). */
export async function tradingStanding(db: RawDb | DbTx, userId: string): Promise<TradingStanding> {
  const row = await standingOf(db, userId);
  return { restrictedUntil: row?.restrictedUntil ?? null, deletionPending: row?.deletionPending ?? false, debt: Number(row?.debt ?? 0) };
}

// Imposing and lifting ----------------------------------------------------------------------------------------------

/**
 * Imposes a sanction on the user for `hours` from now, optionally hiding posts of theirs under the same action (so
 * a granted appeal restores them); posting suspensions also write the posting_suspensions row assertMayPost reads.
 * The user's row is locked and their sanction columns recomputed in the same transaction. 404 for no such user.
 */
export async function imposeSanction(
  db: Db,
  input: { userId: string; kind: SanctionKind; hours: number; reason: string; hidePostIds?: string[] },
  actor: StaffActor,
) {
  const staffId = actor.id;
  const id = uuidv7();
  const externalId = await db.$transaction(async (tx) => {
    const user = await lockUser(tx, input.userId);
    if (!user) throw notFound("User");
    await insertAction(tx, { id, userId: input.userId, kind: KIND_DB[input.kind], reason: input.reason, staffId, hours: input.hours });
    if (input.kind === "posting") await insertPostingSuspensionFor(tx, id);
    for (const postId of await hidePostsOf(tx, input.userId, input.hidePostIds ?? [], staffId, id)) await resolveReports(tx, { postId }, staffId, "hidden");
    await syncUserSanctions(tx, input.userId);
    const { userId, ...after } = input;
    await recordAudit(tx, actor, { action: "sanction.impose", targetType: "user", targetId: userId, after: { actionId: id, ...after } });
    return user.externalId;
  }, txOptions());
  if (input.kind === "full") forgetUser(externalId);
  log("info", { msg: "sanction imposed", actor: staffId, user: input.userId, action: id, kind: input.kind, hours: input.hours });
  return { action: toStaffAction((await actionById(db, id))!) };
}

/**
 * Lifts the action in the caller's transaction: marks it lifted (by `by`), restores exactly the posts and comments
 * it hid that it still hides (a comment's counters move back under its post's lock), lifts its posting suspension
 * row, and recomputes the user's sanction columns under their row lock. Answers the user's identity-provider id
 * (to forget their cached auth state) and whether anything changed.
 */
export async function liftActionIn(tx: DbTx, actionId: string, by: string) {
  const action = await lockAction(tx, actionId);
  if (!action) throw notFound("Moderation action");
  const user = (await lockUser(tx, action.userId))!;
  const changed = action.liftedAt === null;
  await liftActionRow(tx, actionId, by);
  const restoredPosts = await restorePostsOf(tx, actionId);
  const restoredComments: string[] = [];
  for (const c of await commentsHiddenBy(tx, actionId)) {
    await lockPost(tx, c.postId);
    const comment = await lockComment(tx, c.id);
    if (!comment || comment.hiddenActionId !== actionId) continue;
    await setCommentHidden(tx, c.id, null);
    if (!comment.deletedAt) await adjustCommentCounters(tx, comment, 1);
    restoredComments.push(c.id);
  }
  await syncUserSanctions(tx, action.userId);
  return { externalId: user.externalId, userId: action.userId, kind: action.kind, changed, restoredPosts, restoredComments };
}

/** Staff lift an action (idempotent: the first lift is kept); 404 for no such action. */
export async function liftAction(db: Db, actionId: string, actor: StaffActor) {
  const staffId = actor.id;
  const result = await db.$transaction(async (tx) => {
    const lifted = await liftActionIn(tx, actionId, staffId);
    if (lifted.changed) {
      const after = { actionId, kind: lifted.kind, restoredPosts: lifted.restoredPosts, restoredComments: lifted.restoredComments };
      await recordAudit(tx, actor, { action: "sanction.lift", targetType: "user", targetId: lifted.userId, after });
    }
    return lifted;
  }, txOptions());
  if (result.kind === "FULL_SUSPENSION") forgetUser(result.externalId);
  log("info", { msg: "moderation action lifted", actor: staffId, action: actionId, changed: result.changed });
  return { action: toStaffAction((await actionById(db, actionId))!) };
}

// Reading -----------------------------------------------------------------------------------------------------------

const actionCursor = (cursor: string) => {
  const { sortKey, id } = decodeCursor(cursor);
  if (sortKey !== "actions" || !UUID_PATTERN.test(id)) throw invalidCursor();
  return id;
};

/** A page of the actions against `userId`, newest first (keyset), each serialized by `serialize`. */
async function actionsPage<T>(
  db: RawDb | DbTx,
  userId: string,
  { cursor, limit }: { cursor?: string; limit: number },
  serialize: (a: ActionRow, now: Date) => T,
) {
  const rows = await actionsOf(db, userId, cursor ? actionCursor(cursor) : undefined, limit + 1);
  const now = new Date();
  return keysetPage(
    "actions",
    rows,
    limit,
    (a) => encodeCursor("actions", a.id),
    (a) => serialize(a, now),
  );
}

/** The actions against the caller, newest first (keyset): kind, reason, end, state and appeal. */
export const myModerationActions = (db: RawDb | DbTx, userId: string, q: { cursor?: string; limit: number }) => actionsPage(db, userId, q, toAction);

/** A user's actions for staff, newest first (keyset), with who acted. */
export const userModerationActions = (db: RawDb | DbTx, userId: string, q: { cursor?: string; limit: number }) => actionsPage(db, userId, q, toStaffAction);

// Team staff --------------------------------------------------------------------------------------------------------

/**
 * Team staff hide a comment on their team's post (posted as the team or tagged with it): the comment is hidden
 * under a CONTENT_HIDDEN action against its author that names the team and waits for platform staff's review;
 * its open reports are resolved and the post's counters move, under the post's row lock. A post the caller cannot
 * see, or a comment not of it (or deleted), is 404; someone not on the team's staff is 403. Idempotent.
 */
export async function teamHideComment(db: Db, user: Pick<AuthUser, "id" | "externalId" | "isAdmin">, postId: string, commentId: string, note?: string) {
  await visiblePost(db, postId, user);
  const result = await db.$transaction(async (tx) => {
    const post = await lockPost(tx, postId);
    if (!post) throw notFound("Post");
    const teams = [post.authorTeamId, post.teamId].filter((t): t is string => t !== null);
    let teamId: string | null = null;
    for (const t of teams) if (!teamId && (await isTeamStaff(tx, user.id, t))) teamId = t;
    if (!teamId) throw new DomainError(sharedErrors.FORBIDDEN, "Only the staff of this post's team can hide its comments.");
    const comment = await lockComment(tx, commentId);
    if (!comment || comment.postId !== postId || comment.deletedAt) throw notFound("Comment");
    if (comment.hiddenAt) return { postId, commentId, hiddenAt: comment.hiddenAt.toISOString(), changed: false, actionId: null };
    const actionId = uuidv7();
    await insertAction(tx, {
      id: actionId,
      userId: comment.authorId,
      kind: "CONTENT_HIDDEN",
      reason: note || "Hidden by the team's staff",
      staffId: user.externalId,
      teamId,
      hours: null,
    });
    const hiddenAt = (await setCommentHidden(tx, commentId, user.externalId, actionId))!;
    await adjustCommentCounters(tx, comment, -1);
    await resolveReports(tx, { commentId }, user.externalId, "hidden");
    return { postId, commentId, hiddenAt: hiddenAt.toISOString(), changed: true, actionId };
  }, txOptions());
  log("info", { msg: "comment hidden by team staff", actor: user.externalId, comment: commentId, action: result.actionId });
  return result;
}

/** Team staff actions awaiting platform staff's review, oldest first (keyset). */
export async function reviewQueue(db: RawDb | DbTx, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await pendingReviews(db, cursor ? decodeUuidTimeCursor(cursor) : undefined, limit + 1);
  const now = new Date();
  return keysetPage(
    "actions",
    rows,
    limit,
    (a) => encodeCursor(a.createdAt.getTime(), a.id),
    (a) => toStaffAction(a, now),
  );
}

/** Platform staff review a team staff action: uphold it, or revert it (lifted, the comment restored). */
export async function reviewAction(db: Db, actionId: string, actor: StaffActor, uphold: boolean) {
  const staffId = actor.id;
  const result = await db.$transaction(async (tx) => {
    const action = await lockAction(tx, actionId);
    if (!action) throw notFound("Moderation action");
    const lifted = uphold ? null : await liftActionIn(tx, actionId, staffId);
    await reviewActionRow(tx, actionId, staffId);
    const after = { actionId, kind: action.kind, lifted: lifted?.changed ?? false };
    await recordAudit(tx, actor, { action: uphold ? "team_action.uphold" : "team_action.revert", targetType: "user", targetId: action.userId, after });
    return lifted;
  }, txOptions());
  if (result?.kind === "FULL_SUSPENSION") forgetUser(result.externalId);
  log("info", { msg: uphold ? "team action upheld" : "team action reverted", actor: staffId, action: actionId });
  return { action: toStaffAction((await actionById(db, actionId))!) };
}
