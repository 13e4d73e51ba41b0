-- AlterTable
ALTER TABLE "nft_mints" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "claimed_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "mint_key" TEXT,
ADD COLUMN     "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "token_id" TEXT,
ADD COLUMN     "tx_hash" TEXT,
ADD COLUMN     "wallet_address" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "nft_wallet_address" TEXT,
ADD COLUMN     "nft_wallet_linked_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "nft_mints_mint_key_key" ON "nft_mints"("mint_key");

-- CreateIndex
CREATE INDEX "nft_mints_user_id_id_idx" ON "nft_mints"("user_id", "id" DESC);

-- CreateIndex
CREATE INDEX "nft_mints_status_next_attempt_at_idx" ON "nft_mints"("status", "next_attempt_at");
