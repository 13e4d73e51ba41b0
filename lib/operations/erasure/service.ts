import type { Db, DbTx } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { forgetUser } from "../../auth/users";
import { identityProvider } from "../../auth/identity-provider";
import { log } from "../../kernel/log";
import { storage, type Storage } from "../../storage";
import { claimDueDeletion, claimFollowUp, markErased, postponeDeletion, setFollowUp } from "../../core/accounts/service";
import { takeOffBoards } from "../../core/rep/leaderboard/service";
import { clawBackReferral } from "../../features/referrals/service";
import { lockCollectibles } from "../../core/collectibles/service";
import { closeListing, closeOffer, lockListing, lockOffer, offerById } from "../../features/marketplace/service";
import { refundBid } from "../../features/marketplace/service";
import { refundOffer } from "../../features/marketplace/service";
import { closeTradesOf, lockOpenTradesOf } from "../../features/marketplace/service";
import { lockWallets, pay } from "../../core/wallets/service";
import { coinBalanceOf, holdingsOf, lockLiveMints, uploadedFiles } from "./queries";
import { clearLeadingBid, eraseRows, failPendingMints, tombstoneUser } from "./writes";

// The erasure of accounts whose deletion (lib/core/accounts) is due: GET /api/cron/account-erasure. It looks across every
// domain a fan's data sits in (eraseAccount below), so it sits above them all, with the operations.

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

// The erasure of one account, in the erasure cron's transaction (runAccountErasure claims the deletion and commits):
//   1. the marketplace: the user's listings cancelled, their leading bids and open offers refunded, offers on their
//      items declined (refunded to the buyers), their open trades cancelled and those proposed to them declined
//      (every hold back), all with the marketplace's own statements and in its one lock order
//      (docs/decisions/0024: collectibles → listings → offers → wallets in user-id order); an auction of theirs with
//      bids, a leading bid on an auction that ended unsettled, or a mint under way makes the erasure wait (Deferred);
//   2. pending mints failed (their items free again);
//   3. the remaining COIN balance forfeited with one ledger row (`adjustment`, reference `account_deletion`), so
//      every wallet still equals its ledger;
//   4. the personal data, one statement per table: ERASURE_STATEMENTS in writes.ts — a new table with a user's data
//      adds one line there;
//   5. the users row scrubbed into a tombstone: same id (every Rep and wallet ledger row, sale, transfer, bid, offer
//      and season win keeps pointing at it), no personal data, its handle_key kept so the handle stays taken forever,
//      its external_id kept so the identity-provider subject can never sign in again (lib/auth/users.ts).
// What must happen outside the database (stored files, the identity-provider user, the leaderboards in Redis) is
// returned for runAccountErasure to do after the commit.

/** The erasure cannot run yet; the deletion is retried later (the transaction rolls back). */
export class Deferred extends Error {}

const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** Step 1: the marketplace, in the one lock order. Throws Deferred when an auction must settle first. */
async function releaseMarketplace(tx: DbTx, userId: string): Promise<void> {
  // Open trades either side: their rows come first in the lock order; closed below with their holds back.
  const trades = await lockOpenTradesOf(tx, userId);
  const h = await holdingsOf(tx, userId);
  const offers = [...h.offersMade, ...h.offersReceived];
  await lockCollectibles(
    tx,
    [...h.ownListings, ...h.leading, ...offers].map((r) => r.collectibleId),
  );
  const listings = new Map<string, Awaited<ReturnType<typeof lockListing>>>();
  for (const l of byId([...h.ownListings, ...h.leading])) listings.set(l.id, await lockListing(tx, l.id));
  for (const o of byId(offers)) await lockOffer(tx, o.id);
  await lockWallets(tx, [userId, ...h.offersReceived.map((o) => o.buyerId), ...trades.map((t) => t.proposerId)], "COIN");

  for (const { id } of h.ownListings) {
    const l = listings.get(id);
    if (!l || l.status !== "active" || l.sellerId !== userId) continue;
    if (l.topBidId) throw new Deferred(`auction ${id} has bids: the deletion waits until it settles`);
    await closeListing(tx, id, { status: "cancelled" });
  }
  for (const { id } of h.leading) {
    const l = listings.get(id);
    if (!l || l.status !== "active" || l.topBidderId !== userId || !l.topBidId) continue;
    if (l.ended) throw new Deferred(`auction ${id} ended with the user's bid leading: the deletion waits until it settles`);
    // The leading bid goes back to the user; the auction runs on as if it had no bid (every earlier bid was refunded
    // when it was outbid, so there is no held bid to fall back to).
    await refundBid(tx, l.topBidId, l.currency);
    await clearLeadingBid(tx, id);
  }
  for (const { id } of offers) {
    const o = await offerById(tx, id);
    if (!o || o.status !== "open") continue;
    await refundOffer(tx, o);
    if (o.buyerId === userId) await closeOffer(tx, id, "cancelled");
    else await closeOffer(tx, id, "declined", { sellerId: userId });
  }
  await closeTradesOf(tx, userId, trades);
}

/** Step 2: mints. Pending ones fail (the item is free again); one being minted right now makes the erasure wait. */
async function settleMints(tx: DbTx, userId: string): Promise<void> {
  const live = await lockLiveMints(tx, userId);
  if (live.some((m) => m.status === "minting")) throw new Deferred("a mint is under way: the deletion waits until it completes");
  if (live.length) await failPendingMints(tx, userId);
}

/** Step 3: the remaining COIN balance (after every hold came back) is forfeited with one ledger row. */
async function forfeitCoins(tx: DbTx, userId: string): Promise<number> {
  const balance = await coinBalanceOf(tx, userId);
  if (balance > 0) {
    await pay(tx, {
      userId,
      currency: "COIN",
      amount: balance,
      reason: "adjustment",
      referenceType: "account_deletion",
      referenceId: userId,
      note: "Forfeited: the account was deleted.",
    });
  }
  return balance;
}

export interface Erased {
  externalId: string;
  coinsForfeited: number;
  files: string[];
}

/** Erases the account in the caller's transaction (which holds the deletion's claim). Throws Deferred to wait. */
export async function eraseAccount(tx: DbTx, userId: string): Promise<Erased> {
  if (!(await lockUser(tx, userId))) throw new Error(`user ${userId} not found`);
  await releaseMarketplace(tx, userId);
  await settleMints(tx, userId);
  const coinsForfeited = await forfeitCoins(tx, userId);
  // A rewarded referee deleted within the claw-back window takes the referrer's reward back (lib/features/referrals).
  await clawBackReferral(tx, userId);
  const files = await uploadedFiles(tx, userId);
  await eraseRows(tx, userId);
  const externalId = await tombstoneUser(tx, userId);
  return { externalId, coinsForfeited, files };
}
