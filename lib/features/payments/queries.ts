import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import type { PurchaseFlag, PurchaseState } from "./schemas";

// Reads and writes of coin bundles, purchases and provider events. A purchase's money-moving statements run under
// the transaction's lock (lockTransaction), then the purchase row, then the wallet: the one order of lib/features/payments.

/** A coin bundle (coin_products); dev/seed/data.ts seeds the demo ones in this shape. */
export interface ProductRow {
  id: string;
  name: string;
  /** COIN minor units (hundredths). */
  coins: number;
  /** Price per ISO currency, in its minor units. */
  prices: Record<string, number>;
  appStoreProductId: string | null;
  googlePlayProductId: string | null;
}

export async function activeProducts(db: RawDb | DbTx): Promise<ProductRow[]> {
  const rows = await raw(db).$queryRaw<Int8<ProductRow, "coins">[]>`
    SELECT id, name, coins, prices, app_store_product_id AS "appStoreProductId", google_play_product_id AS "googlePlayProductId"
    FROM coin_products WHERE active ORDER BY sort_order, id`;
  return rows.map((r) => int8(r, ["coins"]));
}

export async function activeProduct(db: RawDb | DbTx, id: string): Promise<ProductRow | undefined> {
  const [row] = await raw(db).$queryRaw<Int8<ProductRow, "coins">[]>`
    SELECT id, name, coins, prices, app_store_product_id AS "appStoreProductId", google_play_product_id AS "googlePlayProductId"
    FROM coin_products WHERE id = ${id} AND active`;
  return row && int8(row, ["coins"]);
}

/** The bundle an App Store or Google Play product id names (inactive ones too: a purchase made before still credits). */
export async function productByStoreId(db: RawDb | DbTx, store: "app_store" | "google_play", storeProductId: string): Promise<ProductRow | undefined> {
  const column = store === "app_store" ? Prisma.sql`app_store_product_id` : Prisma.sql`google_play_product_id`;
  const [row] = await raw(db).$queryRaw<Int8<ProductRow, "coins">[]>`
    SELECT id, name, coins, prices, app_store_product_id AS "appStoreProductId", google_play_product_id AS "googlePlayProductId"
    FROM coin_products WHERE ${column} = ${storeProductId}`;
  return row && int8(row, ["coins"]);
}

export interface PurchaseRow {
  id: string;
  userId: string;
  productId: string;
  provider: "stripe" | "app_store" | "google_play";
  providerTxnId: string | null;
  checkoutUrl: string | null;
  coins: number;
  amount: number;
  currency: string;
  state: PurchaseState;
  refundedAmount: number;
  disputedAmount: number;
  clawedCoins: number;
  disputeWonAt: Date | null;
  /** The reason the fan could not buy coins when it was credited (PURCHASE_FLAGS), or null. */
  flag: PurchaseFlag | null;
  createdAt: Date;
  updatedAt: Date;
  creditedAt: Date | null;
}
const PURCHASE_INT8 = ["coins", "amount", "refundedAmount", "disputedAmount", "clawedCoins"] as const;
const PURCHASE_COLUMNS = Prisma.sql`id::text AS id, user_id::text AS "userId", product_id AS "productId", provider, provider_txn_id AS "providerTxnId",
  checkout_url AS "checkoutUrl", coins, amount, currency, state, refunded_amount AS "refundedAmount", disputed_amount AS "disputedAmount",
  clawed_coins AS "clawedCoins", dispute_won_at AS "disputeWonAt", flag, created_at AS "createdAt", updated_at AS "updatedAt", credited_at AS "creditedAt"`;
type RawPurchase = Int8<PurchaseRow, (typeof PURCHASE_INT8)[number]>;
const toRow = (r: RawPurchase) => int8(r, PURCHASE_INT8);

