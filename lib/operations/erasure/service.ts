import type { Db } from "../../db/client";
import { txOptions } from "../../db/tx";
import { forgetUser } from "../../auth/users";
import { identityProvider } from "../../auth/identity-provider";
import { log } from "../../kernel/log";
import { storage, type Storage } from "../../storage";
import { claimDueDeletion, claimFollowUp, markErased, postponeDeletion, setFollowUp } from "../../core/accounts/service";
import { takeOffBoards } from "../../core/rep/leaderboard/service";
import { Deferred, eraseAccount } from "./writes";

// The erasure of accounts whose deletion (lib/core/accounts) is due: GET /api/cron/account-erasure. It looks across every
// domain a fan's data sits in (erasure.ts), so it sits above them all, with the operations.

/** How long a deletion that must wait (an auction with bids, a mint under way) or failed waits before the next try. */
export const ERASURE_RETRY_MINUTES = 10;
/** How many accounts one cron call erases at most, and for how long it starts new ones. */
export const ERASURE_BATCH = 25;
export const ERASURE_TIME_BUDGET_MS = 20_000;

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
