import type { Db } from "../../db/client";
import { rawTransaction, type RawDb } from "../../db/raw";
import { env } from "../../env";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { DECIMALS } from "../wallets/schemas";
import { errors as accountsErrors } from "./errors";
import { coinsOf, deleteScheduledDeletion, deletionOf, deletionQueue, insertDeletion, lockDeletionForCancel, type DeletionRow } from "./queries";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { claimDueDeletion, claimFollowUp, markErased, postponeDeletion, setFollowUp } from "./queries";

export { deletionPendingSql } from "./queries";

// Account deletion (POST, GET, DELETE /api/v1/me/deletion; the page /account/delete): the caller schedules the
// deletion of their account after a grace period (ACCOUNT_DELETION_GRACE_DAYS, default 7), sees it with the coins it
// will forfeit, and may cancel it until the erasure cron claims it. While it is scheduled the account works but
// cannot trade (ACCOUNT_DELETION_PENDING, checked by lib/features/moderation's assertMayTrade through deletionPendingSql).
// The erasure (GET /api/cron/account-erasure, lib/operations/erasure) erases each due account in one transaction, then deletes
// its stored files, its identity-provider user and its leaderboard entries, retrying what fails.

async function toDeletion(db: RawDb | Db, userId: string, row: DeletionRow) {
  const coins = await coinsOf(db, userId);
  return {
    state: "scheduled" as const,
    requestedAt: row.requestedAt.toISOString(),
    scheduledFor: row.dueAt.toISOString(),
    coins: { currency: "COIN" as const, decimals: DECIMALS.COIN, balance: coins.balance, held: coins.held, forfeited: coins.balance + coins.held },
  };
}

const inProgress = () => new DomainError(accountsErrors.DELETION_IN_PROGRESS, "The deletion of this account is under way: it can no longer be cancelled.");

/** The caller's scheduled deletion, or null. */
export async function getDeletion(db: Db, userId: string) {
  const row = await deletionOf(db, userId);
  if (!row) return { deletion: null };
  if (row.state !== "scheduled") throw inProgress();
  return { deletion: await toDeletion(db, userId, row) };
}

/** What scheduling now would mean (the confirmation step says it before the fan confirms): the date and the coins. */
export async function previewDeletion(db: Db, userId: string) {
  const now = new Date();
  return toDeletion(db, userId, { state: "scheduled", requestedAt: now, dueAt: new Date(now.getTime() + env().ACCOUNT_DELETION_GRACE_DAYS * 86_400_000) });
}

/** Schedules the caller's deletion after the grace period; asking again keeps the first date. */
export async function scheduleDeletion(db: Db, userId: string) {
  const row = await insertDeletion(db, userId, env().ACCOUNT_DELETION_GRACE_DAYS);
  if (row.state !== "scheduled") throw inProgress();
  return { deletion: await toDeletion(db, userId, row) };
}

/**
 * Cancels the caller's scheduled deletion: 404 when none, 409 DELETION_IN_PROGRESS once the erasure has claimed it
 * (its transaction holds the row: the cancel does not wait for it) or erased the account.
 */
export async function cancelDeletion(db: Db, userId: string) {
  await rawTransaction(db, async (tx) => {
    const row = await lockDeletionForCancel(tx, userId);
    if (row === "none") throw notFound("Scheduled deletion");
    if (row === "locked" || row.state !== "scheduled") throw inProgress();
    await deleteScheduledDeletion(tx, userId);
  });
  return { cancelled: true as const, deletion: null };
}

/** The staff console's deletion queue: scheduled deletions, the next the cron may take first (keyset pages). */
export async function listDeletionQueue(db: RawDb | Db, q: { cursor?: string; limit: number }) {
  const rows = await deletionQueue(db, q.cursor ? decodeUuidTimeCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage(
    "deletions",
    rows,
    q.limit,
    (r) => encodeCursor(r.notBefore.getTime(), r.userId),
    (r) => r,
  );
}
