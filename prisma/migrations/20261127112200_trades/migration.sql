-- CreateEnum
CREATE TYPE "TradeStatus" AS ENUM ('open', 'accepted', 'declined', 'cancelled', 'expired', 'void', 'countered');

-- CreateEnum
CREATE TYPE "TradeSide" AS ENUM ('offered', 'asked');

-- AlterEnum
ALTER TYPE "WalletTxReason" ADD VALUE 'trade';

-- AlterEnum
ALTER TYPE "NotificationType" ADD VALUE 'TRADE_UPDATE';

-- CreateTable
CREATE TABLE "trades" (
    "id" UUID NOT NULL,
    "proposer_id" UUID NOT NULL,
    "recipient_id" UUID NOT NULL,
    "offer_coins" BIGINT NOT NULL DEFAULT 0,
    "ask_coins" BIGINT NOT NULL DEFAULT 0,
    "currency" "Currency" NOT NULL DEFAULT 'COIN',
    "gift" BOOLEAN NOT NULL DEFAULT false,
    "message" TEXT,
    "status" "TradeStatus" NOT NULL DEFAULT 'open',
    "void_reason" TEXT,
    "counter_of_id" UUID,
    "countered_by_id" UUID,
    "recipient_fee" BIGINT,
    "proposer_fee" BIGINT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "trades_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trade_items" (
    "trade_id" UUID NOT NULL,
    "collectible_id" UUID NOT NULL,
    "side" "TradeSide" NOT NULL,

    CONSTRAINT "trade_items_pkey" PRIMARY KEY ("trade_id","collectible_id")
);

-- CreateTable
CREATE TABLE "offer_minimums" (
    "user_id" UUID NOT NULL,
    "card_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "offer_minimums_pkey" PRIMARY KEY ("user_id","card_id")
);

-- CreateTable
CREATE TABLE "trade_refusals" (
    "user_id" UUID NOT NULL,
    "refused_id" UUID NOT NULL,

    CONSTRAINT "trade_refusals_pkey" PRIMARY KEY ("user_id","refused_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "trades_counter_of_id_key" ON "trades"("counter_of_id");

-- CreateIndex
CREATE INDEX "trades_proposer_id_id_idx" ON "trades"("proposer_id", "id" DESC);

-- CreateIndex
CREATE INDEX "trades_recipient_id_id_idx" ON "trades"("recipient_id", "id" DESC);

-- CreateIndex
CREATE INDEX "trades_status_expires_at_idx" ON "trades"("status", "expires_at");

-- CreateIndex
CREATE INDEX "trade_items_collectible_id_idx" ON "trade_items"("collectible_id");

-- CreateIndex
CREATE INDEX "trade_refusals_refused_id_idx" ON "trade_refusals"("refused_id");

-- AddForeignKey
ALTER TABLE "trades" ADD CONSTRAINT "trades_proposer_id_fkey" FOREIGN KEY ("proposer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trades" ADD CONSTRAINT "trades_recipient_id_fkey" FOREIGN KEY ("recipient_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade_items" ADD CONSTRAINT "trade_items_trade_id_fkey" FOREIGN KEY ("trade_id") REFERENCES "trades"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade_items" ADD CONSTRAINT "trade_items_collectible_id_fkey" FOREIGN KEY ("collectible_id") REFERENCES "collectibles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offer_minimums" ADD CONSTRAINT "offer_minimums_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offer_minimums" ADD CONSTRAINT "offer_minimums_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "collectible_cards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade_refusals" ADD CONSTRAINT "trade_refusals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade_refusals" ADD CONSTRAINT "trade_refusals_refused_id_fkey" FOREIGN KEY ("refused_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Checks Prisma cannot declare.
ALTER TABLE "trades" ADD CONSTRAINT "trades_coins_nonnegative" CHECK ("offer_coins" >= 0 AND "ask_coins" >= 0);
ALTER TABLE "trades" ADD CONSTRAINT "trades_two_parties" CHECK ("proposer_id" <> "recipient_id");
ALTER TABLE "offer_minimums" ADD CONSTRAINT "offer_minimums_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "trade_refusals" ADD CONSTRAINT "trade_refusals_not_self" CHECK ("user_id" <> "refused_id");
