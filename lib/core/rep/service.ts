import { createHash } from "node:crypto";
import type { Db } from "../../db/client";
import { txOptions } from "../../db/tx";
import { DomainError, sharedErrors } from "../../kernel/errors";
import { utcDay } from "../../time";
import { missingProfileFields, notificationsOn } from "./requirements";
import { CLIENT_EARN_KINDS, grantOnce, SERVER_AWARDED_KINDS, type ClientEarnKind, type EarnKind } from "./grants";
import { lockEarningUser, toLedgerEntry, type LockedUser } from "./queries";
import type { EarnInput } from "./schemas";
import { errors as repErrors } from "./errors";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { noteBoardsMoved, noteTeamLeft } from "./leaderboard/moves";
export { grantOnce, award, debit, SERVER_AWARDS, batchRepWrites, refundSpending } from "./grants";
export { awardRowsCtes } from "./writes";
export { missingProfileFields, NOTIFICATION_SETTINGS } from "./requirements";
export { STREAK_FREEZE, SPENDING_KINDS, REWARD_REFUND, REWARD_REDEMPTION } from "./kinds";
export { REP_EARNED } from "./queries";

const requestHash = (input: EarnInput) =>
  createHash("sha256")
    .update(`${input.earnKind}\u0000${input.targetId ?? ""}`)
    .digest("hex");

function grantKeyFor(kind: ClientEarnKind, targetId: string | undefined, now: Date): string {
  const rule = CLIENT_EARN_KINDS[kind];
  if (rule.scope === "once") return kind;
  if (rule.scope === "daily") return `${kind}:${utcDay(now)}`;
  return `${kind}:target:${targetId}`;
}

/**
 * Grants client-claimable Rep. The user's row is locked for the transaction, so every earn of one user is
 * serialized: the idempotency replay, the once/daily/per-target grant key and the daily cap are all decided
 * under that lock and backed by unique constraints on (user, idempotency_key) and (user, grant_key). The entry is
 * written by grantOnce (./grant), which the profile and settings writes also use to award profile_completed and
 * notifications_enabled under the same lock and grant key, so a claim after such an award is ALREADY_EARNED.
 */
export async function earn(db: Db, userId: string, input: EarnInput, now = new Date()) {
  if ((SERVER_AWARDED_KINDS as readonly string[]).includes(input.earnKind)) {
    throw new DomainError(
      repErrors.EARN_KIND_SERVER_AWARDED,
      `${input.earnKind} Rep is awarded by the server when the action happens; it cannot be claimed through this route.`,
    );
  }
  const kind = input.earnKind as ClientEarnKind;
  const rule: EarnKind = CLIENT_EARN_KINDS[kind];
  if (rule.scope === "perTarget" && !input.targetId) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, `${kind} needs a targetId.`, [{ path: "body.targetId", message: "Required" }]);
  }
  if (rule.scope !== "perTarget" && input.targetId !== undefined) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, `${kind} does not take a targetId.`, [
      { path: "body.targetId", message: "Not accepted for this earnKind" },
    ]);
  }
  const hash = requestHash(input);

  return db.$transaction(async (tx) => {
    const locked = await lockEarningUser(tx, userId);
    if (!locked) throw new DomainError(sharedErrors.UNAUTHORIZED, "Unknown user.");

    const prior = await tx.repEntry.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey: input.idempotencyKey } } });
    if (prior) {
      if (prior.requestHash !== hash) {
        throw new DomainError(sharedErrors.IDEMPOTENCY_KEY_REUSED, "This idempotency key was already used with a different earnKind or targetId.");
      }
      return { entry: toLedgerEntry(prior), balance: Number(locked.rep_balance), replayed: true };
    }

    const grantKey = grantKeyFor(kind, input.targetId, now);
    if (await tx.repEntry.findUnique({ where: { userId_grantKey: { userId, grantKey } }, select: { id: true } })) {
      throw new DomainError(repErrors.ALREADY_EARNED, alreadyEarnedMessage(kind, rule.scope));
    }
    if (rule.requires) assertCondition(kind, rule.requires, locked);
    if (rule.dailyCap !== undefined) {
      const dayStart = new Date(`${utcDay(now)}T00:00:00.000Z`);
      const today = await tx.repEntry.count({ where: { userId, earnKind: kind, createdAt: { gte: dayStart } } });
      if (today >= rule.dailyCap) {
        throw new DomainError(repErrors.ALREADY_EARNED, `${kind} can be earned at most ${rule.dailyCap} times per UTC day.`);
      }
    }
    const granted = await grantOnce(tx, userId, kind, { grantKey, targetId: input.targetId, idempotencyKey: input.idempotencyKey, requestHash: hash }, now);
    // Unreachable under the row lock (both keys were checked above); the unique constraints back it regardless.
    if (!granted) throw new DomainError(repErrors.ALREADY_EARNED, alreadyEarnedMessage(kind, rule.scope));
    return { entry: toLedgerEntry(granted.entry), balance: granted.balance, replayed: false };
  }, txOptions(10_000));
}

/** The server's own view of what the Rep is for, read under the user's row lock; the client's word is not enough. */
function assertCondition(kind: string, requires: NonNullable<EarnKind["requires"]>, user: LockedUser) {
  if (requires === "profileComplete") {
    const missing = missingProfileFields(user);
    if (missing.length) {
      throw new DomainError(
        repErrors.EARN_CONDITION_NOT_MET,
        `${kind} needs a complete profile (handle, displayName and an avatar); missing: ${missing.join(", ")}.`,
      );
    }
  } else if (!notificationsOn(user)) {
    throw new DomainError(
      repErrors.EARN_CONDITION_NOT_MET,
      `${kind} needs a notification setting on (notifyTeams, notifyMilestones or notifyCommunity in /api/user/settings).`,
    );
  }
}

function alreadyEarnedMessage(kind: string, scope: string): string {
  if (scope === "daily") return `${kind} was already earned today (UTC).`;
  if (scope === "perTarget") return `${kind} was already earned for this target.`;
  return `${kind} can be earned only once.`;
}
