-- CreateTable
CREATE TABLE "data_exports" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "ready_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "file_key" TEXT,
    "size_bytes" INTEGER,
    "last_error" TEXT,

    CONSTRAINT "data_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "data_exports_user_id_id_idx" ON "data_exports"("user_id", "id" DESC);

-- CreateIndex
CREATE INDEX "data_exports_status_created_at_idx" ON "data_exports"("status", "created_at");

-- CreateIndex
CREATE INDEX "data_exports_status_expires_at_idx" ON "data_exports"("status", "expires_at");

-- CreateIndex
CREATE INDEX "listings_buyer_id_id_idx" ON "listings"("buyer_id", "id");

-- CreateIndex
CREATE INDEX "bids_bidder_id_id_idx" ON "bids"("bidder_id", "id");

-- AddForeignKey
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The statuses there are; a ready export has its file and its expiry; size and attempts are never negative.
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_status" CHECK (status IN ('pending', 'building', 'ready', 'failed', 'expired'));
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_ready_file" CHECK (status <> 'ready' OR (file_key IS NOT NULL AND ready_at IS NOT NULL AND expires_at IS NOT NULL));
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_building_claim" CHECK (status <> 'building' OR claimed_at IS NOT NULL);
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_counts" CHECK (attempts >= 0 AND (size_bytes IS NULL OR size_bytes >= 0));
