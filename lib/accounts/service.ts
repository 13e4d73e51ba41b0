import type { Db } from "../db/client";
import { rawTransaction, type RawDb } from "../db/raw";
import { txOptions } from "../db/tx";
import { forgetUser } from "../auth/users";
import { env } from "../env";
import { DomainError, notFound } from "../kernel/errors";
import { decodeUuidTimeCursor, encodeCursor } from "../kernel/cursor";
import { keysetPage } from "../kernel/page";
import { identityProvider } from "../auth/identity-provider";
import { log } from "../kernel/log";
import { takeOffBoards } from "../leaderboard/service";
import { storage, type Storage } from "../storage";
import { DECIMALS } from "../wallets/schemas";
import { errors as accountsErrors } from "./errors";
import { Deferred, eraseAccount } from "./erasure";
import {
  claimDueDeletion,
  claimFollowUp,
  coinsOf,
  deleteScheduledDeletion,
  deletionOf,
  deletionQueue,
  insertDeletion,
  lockDeletionForCancel,
  markErased,
  postponeDeletion,
  setFollowUp,
  type DeletionRow,
} from "./queries";

export { deletionPendingSql } from "./queries";

// Account deletion (POST, GET, DELETE /api/v1/me/deletion; the page /account/delete): the caller schedules the
// deletion of their account after a grace period (ACCOUNT_DELETION_GRACE_DAYS, default 7), sees it with the coins it
// will forfeit, and may cancel it until the erasure cron claims it. While it is scheduled the account works but
// cannot trade (ACCOUNT_DELETION_PENDING, checked by lib/moderation's assertMayTrade through deletionPendingSql).
// The erasure (GET /api/cron/account-erasure) erases each due account in one transaction (erasure.ts), then deletes
// its stored files, its identity-provider user and its leaderboard entries, retrying what fails.

/** How long a deletion that must wait (an auction with bids, a mint under way) or failed waits before the next try. */
export const ERASURE_RETRY_MINUTES = 10;
/** How many accounts one cron call erases at most, and for how long it starts new ones. */
export const ERASURE_BATCH = 25;
export const ERASURE_TIME_BUDGET_MS = 20_000;

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

/** Deletes what the database no longer points at: stored files, then the identity-provider user. What failed is kept. */
async function followUp(files: string[], idpSubject: string | null, store: Storage) {
  const left: string[] = [];
  const errors: string[] = [];
  for (const key of files) {
    try {
      await store.delete(key);
    } catch (error) {
      left.push(key);
      errors.push(`file ${key}: ${String(error)}`);
    }
  }
  let subject = idpSubject;
  if (subject) {
    try {
      await identityProvider().deleteUser(subject);
      subject = null;
    } catch (error) {
      errors.push(`identity provider: ${String(error)}`);
    }
  }
  return { files: left, idpSubject: subject, error: errors.length ? errors.join("; ").slice(0, 1000) : null };
}

/**
 * The erasure cron: erases each due deletion in a transaction of its own (claimed FOR UPDATE SKIP LOCKED, so
 * concurrent runs never erase one twice and a cancel meanwhile answers 409), then retries the follow-up work of
 * erased accounts (files, the identity-provider user). A deletion that must wait or fails is retried later.
 */
export async function runAccountErasure(db: Db, opts: { limit?: number; timeBudgetMs?: number; files?: Storage } = {}) {
  const limit = opts.limit ?? ERASURE_BATCH;
  const until = Date.now() + (opts.timeBudgetMs ?? ERASURE_TIME_BUDGET_MS);
  const out = { erased: 0, deferred: 0, failed: 0, followUps: 0 };
  const skip: string[] = [];
  while (out.erased + out.deferred + out.failed < limit && Date.now() < until) {
    let claimed: string | undefined;
    try {
      const done = await db.$transaction(async (tx) => {
        claimed = await claimDueDeletion(tx, skip);
        if (!claimed) return null;
        const erased = await eraseAccount(tx, claimed);
        await markErased(tx, claimed, { coinsForfeited: erased.coinsForfeited, files: erased.files, idpSubject: erased.externalId });
        return erased;
      }, txOptions(60_000));
      if (!done) break;
      out.erased++;
      forgetUser(done.externalId);
      await takeOffBoards(claimed!);
      log("info", { msg: "account erased", userId: claimed, coinsForfeited: done.coinsForfeited });
    } catch (error) {
      if (!claimed) throw error;
      skip.push(claimed);
      const deferred = error instanceof Deferred;
      if (deferred) out.deferred++;
      else out.failed++;
      await postponeDeletion(db, claimed, ERASURE_RETRY_MINUTES, String(error instanceof Error ? error.message : error).slice(0, 1000));
      log(deferred ? "info" : "error", { msg: deferred ? "account erasure deferred" : "account erasure failed", userId: claimed, error: String(error) });
    }
  }
  // The follow-up holds its row for the few network calls it makes (file deletes, one Backend API call), so two runs
  // never repeat them; what fails stays on the row for the next call.
  const files = opts.files ?? storage();
  const followed: string[] = [];
  while (Date.now() < until) {
    const more = await db.$transaction(async (tx) => {
      const row = await claimFollowUp(tx, followed);
      if (!row) return false;
      followed.push(row.userId);
      const left = await followUp(row.pendingFiles, row.idpSubject, files);
      await setFollowUp(tx, row.userId, left, ERASURE_RETRY_MINUTES, left.error);
      return true;
    }, txOptions(60_000));
    if (!more) break;
    out.followUps++;
  }
  return out;
}