export async function insertPending(
  tx: RawDb | DbTx,
  p: { id: string; userId: string; productId: string; provider: "stripe"; coins: number; amount: number; currency: string },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO coin_purchases (id, user_id, product_id, provider, coins, amount, currency)
    VALUES (${p.id}::uuid, ${p.userId}::uuid, ${p.productId}, ${p.provider}, ${p.coins}::int8, ${p.amount}::int8, ${p.currency})`;
}

export async function setCheckout(tx: RawDb | DbTx, id: string, sessionId: string, url: string): Promise<PurchaseRow> {
  const [row] = await tx.$queryRaw<RawPurchase[]>`
    UPDATE coin_purchases SET provider_session_id = ${sessionId}, checkout_url = ${url}, updated_at = now()
    WHERE id = ${id}::uuid RETURNING ${PURCHASE_COLUMNS}`;
  return toRow(row!);
}

export async function purchaseOf(db: RawDb | DbTx, userId: string, id: string): Promise<PurchaseRow | undefined> {
  const [row] = await raw(db).$queryRaw<RawPurchase[]>`
    SELECT ${PURCHASE_COLUMNS} FROM coin_purchases WHERE id = ${id}::uuid AND user_id = ${userId}::uuid`;
  return row && toRow(row);
}

/** A page of the user's purchases, newest first (keyset on the time-ordered id). */
export async function purchasesOf(db: RawDb | DbTx, userId: string, before: string | undefined, take: number): Promise<PurchaseRow[]> {
  const keyset = before ? Prisma.sql`AND id < ${before}::uuid` : Prisma.empty;
  const rows = await raw(db).$queryRaw<RawPurchase[]>`
    SELECT ${PURCHASE_COLUMNS} FROM coin_purchases WHERE user_id = ${userId}::uuid ${keyset} ORDER BY id DESC LIMIT ${take}`;
  return rows.map(toRow);
}

/**
 * Serializes everything that happens to one provider transaction (its credit, its refunds and disputes, held or
 * not) for the rest of the database transaction: the first lock of lib/features/payments' order, before the purchase row
 * and the wallet. A transaction-scoped advisory lock, so it also covers a transaction no row names yet.
 */
export async function lockTransaction(tx: RawDb | DbTx, provider: string, txnId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`coin_purchase:${provider}:${txnId}`}, 0))`;
}

/**
 * Records a purchase as paid, once: the pending row (or, when none was recorded, a new one) becomes `credited` with
 * its provider transaction. Answers the row when this call made it credited, none when it already was (or was
 * failed and then paid: that row is made credited too). UNIQUE (provider, provider_txn_id) refuses a second row
 * for the same transaction.
 */
export async function markCredited(
  tx: RawDb | DbTx,
  p: { id: string; userId: string; productId: string; provider: string; txnId: string; coins: number; amount: number; currency: string },
): Promise<PurchaseRow | undefined> {
  const [row] = await tx.$queryRaw<RawPurchase[]>`
    INSERT INTO coin_purchases AS c (id, user_id, product_id, provider, provider_txn_id, coins, amount, currency, state, credited_at)
    VALUES (${p.id}::uuid, ${p.userId}::uuid, ${p.productId}, ${p.provider}, ${p.txnId}, ${p.coins}::int8, ${p.amount}::int8, ${p.currency}, 'credited', now())
    ON CONFLICT (id) DO UPDATE SET state = 'credited', provider_txn_id = EXCLUDED.provider_txn_id, amount = EXCLUDED.amount,
      currency = EXCLUDED.currency, credited_at = now(), checkout_url = NULL, updated_at = now()
    WHERE c.state IN ('pending', 'failed')
    RETURNING ${PURCHASE_COLUMNS}`;
  return row && toRow(row);
}

/** Flags a credited purchase: the fan could not buy coins when it was credited (lib/features/payments creditPurchase). */
export async function setFlag(tx: RawDb | DbTx, id: string, flag: PurchaseFlag): Promise<void> {
  await tx.$executeRaw`UPDATE coin_purchases SET flag = ${flag}, updated_at = now() WHERE id = ${id}::uuid`;
}

/** The purchase of a provider transaction, locked (after lockTransaction). */
export async function lockPurchaseByTxn(tx: RawDb | DbTx, provider: string, txnId: string): Promise<PurchaseRow | undefined> {
  const [row] = await tx.$queryRaw<RawPurchase[]>`
    SELECT ${PURCHASE_COLUMNS} FROM coin_purchases WHERE provider = ${provider} AND provider_txn_id = ${txnId} FOR UPDATE`;
  return row && toRow(row);
}

/** The purchase of a provider transaction. */
export async function purchaseByTxn(db: RawDb | DbTx, provider: string, txnId: string): Promise<PurchaseRow | undefined> {
  const [row] = await raw(db).$queryRaw<RawPurchase[]>`
    SELECT ${PURCHASE_COLUMNS} FROM coin_purchases WHERE provider = ${provider} AND provider_txn_id = ${txnId}`;
  return row && toRow(row);
}

