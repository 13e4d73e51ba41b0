import { z } from "zod";
import type { Db, DbTx } from "../db/client";
import { uuidv7 } from "../db/ids";
import { idempotent, type IdempotencyKey } from "../db/idempotency";
import { rawTransaction, type RawDb } from "../db/raw";
import { env } from "../env";
import { DomainError, notFound } from "../kernel/errors";
import { UUID_PATTERN } from "../kernel/schemas";
import { decodeIdCursor, encodeIdCursor } from "../kernel/cursor";
import { log } from "../kernel/log";
import { keysetPage } from "../kernel/page";
import { clawFromWallet, credit, lockWallets } from "../wallets/service";
import {
  activeProduct,
  activeProducts,
  claimEvent,
  dropHeldDisputes,
  insertPending,
  lockPurchaseByTxn,
  lockTransaction,
  markCredited,
  markFailed,
  purchaseOf,
  purchasesOf,
  setCheckout,
  setClawback,
  setDisputeWon,
  setEventState,
  setFlag,
  takeHeldClaws,
  type ProductRow,
  type PurchaseRow,
} from "./queries";
import type { CreateTopupInput, PurchaseFlag, WebhookOutcome } from "./schemas";
import { assertMayBuyCoins, standingRefusal, tradingStanding } from "../moderation/sanctions";
import { assertWithinLimits } from "../spending/service";
import { parseStripeEvent, stripe } from "./stripe";
import { errors as paymentsErrors } from "./errors";
import { anyPaymentProvider } from "./modes";

export { stripeMode, stripeSignature } from "./stripe";

// Money in. A purchase of a coin bundle is credited exactly once per (provider, provider transaction), whichever
// delivery or call comes first and however many run at once: under the transaction's lock (lockTransaction), the
// purchase row turns `credited` with a conditional upsert (UNIQUE (provider, provider_txn_id) behind it) and the
// wallet is credited in the same database transaction. Refunds and disputes claw the coins back under the same
// locks: what the balance holds is taken, the rest becomes the wallet's debt (the wallet is frozen for trading,
// lib/moderation assertMayTrade, and later credits settle it first, lib/wallets credit). A claw-back for a
// transaction not credited yet is held (payment_events) and applied by the credit. Coins never expire and are never
// turned back into money; items bought with coins later clawed back stay with the buyer. Lock order: the provider
// transaction, the purchase row, the wallet.

const PROVIDER = "stripe";

export const toProduct = (p: ProductRow) => ({
  id: p.id,
  name: p.name,
  coins: p.coins,
  prices: Object.entries(p.prices)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({ currency, amount })),
  appStoreProductId: p.appStoreProductId,
  googlePlayProductId: p.googlePlayProductId,
});

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

export async function listProducts(db: RawDb | DbTx) {
  return { products: (await activeProducts(db)).map(toProduct) };
}

export async function getTopup(db: RawDb | DbTx, userId: string, id: string) {
  const row = await purchaseOf(db, userId, id);
  if (!row) throw notFound("Top-up");
  return { topup: toTopup(row) };
}

export async function listTopups(db: RawDb | DbTx, userId: string, q: { cursor?: string; limit: number }) {
  const rows = await purchasesOf(db, userId, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("topups", rows, q.limit, (r) => encodeIdCursor(r.id), toTopup);
}

function returnUrl(topupId: string, result: "success" | "cancel") {
  const url = new URL(env().STRIPE_RETURN_URL ?? env().APP_URL);
  url.searchParams.set("topup", topupId);
  url.searchParams.set("result", result);
  return url.toString();
}

/**
 * Starts a card top-up: a pending purchase and a Stripe Checkout Session for the bundle, once per Idempotency-Key
 * (a retry answers the same session). The wallet is credited by the webhook only, never by the browser's return.
 * Refused, as GET /api/v1/me/eligibility says, to a fan restricted from trading or whose deletion is pending
 * (assertMayBuyCoins): coins are forfeited at erasure.
 */
export async function createTopup(db: Db, userId: string, input: CreateTopupInput, idempotency: IdempotencyKey) {
  const client = stripe();
  await assertMayBuyCoins(db, userId);
  const product = await activeProduct(db, input.productId);
  if (!product) throw notFound("Product");
  const amount = product.prices[input.currency];
  if (amount === undefined) {
    throw new DomainError(
      paymentsErrors.CURRENCY_NOT_OFFERED,
      `${product.name} is not sold in ${input.currency.toUpperCase()}; it is in ${Object.keys(product.prices).join(", ").toUpperCase()}.`,
    );
  }
  return idempotent(db, { userId, ...idempotency, request: input }, async (tx) => {
    // The coins bought today and this month, under the wallet's lock (lib/spending): concurrent checkouts count each other.
    await assertWithinLimits(tx, userId, "topups", product.coins);
    const id = uuidv7();
    await insertPending(tx, { id, userId, productId: product.id, provider: PROVIDER, coins: product.coins, amount, currency: input.currency });
    let session: { id: string; url: string | null };
    try {
      session = await client.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [{ quantity: 1, price_data: { currency: input.currency, unit_amount: amount, product_data: { name: product.name } } }],
          client_reference_id: id,
          metadata: { topupId: id, userId, productId: product.id, coins: String(product.coins) },
          payment_intent_data: { metadata: { topupId: id } },
          success_url: returnUrl(id, "success"),
          cancel_url: returnUrl(id, "cancel"),
        },
        { idempotencyKey: `topup_${id}` },
      );
    } catch (error) {
      log("warn", { msg: "stripe checkout failed", error: (error as Error).message });
      throw new DomainError(paymentsErrors.PAYMENTS_PROVIDER_ERROR, "The card payment provider could not start a checkout; nothing was charged. Retry.");
    }
    if (!session.url) throw new DomainError(paymentsErrors.PAYMENTS_PROVIDER_ERROR, "The card payment provider answered no checkout URL; retry.");
    const row = await setCheckout(tx, id, session.id, session.url);
    return { topup: toTopup(row), checkoutUrl: session.url };
  });
}

