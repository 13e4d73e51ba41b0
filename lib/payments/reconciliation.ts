import type { Db } from "../db/client";
import { uuidv7 } from "../db/ids";
import { int8, raw, type Int8 } from "../db/raw";
import { txOptions } from "../db/tx";
import { env } from "../env";
import { log } from "../kernel/log";
import { stripeMode } from "./modes";
import { stripe } from "./stripe";

// The daily reconciliation (GET /api/cron/payments-reconciliation): Stripe's charges of the last WINDOW_DAYS, as
// Stripe settled them, against the purchases here, each difference recorded for the console (/admin/payments). The
// app stores' transactions are not listed here yet: their history APIs need API keys of their own (docs/domains/
// payments.md).

export const WINDOW_DAYS = 3;

export type DiscrepancyKind = "not_credited" | "not_paid" | "refund_differs" | "dispute_missed";

interface Charge {
  paymentIntent: string;
  amount: number;
  refunded: number;
  disputed: boolean;
  created: number;
}

interface Ours {
  id: string;
  txnId: string;
  amount: number;
  refundedAmount: number;
  disputedAmount: number;
  creditedAt: Date;
}

/** Stripe's paid charges created since `since` (the library's auto-pagination). */
async function stripeCharges(since: Date): Promise<Charge[]> {
  const charges: Charge[] = [];
  for await (const c of stripe().charges.list({ created: { gte: Math.floor(since.getTime() / 1000) }, limit: 100 })) {
    const pi = typeof c.payment_intent === "string" ? c.payment_intent : c.payment_intent?.id;
    if (!c.paid || !pi) continue;
    charges.push({ paymentIntent: pi, amount: c.amount, refunded: c.amount_refunded, disputed: c.disputed, created: c.created * 1000 });
  }
  return charges;
}

/** Our Stripe purchases with a payment: those credited in the window, and those the charges name. */
async function ourPurchases(db: Db, since: Date, txnIds: string[]): Promise<Ours[]> {
  const rows = await raw(db).$queryRaw<Int8<Ours, "amount" | "refundedAmount" | "disputedAmount">[]>`
    SELECT id::text AS id, provider_txn_id AS "txnId", amount, refunded_amount AS "refundedAmount", disputed_amount AS "disputedAmount",
           credited_at AS "creditedAt"
    FROM coin_purchases
    WHERE provider = 'stripe' AND provider_txn_id IS NOT NULL AND credited_at IS NOT NULL
      AND (credited_at >= ${since} OR provider_txn_id = ANY(${txnIds}::text[]))`;
  return rows.map((r) => int8(r, ["amount", "refundedAmount", "disputedAmount"]));
}

/** The differences between Stripe's side and ours (pure: the rules in one place). */
export function compare(charges: Charge[], ours: Ours[], now: number) {
  // A difference younger than this may be a webhook still in flight: a later run reports it.
  const SETTLE_MS = env().PAYMENTS_RECONCILE_SETTLE_MINUTES * 60_000;
  const byTxn = new Map(ours.map((o) => [o.txnId, o]));
  const paid = new Set(charges.map((c) => c.paymentIntent));
  const found: { kind: DiscrepancyKind; txnId: string; purchaseId: string | null; details: Record<string, unknown> }[] = [];
  for (const c of charges) {
    const o = byTxn.get(c.paymentIntent);
    if (!o) {
      if (now - c.created >= SETTLE_MS) found.push({ kind: "not_credited", txnId: c.paymentIntent, purchaseId: null, details: { stripeAmount: c.amount } });
      continue;
    }
    if (c.refunded !== o.refundedAmount) {
      found.push({ kind: "refund_differs", txnId: c.paymentIntent, purchaseId: o.id, details: { stripeRefunded: c.refunded, ourRefunded: o.refundedAmount } });
    }
    if (c.disputed && o.disputedAmount === 0)
      found.push({ kind: "dispute_missed", txnId: c.paymentIntent, purchaseId: o.id, details: { stripeAmount: c.amount } });
  }
  for (const o of ours) {
    if (!paid.has(o.txnId) && now - o.creditedAt.getTime() >= SETTLE_MS) {
      found.push({ kind: "not_paid", txnId: o.txnId, purchaseId: o.id, details: { ourAmount: o.amount } });
    }
  }
  return found;
}

/** One run for Stripe (when configured): compares, records the run and its differences in one transaction. */
export async function reconcilePayments(db: Db, now = new Date()) {
  if (stripeMode() === "unconfigured") return { runs: [] };
  const since = new Date(now.getTime() - WINDOW_DAYS * 86_400_000);
  const id = uuidv7();
  let found: ReturnType<typeof compare> = [];
  let checked = 0;
  let error: string | null = null;
  try {
    const charges = await stripeCharges(since);
    const ours = await ourPurchases(
      db,
      since,
      charges.map((c) => c.paymentIntent),
    );
    checked = charges.length + ours.length;
    found = compare(charges, ours, now.getTime());
  } catch (e) {
    error = (e as Error).message.slice(0, 500);
    log("warn", { msg: "payments reconciliation failed", provider: "stripe", error });
  }
  const status = error ? "failed" : found.length ? "differences" : "ok";
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO payment_reconciliations (id, provider, window_from, started_at, checked, status, error)
      VALUES (${id}::uuid, 'stripe', ${since}, ${now}, ${checked}, ${status}, ${error})`;
    for (const f of found) {
      await tx.$executeRaw`
        INSERT INTO payment_discrepancies (id, reconciliation_id, kind, provider_txn_id, purchase_id, details)
        VALUES (${uuidv7()}::uuid, ${id}::uuid, ${f.kind}, ${f.txnId}, ${f.purchaseId}::uuid, ${JSON.stringify(f.details)}::jsonb)`;
    }
  }, txOptions());
  return { runs: [{ id, provider: "stripe", status, checked, discrepancies: found.length }] };
}

export interface LatestRun {
  id: string;
  provider: string;
  startedAt: Date;
  windowFrom: Date;
  checked: number;
  status: string;
  error: string | null;
  discrepancies: { kind: DiscrepancyKind; providerTxnId: string; purchaseId: string | null; details: Record<string, unknown> }[];
}

/** The latest run of each provider with its differences (the console). */
export async function latestReconciliations(db: Db): Promise<LatestRun[]> {
  return raw(db).$queryRaw<LatestRun[]>`
    SELECT r.id::text AS id, r.provider, r.started_at AS "startedAt", r.window_from AS "windowFrom", r.checked, r.status, r.error,
           COALESCE((SELECT json_agg(json_build_object('kind', d.kind, 'providerTxnId', d.provider_txn_id, 'purchaseId', d.purchase_id, 'details', d.details)
                                     ORDER BY d.id)
                     FROM payment_discrepancies d WHERE d.reconciliation_id = r.id), '[]') AS discrepancies
    FROM (SELECT DISTINCT ON (provider) * FROM payment_reconciliations ORDER BY provider, started_at DESC) r
    ORDER BY r.provider`;
}
