-- AlterTable
ALTER TABLE "rewards" ADD COLUMN     "fulfilment" TEXT NOT NULL DEFAULT 'none';

-- AlterTable
ALTER TABLE "reward_claims" ADD COLUMN     "fulfilment_note" TEXT,
ADD COLUMN     "fulfilment_status" TEXT NOT NULL DEFAULT 'fulfilled',
ADD COLUMN     "fulfilment_updated_at" TIMESTAMPTZ(3),
ADD COLUMN     "refund_entry_id" UUID,
ADD COLUMN     "refunded_at" TIMESTAMPTZ(3),
ADD COLUMN     "shipping_address" JSONB,
ADD COLUMN     "tracking_code" TEXT;

-- CreateTable
CREATE TABLE "referral_rewards" (
    "referee_id" UUID NOT NULL,
    "referrer_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "month" TEXT,
    "referrer_amount" INTEGER NOT NULL DEFAULT 0,
    "referee_amount" INTEGER NOT NULL DEFAULT 0,
    "qualified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "clawed_back_at" TIMESTAMPTZ(3),
    "clawed_back_amount" INTEGER,

    CONSTRAINT "referral_rewards_pkey" PRIMARY KEY ("referee_id")
);

-- CreateTable
CREATE TABLE "shipping_addresses" (
    "user_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "line1" TEXT NOT NULL,
    "line2" TEXT,
    "city" TEXT NOT NULL,
    "region" TEXT,
    "postal_code" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "phone" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shipping_addresses_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "reward_voucher_codes" (
    "id" UUID NOT NULL,
    "reward_id" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "claim_id" UUID,
    "assigned_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reward_voucher_codes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "referral_rewards_referrer_id_month_idx" ON "referral_rewards"("referrer_id", "month");

-- CreateIndex
CREATE UNIQUE INDEX "reward_voucher_codes_claim_id_key" ON "reward_voucher_codes"("claim_id");

-- CreateIndex
CREATE INDEX "reward_voucher_codes_reward_id_claim_id_id_idx" ON "reward_voucher_codes"("reward_id", "claim_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "reward_voucher_codes_reward_id_code_key" ON "reward_voucher_codes"("reward_id", "code");

-- CreateIndex
CREATE UNIQUE INDEX "reward_claims_refund_entry_id_key" ON "reward_claims"("refund_entry_id");

-- CreateIndex
CREATE INDEX "reward_claims_user_id_id_idx" ON "reward_claims"("user_id", "id" DESC);

-- CreateIndex
CREATE INDEX "reward_claims_fulfilment_status_id_idx" ON "reward_claims"("fulfilment_status", "id");

-- CreateIndex
CREATE INDEX "invite_redemptions_inviter_id_created_at_invitee_id_idx" ON "invite_redemptions"("inviter_id", "created_at" DESC, "invitee_id" DESC);

-- AddForeignKey
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_referee_id_fkey" FOREIGN KEY ("referee_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_referrer_id_fkey" FOREIGN KEY ("referrer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "shipping_addresses" ADD CONSTRAINT "shipping_addresses_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_voucher_codes" ADD CONSTRAINT "reward_voucher_codes_reward_id_fkey" FOREIGN KEY ("reward_id") REFERENCES "rewards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_voucher_codes" ADD CONSTRAINT "reward_voucher_codes_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "reward_claims"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Hand-written: the states as CHECKs.
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_state_check" CHECK ("state" IN ('qualified', 'rewarded', 'clawed_back'));
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_fulfilment_check" CHECK ("fulfilment" IN ('none', 'digital', 'voucher', 'physical'));
ALTER TABLE "reward_claims" ADD CONSTRAINT "reward_claims_fulfilment_status_check" CHECK ("fulfilment_status" IN ('fulfilled', 'pending', 'shipped', 'delivered', 'failed'));
ALTER TABLE "shipping_addresses" ADD CONSTRAINT "shipping_addresses_country_check" CHECK ("country" ~ '^[A-Z]{2}$');
