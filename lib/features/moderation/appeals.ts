// Appeals: a user appeals an action against them once, within 30 days; staff grant (the action lifted and what it
// hid restored, in one transaction, the decision recorded with who and when) or deny.
import { recordAudit, type StaffActor } from "../../core/audit/service";
import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { txOptions } from "../../db/tx";
import { forgetUser } from "../../auth/users";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { log } from "../../kernel/log";
import { actionById, decideAppealRow, insertAppeal, lockAppeal, pendingAppeals, type AppealRow } from "./queries";
import { liftActionIn, toStaffAction } from "./sanctions";
import { APPEAL_WINDOW_DAYS } from "./schemas";
import { errors as moderationErrors } from "./errors";

const DAY = 86_400_000;

const toAppeal = (a: AppealRow) => ({
  id: a.id,
  actionId: a.actionId,
  text: a.text,
  status: a.status.toLowerCase() as "pending" | "granted" | "denied",
  createdAt: a.createdAt.toISOString(),
  decidedAt: a.decidedAt?.toISOString() ?? null,
});

/**
 * Appeals an action against the caller, once (the unique action_id decides: a second, or all but one of
 * concurrent ones, is 409 ALREADY_APPEALED) and within APPEAL_WINDOW_DAYS of the action (422 APPEAL_WINDOW_CLOSED).
 * Someone else's action or an unknown id is 404.
 */
export async function appealAction(db: RawDb | DbTx, userId: string, actionId: string, text: string) {
  const row = await insertAppeal(db, actionId, userId, text, APPEAL_WINDOW_DAYS);
  if (row) return toAppeal(row);
  const action = await actionById(db, actionId);
  if (!action || action.userId !== userId) throw notFound("Moderation action");
  if (action.appealId) throw new DomainError(moderationErrors.ALREADY_APPEALED, "You already appealed this action.");
  const closed = new Date(action.createdAt.getTime() + APPEAL_WINDOW_DAYS * DAY).toISOString();
  throw new DomainError(moderationErrors.APPEAL_WINDOW_CLOSED, `Appeals close ${APPEAL_WINDOW_DAYS} days after the action (${closed}).`, [
    { path: "actionId", message: `appealable until ${closed}` },
  ]);
}

/**
 * Staff decide a pending appeal (409 APPEAL_DECIDED once decided). Granting lifts the action in the same
 * transaction: the restriction or suspension ends and the posts and comments it hid come back.
 */
export async function decideAppeal(db: Db, appealId: string, actor: StaffActor, grant: boolean, note?: string) {
  const staffId = actor.id;
  const result = await db.$transaction(async (tx) => {
    const appeal = await lockAppeal(tx, appealId);
    if (!appeal) throw notFound("Appeal");
    if (appeal.status !== "PENDING") throw new DomainError(moderationErrors.APPEAL_DECIDED, `This appeal was already ${appeal.status.toLowerCase()}.`);
    const lifted = grant ? await liftActionIn(tx, appeal.actionId, staffId) : null;
    const decided = await decideAppealRow(tx, appealId, grant ? "GRANTED" : "DENIED", staffId, note || null);
    await recordAudit(tx, actor, {
      action: grant ? "appeal.grant" : "appeal.deny",
      targetType: "user",
      targetId: decided.userId,
      before: { appealId, status: appeal.status },
      after: { appealId, status: decided.status, actionId: decided.actionId, lifted: lifted?.changed ?? false },
      note,
    });
    return { decided, lifted };
  }, txOptions());
  if (result.lifted?.kind === "FULL_SUSPENSION") forgetUser(result.lifted.externalId);
  log("info", { msg: grant ? "appeal granted" : "appeal denied", actor: staffId, appeal: appealId, action: result.decided.actionId });
  return staffAppealOut(db, result.decided);
}

async function staffAppealOut(db: RawDb | DbTx, a: AppealRow) {
  const action = (await actionById(db, a.actionId))!;
  return { ...toAppeal(a), userId: a.userId, decidedBy: a.decidedBy, note: a.note, action: toStaffAction(action) };
}

/** Pending appeals, oldest first (keyset), each with its action. */
export async function appealQueue(db: RawDb | DbTx, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await pendingAppeals(db, cursor ? decodeUuidTimeCursor(cursor) : undefined, limit + 1);
  const page = keysetPage(
    "appeals",
    rows,
    limit,
    (a) => encodeCursor(a.createdAt.getTime(), a.id),
    (a) => a,
  );
  return { ...page, appeals: await Promise.all(page.appeals.map((a) => staffAppealOut(db, a))) };
}
