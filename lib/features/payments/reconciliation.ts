import { unlessRunning } from "../../db/alone";
import type { Db } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { txOptions } from "../../db/tx";
import { env } from "../../env";
import { log } from "../../kernel/log";
import { appStoreReconciliation } from "./app-store-api";
import { googlePlayReconciliation } from "./google-play-orders";
import type { ProviderReconciliation, Settled } from "./provider";
import { deleteOldEvents, type CreditedPurchase } from "./queries";
import { insertDiscrepancy, insertReconciliation, lastReadRunAt, type DiscrepancyKind } from "./reconciliation-queries";
import { stripeReconciliation } from "./stripe";

// The daily reconciliation (GET /api/cron/payments-reconciliation): each configured provider's transactions of the
// last WINDOW_DAYS, as the provider settled them, against the purchases here, each difference recorded for the
// console (/admin/payments). What each provider can list differs (docs/domains/payments.md#reconciliation): each
// provider's module gathers both sides (`ProviderReconciliation`, lib/features/payments/provider.ts), the comparison and the
// record are here.

export const WINDOW_DAYS = 3;
/** How far back a run after missed ones reaches: WINDOW_DAYS before the provider's last run that read it, at most. */
export const CATCH_UP_DAYS = 14;
/** How long a provider event is kept to recognise a re-delivery: past every provider's retries (Pub/Sub's 7 days). */
export const EVENT_RETENTION_DAYS = 30;

const PROVIDERS: ProviderReconciliation[] = [stripeReconciliation, appStoreReconciliation, googlePlayReconciliation];

const refundOf = (s: Settled, paid: number) => (typeof s.refunded === "boolean" ? (s.refunded ? paid : 0) : s.refunded);

/** The differences between the provider's side and ours (pure: the rules in one place). */
export function compare(theirs: Settled[], ours: CreditedPurchase[], now: number) {
  // A difference younger than this may be a webhook still in flight: a later run reports it.
  const SETTLE_MS = env().PAYMENTS_RECONCILE_SETTLE_MINUTES * 60_000;
  const byTxn = new Map(ours.map((o) => [o.txnId, o]));
  const known = new Set(theirs.map((s) => s.txnId));
  const found: { kind: DiscrepancyKind; txnId: string; purchaseId: string | null; details: Record<string, unknown> }[] = [];
  for (const s of theirs) {
    const o = byTxn.get(s.txnId);
    if (!o) {
      // A payment refunded in full before it was credited needs nothing.
      const refundedInFull = typeof s.refunded === "boolean" ? s.refunded : s.amount !== null && s.refunded >= s.amount;
      if (!refundedInFull && now - s.created >= SETTLE_MS)
        found.push({ kind: "not_credited", txnId: s.txnId, purchaseId: null, details: { providerAmount: s.amount } });
      continue;
    }
    if (refundOf(s, o.amount) !== o.refundedAmount) {
      found.push({ kind: "refund_differs", txnId: s.txnId, purchaseId: o.id, details: { providerRefunded: s.refunded, ourRefunded: o.refundedAmount } });
    }
    if (s.disputed && o.disputedAmount === 0) found.push({ kind: "dispute_missed", txnId: s.txnId, purchaseId: o.id, details: { providerAmount: s.amount } });
  }
  for (const o of ours) {
    if (!known.has(o.txnId) && now - o.creditedAt.getTime() >= SETTLE_MS) {
      found.push({ kind: "not_paid", txnId: o.txnId, purchaseId: o.id, details: { ourAmount: o.amount } });
    }
  }
  return found;
}

/**
 * One run per configured provider (compares, records the run and its differences in one transaction), then deletes
 * provider events past their retention. One run at a time: a second one started meanwhile (Vercel Cron may fire
 * twice) does nothing and answers no runs.
 */
export async function reconcilePayments(db: Db, now = new Date()) {
  const done = await unlessRunning(db, "payments-reconciliation", async () => {
    const runs = [];
    for (const p of PROVIDERS.filter((x) => x.configured())) runs.push(await reconcileProvider(db, p, await windowFrom(db, p.provider, now), now));
    const eventsDeleted = await deleteOldEvents(db, new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000));
    return { runs, eventsDeleted };
  });
  return done ?? { runs: [], eventsDeleted: 0 };
}

/**
 * Where a provider's window starts: WINDOW_DAYS back, or a day before its last run that read it when that is earlier
 * (slots were missed: the days since are checked too, and what that run left as too young to judge, at most a day
 * old), never more than CATCH_UP_DAYS back.
 */
async function windowFrom(db: Db, provider: string, now: Date): Promise<Date> {
  const day = 86_400_000;
  const last = await lastReadRunAt(db, provider);
  const from = Math.min(now.getTime() - WINDOW_DAYS * day, (last?.getTime() ?? now.getTime()) - day);
  return new Date(Math.max(from, now.getTime() - CATCH_UP_DAYS * day));
}

async function reconcileProvider(db: Db, p: ProviderReconciliation, since: Date, now: Date) {
  const id = uuidv7();
  let found: ReturnType<typeof compare> = [];
  let checked = 0;
  let error: string | null = null;
  try {
    const { theirs, ours } = await p.gather(db, since, now);
    checked = theirs.length + ours.length;
    found = compare(theirs, ours, now.getTime());
  } catch (e) {
    error = ((e as Error).message || String(e)).slice(0, 500);
    log("warn", { msg: "payments reconciliation failed", provider: p.provider, error });
  }
  const status = error ? "failed" : found.length ? "differences" : "ok";
  await db.$transaction(async (tx) => {
    await insertReconciliation(tx, { id, provider: p.provider, since, now, checked, status, error });
    for (const f of found) await insertDiscrepancy(tx, id, f);
  }, txOptions());
  return { id, provider: p.provider, status, checked, discrepancies: found.length };
}
