-- AlterEnum
ALTER TYPE "NotificationType" ADD VALUE 'PRICE_ALERT';

-- CreateTable
CREATE TABLE "market_sales" (
    "id" UUID NOT NULL,
    "card_id" TEXT NOT NULL,
    "collectible_id" UUID NOT NULL,
    "serial" INTEGER NOT NULL,
    "seller_id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "price" BIGINT NOT NULL,
    "fee" BIGINT NOT NULL,
    "currency" "Currency" NOT NULL DEFAULT 'COIN',
    "via" TEXT NOT NULL,
    "reference_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "refunded_at" TIMESTAMPTZ(3),

    CONSTRAINT "market_sales_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_alerts" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "card_id" TEXT NOT NULL,
    "serial_min" INTEGER,
    "serial_max" INTEGER,
    "max_price" BIGINT NOT NULL,
    "currency" "Currency" NOT NULL DEFAULT 'COIN',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "price_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "market_sales_card_id_created_at_id_idx" ON "market_sales"("card_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "market_sales_created_at_id_idx" ON "market_sales"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "market_sales_seller_id_created_at_idx" ON "market_sales"("seller_id", "created_at");

-- CreateIndex
CREATE INDEX "market_sales_reference_id_idx" ON "market_sales"("reference_id");

-- CreateIndex
CREATE INDEX "collectibles_card_id_owner_id_idx" ON "collectibles"("card_id", "owner_id");

-- CreateIndex
CREATE INDEX "price_alerts_user_id_id_idx" ON "price_alerts"("user_id", "id" DESC);

-- CreateIndex
CREATE INDEX "price_alerts_card_id_max_price_idx" ON "price_alerts"("card_id", "max_price");

-- AddForeignKey
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "collectible_cards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Rules Prisma cannot declare.
ALTER TABLE "market_sales" ADD CONSTRAINT "market_sales_via_check" CHECK ("via" IN ('sale', 'offer'));
ALTER TABLE "market_sales" ADD CONSTRAINT "market_sales_price_check" CHECK ("price" > 0 AND "fee" >= 0 AND "fee" <= "price");
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_max_price_check" CHECK ("max_price" > 0);
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_serials_check"
  CHECK ("serial_min" IS NULL OR "serial_max" IS NULL OR "serial_min" <= "serial_max");

-- The sales made before this table: listings sold and offers accepted.
INSERT INTO "market_sales" ("id", "card_id", "collectible_id", "serial", "seller_id", "buyer_id", "price", "fee", "currency", "via", "reference_id", "created_at", "refunded_at")
SELECT gen_random_uuid(), l."card_id", l."collectible_id", c."serial", l."seller_id", l."buyer_id", l."sale_price", coalesce(l."fee", 0), l."currency", 'sale', l."id",
       coalesce(l."closed_at", l."created_at"), l."refunded_at"
FROM "listings" l JOIN "collectibles" c ON c."id" = l."collectible_id"
WHERE l."status" = 'sold' AND l."buyer_id" IS NOT NULL AND l."sale_price" > 0;

INSERT INTO "market_sales" ("id", "card_id", "collectible_id", "serial", "seller_id", "buyer_id", "price", "fee", "currency", "via", "reference_id", "created_at")
SELECT gen_random_uuid(), c."card_id", o."collectible_id", c."serial", o."seller_id", o."buyer_id", o."amount", coalesce(o."fee", 0), o."currency", 'offer', o."id",
       coalesce(o."closed_at", o."created_at")
FROM "offers" o JOIN "collectibles" c ON c."id" = o."collectible_id"
WHERE o."status" = 'accepted' AND o."seller_id" IS NOT NULL AND o."amount" > 0;
