import type { Db, DbTx } from "../../db/client";
import { rawTransaction, type RawDb } from "../../db/raw";
import { DomainError } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { standingRefusal, tradingStanding } from "../moderation/service";
import { clawFromWallet, credit, lockWallets } from "../../core/wallets/service";
import { errors as paymentsErrors } from "./errors";
import {
  claimEvent,
  dropHeldDisputes,
  lockPurchaseByTxn,
  lockTransaction,
  markCredited,
  markFailed,
  purchaseByTxn,
  setClawback,
  setDisputeWon,
  setEventState,
  setFlag,
  takeHeldClaws,
  type PurchaseRow,
} from "./queries";
import type { PurchaseFlag, WebhookOutcome } from "./schemas";

// Money in, whichever provider it comes from: what each provider's handler (stripe.ts, app-store.ts, google-play.ts)
// calls once it has verified a payment, a refund or a dispute. A purchase of a coin bundle is credited exactly once
// per (provider, provider transaction), whichever delivery or call comes first and however many run at once: under
// the transaction's lock (lockTransaction), the purchase row turns `credited` with a conditional upsert (UNIQUE
// (provider, provider_txn_id) behind it) and the wallet is credited in the same database transaction. Refunds and
// disputes claw the coins back under the same locks: what the balance holds is taken, the rest becomes the wallet's
// debt (the wallet is frozen for trading, lib/features/moderation assertMayTrade, and later credits settle it first,
// lib/core/wallets credit). A claw-back for a transaction not credited yet is held (payment_events) and applied by the
// credit. Coins never expire and are never turned back into money; items bought with coins later clawed back stay
// with the buyer. Lock order: the provider transaction, the purchase row, the wallet.

/** What one provider event or call did (the webhook's `duplicate` and `outcome`). */
export type EventOutcome = { duplicate: boolean; outcome: WebhookOutcome };
/** A webhook's answer (schemas.ts webhookAnswer). */
export type WebhookAnswer = { received: true; eventId: string } & EventOutcome;

/** The answers to the delivery of `eventId`. */
export const answerTo =
  (eventId: string) =>
  (o: EventOutcome): WebhookAnswer => ({ received: true, eventId, ...o });

export type EventBase = { provider: string; eventId: string; type: string };

/** An event this service does not act on: recorded once, so a re-delivery reads as one. */
export async function ignoreEvent(db: Db, e: EventBase & { txnId: string | null }) {
  const fresh = await rawTransaction(db, (tx) => claimEvent(tx, { ...e, state: "ignored" }));
  return { duplicate: !fresh, outcome: "ignored" as const };
}

/**
 * Credits a paid purchase once: the pending row (or a new one, when the checkout's row is missing) becomes credited
 * with the provider transaction and the wallet gets its coins, then any claw-back held for the transaction applies.
 * The money is taken by then (a store purchase completes on the device; a checkout may have started before a
 * restriction or a deletion request): a purchase credited to a fan who could not buy coins now is flagged with the
 * reason's code (coin_purchases.flag) for staff to review, never refused.
 */
export async function creditPurchase(
  db: Db,
  c: EventBase & { txnId: string; id: string; userId: string; productId: string; coins: number; amount: number; currency: string },
): Promise<{ duplicate: boolean; outcome: WebhookOutcome }> {
  return rawTransaction(db, async (tx) => {
    await lockTransaction(tx, c.provider, c.txnId);
    if (!(await claimEvent(tx, { ...c, state: "applied" }))) return { duplicate: true, outcome: "ignored" as const };
    const existing = await lockPurchaseByTxn(tx, c.provider, c.txnId);
    const row = existing ? undefined : await markCredited(tx, c);
    if (!row) {
      await setEventState(tx, c.provider, c.eventId, "ignored");
      return { duplicate: false, outcome: "ignored" as const };
    }
    await lockWallets(tx, [row.userId], "COIN");
    await credit(tx, {
      userId: row.userId,
      currency: "COIN",
      amount: row.coins,
      reason: "topup",
      referenceType: "coin_purchase",
      referenceId: row.id,
      note: `${c.provider} ${c.txnId}`,
    });
    const refusal = standingRefusal(await tradingStanding(tx, row.userId), "coins");
    if (refusal) {
      await setFlag(tx, row.id, refusal.code as PurchaseFlag);
      log("warn", { msg: "purchase credited to a fan who may not buy coins", purchase: row.id, provider: c.provider, flag: refusal.code });
    }
    const held = await takeHeldClaws(tx, c.provider, c.txnId);
    if (held.length === 0) return { duplicate: false, outcome: "credited" as const };
    const most = (kind: string) => Math.max(0, ...held.filter((h) => h.clawKind === kind).map((h) => h.clawAmount));
    await applyClaw(tx, row, { refunded: most("refund"), disputed: most("dispute") });
    return { duplicate: false, outcome: "clawed_back" as const };
  });
}

/**
 * A refund or dispute (the provider's cumulative amount for the transaction) claws back coins in proportion to the
 * money returned, rounded up; held when the transaction has no credit yet.
 */
export async function clawBack(db: Db, c: EventBase & { txnId: string; kind: "refund" | "dispute"; cumulative: number }) {
  return rawTransaction(db, async (tx) => {
    await lockTransaction(tx, c.provider, c.txnId);
    const row = await lockPurchaseByTxn(tx, c.provider, c.txnId);
    const state = row?.creditedAt ? ("applied" as const) : ("held" as const);
    if (!(await claimEvent(tx, { ...c, state, clawKind: c.kind, clawAmount: c.cumulative }))) return { duplicate: true, outcome: "ignored" as const };
    if (!row?.creditedAt) return { duplicate: false, outcome: "held" as const };
    await applyClaw(tx, row, c.kind === "refund" ? { refunded: c.cumulative } : { disputed: c.cumulative });
    return { duplicate: false, outcome: "clawed_back" as const };
  });
}

