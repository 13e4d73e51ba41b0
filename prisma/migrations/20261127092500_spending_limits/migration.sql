-- Spending limits and the fan's country (lib/spending).
ALTER TABLE "users" ADD COLUMN "country" TEXT;
ALTER TABLE "users" ADD CONSTRAINT "users_country" CHECK (country ~ '^[A-Z]{2}$');

CREATE TABLE "spending_limits" (
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "pending_amount" BIGINT,
    "pending_from" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spending_limits_pkey" PRIMARY KEY ("user_id","kind","period")
);

ALTER TABLE "spending_limits" ADD CONSTRAINT "spending_limits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "spending_limits" ADD CONSTRAINT "spending_limits_kind" CHECK (kind IN ('topups', 'packs'));
ALTER TABLE "spending_limits" ADD CONSTRAINT "spending_limits_period" CHECK (period IN ('day', 'month'));
ALTER TABLE "spending_limits" ADD CONSTRAINT "spending_limits_amounts" CHECK (amount >= 0 AND (pending_amount IS NULL OR pending_amount >= 0));
ALTER TABLE "spending_limits" ADD CONSTRAINT "spending_limits_pending" CHECK ((pending_amount IS NULL) = (pending_from IS NULL));
