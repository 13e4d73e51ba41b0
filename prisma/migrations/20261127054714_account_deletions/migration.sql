-- CreateTable
CREATE TABLE "account_deletions" (
    "user_id" UUID NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'scheduled',
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "not_before" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "erased_at" TIMESTAMPTZ(3),
    "coins_forfeited" BIGINT,
    "pending_files" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "idp_subject" TEXT,

    CONSTRAINT "account_deletions_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE INDEX "account_deletions_state_not_before_user_id_idx" ON "account_deletions"("state", "not_before", "user_id");

-- CreateIndex
CREATE INDEX "bids_bidder_id_released_at_idx" ON "bids"("bidder_id", "released_at");

-- AddForeignKey
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- The two states, and what each requires.
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_state" CHECK ("state" IN ('scheduled', 'erased'));
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_erased" CHECK (("state" = 'erased') = ("erased_at" IS NOT NULL));
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_due" CHECK ("due_at" >= "requested_at");
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_forfeit" CHECK ("coins_forfeited" IS NULL OR "coins_forfeited" >= 0);