export async function setClawback(
  tx: RawDb | DbTx,
  id: string,
  c: { refundedAmount: number; disputedAmount: number; clawedCoins: number; state: PurchaseState },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE coin_purchases SET refunded_amount = ${c.refundedAmount}::int8, disputed_amount = ${c.disputedAmount}::int8,
      clawed_coins = ${c.clawedCoins}::int8, state = ${c.state}, updated_at = now()
    WHERE id = ${id}::uuid`;
}

/** A dispute won: what stays clawed back (the refunds' share), the state, and the time, once. */
export async function setDisputeWon(tx: RawDb | DbTx, id: string, c: { clawedCoins: number; state: PurchaseState }): Promise<void> {
  await tx.$executeRaw`
    UPDATE coin_purchases SET clawed_coins = ${c.clawedCoins}::int8, state = ${c.state}, dispute_won_at = now(), updated_at = now()
    WHERE id = ${id}::uuid`;
}

/** Dispute claw-backs held for a transaction not credited yet, dropped (the dispute was won before the credit landed). */
export const dropHeldDisputes = (tx: RawDb | DbTx, provider: string, txnId: string) =>
  tx.$executeRaw`
    UPDATE payment_events SET state = 'ignored' WHERE provider = ${provider} AND provider_txn_id = ${txnId} AND state = 'held' AND claw_kind = 'dispute'`;

/** A checkout that expired or whose payment failed: pending → failed (a later payment still credits it). */
export async function markFailed(tx: RawDb | DbTx, id: string): Promise<boolean> {
  const n = await tx.$executeRaw`
    UPDATE coin_purchases SET state = 'failed', checkout_url = NULL, updated_at = now() WHERE id = ${id}::uuid AND state = 'pending'`;
  return n > 0;
}

/**
 * Claims a provider event, once: false when it was received before (a re-delivery). Inserted in the transaction of
 * its effect, so a failed processing leaves it unclaimed for the provider's retry; concurrent deliveries of one event
 * wait on the primary key until the first commits.
 */
export async function claimEvent(
  tx: RawDb | DbTx,
  e: {
    provider: string;
    eventId: string;
    type: string;
    txnId: string | null;
    state: "applied" | "held" | "ignored";
    clawKind?: "refund" | "dispute";
    clawAmount?: number;
  },
): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    INSERT INTO payment_events (provider, event_id, type, provider_txn_id, state, claw_kind, claw_amount, applied_at)
    VALUES (${e.provider}, ${e.eventId}, ${e.type}, ${e.txnId}, ${e.state}, ${e.clawKind ?? null}, ${e.clawAmount ?? null}::int8,
            ${e.state === "applied" ? new Date() : null}::timestamptz)
    ON CONFLICT (provider, event_id) DO NOTHING
    RETURNING 1`;
  return rows.length > 0;
}

export async function setEventState(tx: RawDb | DbTx, provider: string, eventId: string, state: "applied" | "held" | "ignored"): Promise<void> {
  await tx.$executeRaw`
    UPDATE payment_events SET state = ${state}, applied_at = CASE WHEN ${state}::text = 'applied' THEN now() END
    WHERE provider = ${provider} AND event_id = ${eventId}`;
}

/** Claw-backs held for a transaction that had no credit yet; marked applied by the same statement. */
export async function takeHeldClaws(tx: RawDb | DbTx, provider: string, txnId: string): Promise<{ clawKind: "refund" | "dispute"; clawAmount: number }[]> {
  const rows = await tx.$queryRaw<{ clawKind: "refund" | "dispute"; clawAmount: bigint }[]>`
    UPDATE payment_events SET state = 'applied', applied_at = now()
    WHERE provider = ${provider} AND provider_txn_id = ${txnId} AND state = 'held'
    RETURNING claw_kind AS "clawKind", claw_amount AS "clawAmount"`;
  return rows.map((r) => ({ clawKind: r.clawKind, clawAmount: Number(r.clawAmount) }));
}

export interface PurchaseMismatch {
  userId: string;
  topupCredits: number;
  purchasedCoins: number;
  clawedCoins: number;
  clawbackTaken: number;
  debt: number;
  balance: number;
}

