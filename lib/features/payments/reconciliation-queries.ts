import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { raw } from "../../db/raw";

// The reconciliation's record (lib/features/payments/reconciliation.ts): each run and its differences, and the
// latest run of each provider as the console (/admin/payments) shows it.

export type DiscrepancyKind = "not_credited" | "not_paid" | "refund_differs" | "dispute_missed";

/** One provider's run: its window, how many transactions it checked, and how it ended. */
export async function insertReconciliation(
  tx: DbTx,
  r: { id: string; provider: string; since: Date; now: Date; checked: number; status: string; error: string | null },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO payment_reconciliations (id, provider, window_from, started_at, checked, status, error)
    VALUES (${r.id}::uuid, ${r.provider}, ${r.since}, ${r.now}, ${r.checked}, ${r.status}, ${r.error})`;
}

/** When the provider's last run that could read it started (failed runs read nothing), or null. */
export async function lastReadRunAt(db: Db, provider: string): Promise<Date | null> {
  const [row] = await raw(db).$queryRaw<{ at: Date | null }[]>`
    SELECT max(started_at) AS at FROM payment_reconciliations WHERE provider = ${provider} AND status <> 'failed'`;
  return row?.at ?? null;
}

/** One difference the run `reconciliationId` found. */
export async function insertDiscrepancy(
  tx: DbTx,
  reconciliationId: string,
  f: { kind: DiscrepancyKind; txnId: string; purchaseId: string | null; details: Record<string, unknown> },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO payment_discrepancies (id, reconciliation_id, kind, provider_txn_id, purchase_id, details)
    VALUES (${uuidv7()}::uuid, ${reconciliationId}::uuid, ${f.kind}, ${f.txnId}, ${f.purchaseId}::uuid, ${JSON.stringify(f.details)}::jsonb)`;
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