/** The coins a purchase's money returned so far claws back: in proportion, rounded up (all of them for a free one). */
const clawTarget = (row: PurchaseRow, returnedMoney: number) =>
  row.amount > 0 ? Math.min(row.coins, Math.ceil((row.coins * Math.min(returnedMoney, row.amount)) / row.amount)) : row.coins;

/**
 * Brings a credited purchase's claw-back up to the money refunded and disputed so far (never down); a dispute won
 * counts no more.
 */
async function applyClaw(tx: RawDb | DbTx, row: PurchaseRow, money: { refunded?: number; disputed?: number }) {
  const refunded = Math.max(row.refundedAmount, money.refunded ?? 0);
  const disputed = Math.max(row.disputedAmount, money.disputed ?? 0);
  const target = clawTarget(row, refunded + (row.disputeWonAt ? 0 : disputed));
  const delta = target - row.clawedCoins;
  if (delta > 0) {
    await lockWallets(tx, [row.userId], "COIN");
    await clawFromWallet(tx, {
      userId: row.userId,
      currency: "COIN",
      amount: delta,
      referenceType: "coin_purchase",
      referenceId: row.id,
      note: disputed > row.disputedAmount ? "Top-up disputed" : "Top-up refunded",
    });
  }
  await setClawback(tx, row.id, {
    refundedAmount: refunded,
    disputedAmount: disputed,
    clawedCoins: Math.max(target, row.clawedCoins),
    state: disputed > 0 && !row.disputeWonAt ? "disputed" : refunded > 0 ? "refunded" : row.state,
  });
}

/**
 * A dispute closed in the merchant's favour (Stripe: won, or an inquiry closed): the coins it clawed back are
 * returned (a `clawback` credit, which settles the wallet's debt first), the refunds' share stays taken, once per
 * purchase. Before the credit, the held dispute claw-backs are dropped instead.
 */
export async function restoreDispute(db: Db, c: EventBase & { txnId: string }) {
  return rawTransaction(db, async (tx) => {
    await lockTransaction(tx, c.provider, c.txnId);
    const row = await lockPurchaseByTxn(tx, c.provider, c.txnId);
    const applies = row?.creditedAt && !row.disputeWonAt && row.disputedAmount > 0;
    if (!(await claimEvent(tx, { ...c, state: applies ? "applied" : "ignored" }))) return { duplicate: true, outcome: "ignored" as const };
    if (!row?.creditedAt) {
      await dropHeldDisputes(tx, c.provider, c.txnId);
      return { duplicate: false, outcome: "ignored" as const };
    }
    if (!applies) return { duplicate: false, outcome: "ignored" as const };
    const keep = clawTarget(row, row.refundedAmount);
    const back = row.clawedCoins - keep;
    if (back > 0) {
      await lockWallets(tx, [row.userId], "COIN");
      await credit(tx, {
        userId: row.userId,
        currency: "COIN",
        amount: back,
        reason: "clawback",
        referenceType: "coin_purchase",
        referenceId: row.id,
        note: "Dispute won: coins returned",
      });
    }
    await setDisputeWon(tx, row.id, { clawedCoins: keep, state: row.refundedAmount > 0 ? "refunded" : "credited" });
    return { duplicate: false, outcome: "restored" as const };
  });
}

/** A checkout that expired or whose payment failed (Stripe's): pending → failed, once per event. */
export async function failPurchase(db: Db, e: EventBase & { id: string }) {
  return rawTransaction(db, async (tx) => {
    if (!(await claimEvent(tx, { ...e, txnId: null, state: "applied" }))) return { duplicate: true, outcome: "ignored" as const };
    if (!(await markFailed(tx, e.id))) {
      await setEventState(tx, e.provider, e.eventId, "ignored");
      return { duplicate: false, outcome: "ignored" as const };
    }
    return { duplicate: false, outcome: "failed" as const };
  });
}

// What both stores share ---------------------------------------------------------------------------------------------

/** A price in milliunits of its currency (Apple's unit; Google's orders are turned into it) in the currency's minor units (cents; yen for JPY). */
export function minorUnits(priceMilli: number | undefined, currency: string | undefined): number {
  if (!priceMilli || !currency) return 0;
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return Math.round((priceMilli * 10 ** digits) / 1000);
}

/** The fan a store purchase's account token names, when it is one of ours (another build of the app may set others). */
export const knownFan = (db: Db, userId: string | null) => (userId ? db.user.findUnique({ where: { id: userId }, select: { id: true } }) : null);

/**
 * After a store purchase the app sent was credited (now or before): its purchase, refused (403 RECEIPT_OTHER_USER,
 * `otherUser` the message) when it is not the caller's.
 */
export async function redeemedBy(db: Db, provider: string, txnId: string, userId: string, otherUser: string): Promise<PurchaseRow> {
  const row = await purchaseByTxn(db, provider, txnId);
  if (!row || row.userId !== userId) throw new DomainError(paymentsErrors.RECEIPT_OTHER_USER, otherUser);
  return row;
}

/** A purchase as the top-up routes answer it (schemas.ts topup), whichever provider took the money. */
export const toTopup = (r: PurchaseRow) => ({
  id: r.id,
  provider: r.provider,
  productId: r.productId,
  state: r.state,
  coins: r.coins,
  amount: r.amount,
  currency: r.currency,
  clawedBackCoins: r.clawedCoins,
  checkoutUrl: r.state === "pending" ? r.checkoutUrl : null,
  flag: r.flag,
  createdAt: r.createdAt.toISOString(),
  creditedAt: r.creditedAt?.toISOString() ?? null,
  updatedAt: r.updatedAt.toISOString(),
});
