-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "WalletTxReason" ADD VALUE 'topup';
ALTER TYPE "WalletTxReason" ADD VALUE 'clawback';

-- AlterTable
ALTER TABLE "wallets" ADD COLUMN     "debt" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "coin_products" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "coins" BIGINT NOT NULL,
    "prices" JSONB NOT NULL,
    "app_store_product_id" TEXT,
    "google_play_product_id" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "coin_products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "coin_purchases" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "product_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_txn_id" TEXT,
    "provider_session_id" TEXT,
    "checkout_url" TEXT,
    "coins" BIGINT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "refunded_amount" BIGINT NOT NULL DEFAULT 0,
    "disputed_amount" BIGINT NOT NULL DEFAULT 0,
    "clawed_coins" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "credited_at" TIMESTAMPTZ(3),

    CONSTRAINT "coin_purchases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_events" (
    "provider" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider_txn_id" TEXT,
    "state" TEXT NOT NULL,
    "claw_kind" TEXT,
    "claw_amount" BIGINT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "applied_at" TIMESTAMPTZ(3),

    CONSTRAINT "payment_events_pkey" PRIMARY KEY ("provider","event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "coin_products_app_store_product_id_key" ON "coin_products"("app_store_product_id");

-- CreateIndex
CREATE UNIQUE INDEX "coin_products_google_play_product_id_key" ON "coin_products"("google_play_product_id");

-- CreateIndex
CREATE UNIQUE INDEX "coin_purchases_provider_session_id_key" ON "coin_purchases"("provider_session_id");

-- CreateIndex
CREATE INDEX "coin_purchases_user_id_id_idx" ON "coin_purchases"("user_id", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "coin_purchases_provider_provider_txn_id_key" ON "coin_purchases"("provider", "provider_txn_id");

-- CreateIndex
CREATE INDEX "payment_events_provider_provider_txn_id_state_idx" ON "payment_events"("provider", "provider_txn_id", "state");

-- AddForeignKey
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "coin_products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Rules the database keeps (lib/payments, lib/wallets).
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_debt_nonnegative" CHECK ("debt" >= 0 AND "debt" <= 9007199254740991);
ALTER TABLE "coin_products" ADD CONSTRAINT "coin_products_coins_positive" CHECK ("coins" > 0);
ALTER TABLE "coin_products" ADD CONSTRAINT "coin_products_prices_object" CHECK (jsonb_typeof("prices") = 'object');
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_provider" CHECK ("provider" IN ('stripe', 'app_store', 'google_play'));
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_state" CHECK ("state" IN ('pending', 'credited', 'refunded', 'disputed', 'failed'));
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_coins_positive" CHECK ("coins" > 0);
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_amounts_nonnegative" CHECK ("amount" >= 0 AND "refunded_amount" >= 0 AND "disputed_amount" >= 0);
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_clawed_range" CHECK ("clawed_coins" >= 0 AND "clawed_coins" <= "coins");
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_credited_has_txn" CHECK ("state" IN ('pending', 'failed') OR ("provider_txn_id" IS NOT NULL AND "credited_at" IS NOT NULL));
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_state" CHECK ("state" IN ('applied', 'held', 'ignored'));
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_claw_kind" CHECK ("claw_kind" IS NULL OR "claw_kind" IN ('refund', 'dispute'));