/**
 * The money-in part of the economy invariant (checkInvariant, lib/operations/invariants/economy.ts): per user, the `topup` ledger rows sum to
 * the coins of their credited purchases, the `clawback` rows plus the wallet's debt sum to the coins clawed back, and
 * no wallet holds a balance while in debt. Up to `limit` users where any of it fails.
 */
export async function purchaseMismatches(db: RawDb | DbTx, limit = 100): Promise<PurchaseMismatch[]> {
  const rows = await raw(db).$queryRaw<Record<keyof PurchaseMismatch, string>[]>`
    WITH p AS (
      SELECT user_id, sum(coins) FILTER (WHERE credited_at IS NOT NULL) AS purchased, sum(clawed_coins) AS clawed
      FROM coin_purchases GROUP BY user_id),
    l AS (
      SELECT user_id, sum(amount) FILTER (WHERE reason = 'topup') AS topups, -sum(amount) FILTER (WHERE reason = 'clawback') AS taken
      FROM wallet_transactions WHERE currency = 'COIN' AND reason IN ('topup', 'clawback') GROUP BY user_id),
    w AS (SELECT user_id, debt, balance FROM wallets WHERE currency = 'COIN'),
    u AS (SELECT user_id FROM p UNION SELECT user_id FROM l UNION SELECT user_id FROM w WHERE debt > 0)
    SELECT u.user_id::text AS "userId", coalesce(l.topups, 0)::text AS "topupCredits", coalesce(p.purchased, 0)::text AS "purchasedCoins",
           coalesce(p.clawed, 0)::text AS "clawedCoins", coalesce(l.taken, 0)::text AS "clawbackTaken", coalesce(w.debt, 0)::text AS debt,
           coalesce(w.balance, 0)::text AS balance
    FROM u LEFT JOIN p USING (user_id) LEFT JOIN l USING (user_id) LEFT JOIN w USING (user_id)
    WHERE coalesce(l.topups, 0) <> coalesce(p.purchased, 0)
       OR coalesce(p.clawed, 0) <> coalesce(l.taken, 0) + coalesce(w.debt, 0)
       OR (coalesce(w.debt, 0) > 0 AND coalesce(w.balance, 0) > 0)
    ORDER BY u.user_id
    LIMIT ${limit}`;
  return rows.map((r) => ({
    userId: r.userId,
    topupCredits: Number(r.topupCredits),
    purchasedCoins: Number(r.purchasedCoins),
    clawedCoins: Number(r.clawedCoins),
    clawbackTaken: Number(r.clawbackTaken),
    debt: Number(r.debt),
    balance: Number(r.balance),
  }));
}

/** One credited purchase, as the reconciliation compares it. */
export interface CreditedPurchase {
  id: string;
  txnId: string;
  amount: number;
  refundedAmount: number;
  disputedAmount: number;
  creditedAt: Date;
}

/** A provider's purchases credited here: those credited since `since`, and those `txnIds` names. */
export async function creditedPurchases(db: RawDb | DbTx, provider: string, since: Date, txnIds: string[]): Promise<CreditedPurchase[]> {
  const rows = await raw(db).$queryRaw<Int8<CreditedPurchase, "amount" | "refundedAmount" | "disputedAmount">[]>`
    SELECT id::text AS id, provider_txn_id AS "txnId", amount, refunded_amount AS "refundedAmount", disputed_amount AS "disputedAmount",
           credited_at AS "creditedAt"
    FROM coin_purchases
    WHERE provider = ${provider} AND provider_txn_id IS NOT NULL AND credited_at IS NOT NULL
      AND (credited_at >= ${since} OR provider_txn_id = ANY(${txnIds}::text[]))`;
  return rows.map((r) => int8(r, ["amount", "refundedAmount", "disputedAmount"]));
}

/**
 * Deletes provider events received before `before`, 5,000 a statement, except held claw-backs (they wait for their
 * credit). An event's row is what makes a re-delivery a duplicate, so `before` must be older than any provider's
 * redelivery window.
 */
export async function deleteOldEvents(db: RawDb | DbTx, before: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await raw(db).$executeRaw`
      DELETE FROM payment_events WHERE (provider, event_id) IN (
        SELECT provider, event_id FROM payment_events WHERE received_at < ${before} AND state <> 'held' LIMIT 5000)`;
    deleted += n;
    if (n < 5000) return deleted;
  }
}