// Webhook ------------------------------------------------------------------------------------------------------------

const ref = z.union([z.string(), z.looseObject({ id: z.string() })]).nullish();
const refId = (r: z.infer<typeof ref>) => (typeof r === "string" ? r : (r?.id ?? null));

const sessionObject = z.looseObject({
  id: z.string(),
  payment_intent: ref,
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
});
const chargeObject = z.looseObject({ payment_intent: ref, amount: z.number().int(), amount_refunded: z.number().int() });
const disputeObject = z.looseObject({ payment_intent: ref, amount: z.number().int(), status: z.string().optional() });

type Answer = { received: true; eventId: string; duplicate: boolean; outcome: WebhookOutcome };

/** Processes a verified Stripe event (the raw body the signature covered), at most once per event id. */
export async function handleStripeEvent(db: Db, rawBody: Buffer): Promise<Answer> {
  const event = parseStripeEvent(rawBody);
  const base = { provider: PROVIDER, eventId: event.id, type: event.type };
  const answer = (o: { duplicate: boolean; outcome: WebhookOutcome }): Answer => ({ received: true, eventId: event.id, ...o });
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const s = sessionObject.safeParse(event.object);
      const m = s.success ? s.data.metadata : undefined;
      const txnId = s.success ? refId(s.data.payment_intent) : null;
      // Unpaid (a delayed payment method): async_payment_succeeded credits it later.
      const ours = m && UUID_PATTERN.test(m.topupId ?? "") && UUID_PATTERN.test(m.userId ?? "") && m.productId && /^\d{1,15}$/.test(m.coins ?? "");
      if (!s.success || s.data.payment_status !== "paid" || !txnId || !m || !ours) {
        return answer(await ignore(db, { ...base, txnId }));
      }
      return answer(
        await creditPurchase(db, {
          ...base,
          txnId,
          id: m.topupId!.toLowerCase(),
          userId: m.userId!.toLowerCase(),
          productId: m.productId!,
          coins: Number(m.coins),
          amount: s.data.amount_total ?? 0,
          currency: s.data.currency ?? "usd",
        }),
      );
    }
    case "checkout.session.expired":
    case "checkout.session.async_payment_failed": {
      const s = sessionObject.safeParse(event.object);
      const topupId = s.success ? s.data.metadata?.topupId : undefined;
      if (!topupId || !UUID_PATTERN.test(topupId)) return answer(await ignore(db, { ...base, txnId: null }));
      return answer(await failPurchase(db, { ...base, id: topupId.toLowerCase() }));
    }
    case "charge.refunded": {
      const c = chargeObject.safeParse(event.object);
      const txnId = c.success ? refId(c.data.payment_intent) : null;
      if (!c.success || !txnId) return answer(await ignore(db, { ...base, txnId }));
      return answer(await clawBack(db, { ...base, txnId, kind: "refund", cumulative: c.data.amount_refunded }));
    }
    case "charge.dispute.created": {
      const d = disputeObject.safeParse(event.object);
      const txnId = d.success ? refId(d.data.payment_intent) : null;
      if (!d.success || !txnId) return answer(await ignore(db, { ...base, txnId }));
      return answer(await clawBack(db, { ...base, txnId, kind: "dispute", cumulative: d.data.amount }));
    }
    case "charge.dispute.closed": {
      const d = disputeObject.safeParse(event.object);
      const txnId = d.success ? refId(d.data.payment_intent) : null;
      // Lost: the coins stay clawed back. Won (or an inquiry closed without a chargeback): they come back.
      if (!d.success || !txnId || !["won", "warning_closed"].includes(d.data.status ?? "")) return answer(await ignore(db, { ...base, txnId }));
      return answer(await restoreDispute(db, { ...base, txnId }));
    }
    default:
      return answer(await ignore(db, { ...base, txnId: null }));
  }
}

type EventBase = { provider: string; eventId: string; type: string };

/** An event this service does not act on: recorded once, so a re-delivery reads as one. */
async function ignore(db: Db, e: EventBase & { txnId: string | null }) {
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

async function failPurchase(db: Db, e: EventBase & { id: string }) {
  return rawTransaction(db, async (tx) => {
    if (!(await claimEvent(tx, { ...e, txnId: null, state: "applied" }))) return { duplicate: true, outcome: "ignored" as const };
    if (!(await markFailed(tx, e.id))) {
      await setEventState(tx, e.provider, e.eventId, "ignored");
      return { duplicate: false, outcome: "ignored" as const };
    }
    return { duplicate: false, outcome: "failed" as const };
  });
}

/**
 * Why no coins can be bought on this deployment at all (no provider is configured), as GET /api/v1/me/eligibility
 * gives it (lib/spending eligibilityOf, which is handed it: spending sits below payments), or null.
 */
export const noPaymentProviderReason = () =>
  anyPaymentProvider() ? null : { code: paymentsErrors.PAYMENTS_UNAVAILABLE.code, message: "No payment provider is configured on this deployment." };
