-- The daily reconciliation of payment providers with the purchases here (lib/payments/reconciliation.ts).
CREATE TABLE "payment_reconciliations" (
    "id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "window_from" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "checked" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "error" TEXT,

    CONSTRAINT "payment_reconciliations_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "payment_discrepancies" (
    "id" UUID NOT NULL,
    "reconciliation_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "provider_txn_id" TEXT NOT NULL,
    "purchase_id" UUID,
    "details" JSONB NOT NULL,

    CONSTRAINT "payment_discrepancies_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "payment_reconciliations_provider_started_at_idx" ON "payment_reconciliations"("provider", "started_at" DESC);
CREATE INDEX "coin_purchases_provider_credited_at_idx" ON "coin_purchases"("provider", "credited_at");
CREATE INDEX "payment_discrepancies_reconciliation_id_id_idx" ON "payment_discrepancies"("reconciliation_id", "id");

ALTER TABLE "payment_discrepancies" ADD CONSTRAINT "payment_discrepancies_reconciliation_id_fkey" FOREIGN KEY ("reconciliation_id") REFERENCES "payment_reconciliations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "payment_reconciliations" ADD CONSTRAINT "payment_reconciliations_status" CHECK ("status" IN ('ok', 'differences', 'failed'));
ALTER TABLE "payment_discrepancies" ADD CONSTRAINT "payment_discrepancies_kind" CHECK ("kind" IN ('not_credited', 'not_paid', 'refund_differs', 'dispute_missed'));
