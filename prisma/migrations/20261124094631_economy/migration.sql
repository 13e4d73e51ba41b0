-- CreateEnum
CREATE TYPE "Rarity" AS ENUM ('common', 'rare', 'epic', 'legendary');

-- CreateEnum
CREATE TYPE "Currency" AS ENUM ('COIN');

-- CreateEnum
CREATE TYPE "WalletTxReason" AS ENUM ('purchase', 'sale', 'fee', 'refund', 'reward', 'adjustment', 'hold');

-- CreateEnum
CREATE TYPE "ListingKind" AS ENUM ('fixed', 'auction');

-- CreateEnum
CREATE TYPE "ListingStatus" AS ENUM ('active', 'sold', 'cancelled', 'expired');

-- CreateEnum
CREATE TYPE "OfferStatus" AS ENUM ('open', 'accepted', 'declined', 'cancelled', 'expired');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "NotificationType" ADD VALUE 'WISHLIST_LISTED';
ALTER TYPE "NotificationType" ADD VALUE 'OUTBID';
ALTER TYPE "NotificationType" ADD VALUE 'OFFER_UPDATE';

-- AlterTable
ALTER TABLE "packs" ADD COLUMN     "currency" "Currency" NOT NULL DEFAULT 'COIN',
ADD COLUMN     "items_per_pack" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "odds_version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "price" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "sale_ends_at" TIMESTAMPTZ(3),
ADD COLUMN     "sale_starts_at" TIMESTAMPTZ(3),
ADD COLUMN     "sold_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "stock" INTEGER;

-- AlterTable
ALTER TABLE "pack_purchases" ADD COLUMN     "currency" "Currency" NOT NULL DEFAULT 'COIN',
ADD COLUMN     "price" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "binders" ADD COLUMN     "is_public" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "pack_odds_tables" (
    "pack_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "weights" JSONB NOT NULL,
    "pool" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pack_odds_tables_pkey" PRIMARY KEY ("pack_id","version")
);

-- CreateTable
CREATE TABLE "draw_seeds" (
    "id" UUID NOT NULL,
    "seed_hash" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "active_slot" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "draw_seeds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pack_openings" (
    "purchase_id" UUID NOT NULL,
    "seed_id" UUID NOT NULL,
    "nonce" SERIAL NOT NULL,
    "odds_version" INTEGER NOT NULL,
    "draws" JSONB NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pack_openings_pkey" PRIMARY KEY ("purchase_id")
);

-- CreateTable
CREATE TABLE "collectible_cards" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "player_id" TEXT,
    "name" TEXT NOT NULL,
    "rarity" "Rarity" NOT NULL,
    "edition_size" INTEGER NOT NULL,
    "minted_count" INTEGER NOT NULL DEFAULT 0,
    "image_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collectible_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collectibles" (
    "id" UUID NOT NULL,
    "card_id" TEXT NOT NULL,
    "serial" INTEGER NOT NULL,
    "owner_id" UUID NOT NULL,
    "purchase_id" UUID,
    "draw_index" INTEGER,
    "acquired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collectibles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collectible_transfers" (
    "id" UUID NOT NULL,
    "collectible_id" UUID NOT NULL,
    "from_user_id" UUID,
    "to_user_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "reference_id" TEXT,
    "price" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collectible_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wallets" (
    "user_id" UUID NOT NULL,
    "currency" "Currency" NOT NULL,
    "balance" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("user_id","currency")
);

-- CreateTable
CREATE TABLE "wallet_transactions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "currency" "Currency" NOT NULL,
    "amount" INTEGER NOT NULL,
    "balance_after" INTEGER NOT NULL,
    "reason" "WalletTxReason" NOT NULL,
    "reference_type" TEXT NOT NULL,
    "reference_id" TEXT NOT NULL,
    "note" TEXT,
    "staff_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallet_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "user_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" INTEGER,
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("user_id","key")
);

-- CreateTable
CREATE TABLE "listings" (
    "id" UUID NOT NULL,
    "seller_id" UUID NOT NULL,
    "collectible_id" UUID NOT NULL,
    "active_item_id" UUID,
    "kind" "ListingKind" NOT NULL,
    "status" "ListingStatus" NOT NULL DEFAULT 'active',
    "currency" "Currency" NOT NULL DEFAULT 'COIN',
    "price" INTEGER NOT NULL,
    "starting_price" INTEGER,
    "reserve_price" INTEGER,
    "min_increment" INTEGER,
    "ends_at" TIMESTAMPTZ(3),
    "top_bid_id" UUID,
    "top_bidder_id" UUID,
    "bid_count" INTEGER NOT NULL DEFAULT 0,
    "card_id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "player_id" TEXT,
    "rarity" "Rarity" NOT NULL,
    "buyer_id" UUID,
    "sale_price" INTEGER,
    "fee" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "listings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bids" (
    "id" UUID NOT NULL,
    "listing_id" UUID NOT NULL,
    "bidder_id" UUID NOT NULL,
    "amount" INTEGER NOT NULL,
    "released_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bids_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offers" (
    "id" UUID NOT NULL,
    "collectible_id" UUID NOT NULL,
    "buyer_id" UUID NOT NULL,
    "open_key" TEXT,
    "amount" INTEGER NOT NULL,
    "currency" "Currency" NOT NULL DEFAULT 'COIN',
    "status" "OfferStatus" NOT NULL DEFAULT 'open',
    "seller_id" UUID,
    "fee" INTEGER,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cart_items" (
    "user_id" UUID NOT NULL,
    "listing_id" UUID NOT NULL,
    "price" INTEGER NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cart_items_pkey" PRIMARY KEY ("user_id","listing_id")
);

-- CreateTable
CREATE TABLE "wishlist_items" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "item_type" TEXT NOT NULL,
    "item_id" TEXT NOT NULL,
    "listing_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wishlist_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "binder_items" (
    "binder_id" UUID NOT NULL,
    "collectible_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "binder_items_pkey" PRIMARY KEY ("binder_id","collectible_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "draw_seeds_seed_hash_key" ON "draw_seeds"("seed_hash");

-- CreateIndex
CREATE UNIQUE INDEX "draw_seeds_active_slot_key" ON "draw_seeds"("active_slot");

-- CreateIndex
CREATE UNIQUE INDEX "pack_openings_nonce_key" ON "pack_openings"("nonce");

-- CreateIndex
CREATE INDEX "pack_openings_seed_id_idx" ON "pack_openings"("seed_id");

-- CreateIndex
CREATE INDEX "collectible_cards_team_id_rarity_idx" ON "collectible_cards"("team_id", "rarity");

-- CreateIndex
CREATE INDEX "collectible_cards_rarity_idx" ON "collectible_cards"("rarity");

-- CreateIndex
CREATE INDEX "collectibles_owner_id_id_idx" ON "collectibles"("owner_id", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "collectibles_card_id_serial_key" ON "collectibles"("card_id", "serial");

-- CreateIndex
CREATE UNIQUE INDEX "collectibles_purchase_id_draw_index_key" ON "collectibles"("purchase_id", "draw_index");

-- CreateIndex
CREATE INDEX "collectible_transfers_collectible_id_id_idx" ON "collectible_transfers"("collectible_id", "id");

-- CreateIndex
CREATE INDEX "wallet_transactions_user_id_currency_id_idx" ON "wallet_transactions"("user_id", "currency", "id" DESC);

-- CreateIndex
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "listings_active_item_id_key" ON "listings"("active_item_id");

-- CreateIndex
CREATE INDEX "listings_status_id_idx" ON "listings"("status", "id" DESC);

-- CreateIndex
CREATE INDEX "listings_status_team_id_id_idx" ON "listings"("status", "team_id", "id" DESC);

-- CreateIndex
CREATE INDEX "listings_status_player_id_id_idx" ON "listings"("status", "player_id", "id" DESC);

-- CreateIndex
CREATE INDEX "listings_status_rarity_id_idx" ON "listings"("status", "rarity", "id" DESC);

-- CreateIndex
CREATE INDEX "listings_status_price_id_idx" ON "listings"("status", "price", "id");

-- CreateIndex
CREATE INDEX "listings_seller_id_id_idx" ON "listings"("seller_id", "id" DESC);

-- CreateIndex
CREATE INDEX "listings_collectible_id_idx" ON "listings"("collectible_id");

-- CreateIndex
CREATE INDEX "listings_card_id_status_price_idx" ON "listings"("card_id", "status", "price");

-- CreateIndex
CREATE INDEX "listings_kind_status_ends_at_idx" ON "listings"("kind", "status", "ends_at");

-- CreateIndex
CREATE INDEX "bids_listing_id_id_idx" ON "bids"("listing_id", "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "offers_open_key_key" ON "offers"("open_key");

-- CreateIndex
CREATE INDEX "offers_buyer_id_id_idx" ON "offers"("buyer_id", "id" DESC);

-- CreateIndex
CREATE INDEX "offers_collectible_id_status_idx" ON "offers"("collectible_id", "status");

-- CreateIndex
CREATE INDEX "offers_status_expires_at_idx" ON "offers"("status", "expires_at");

-- CreateIndex
CREATE INDEX "cart_items_listing_id_idx" ON "cart_items"("listing_id");

-- CreateIndex
CREATE INDEX "wishlist_items_user_id_id_idx" ON "wishlist_items"("user_id", "id" DESC);

-- CreateIndex
CREATE INDEX "wishlist_items_item_type_item_id_idx" ON "wishlist_items"("item_type", "item_id");

-- CreateIndex
CREATE UNIQUE INDEX "wishlist_items_user_id_item_type_item_id_key" ON "wishlist_items"("user_id", "item_type", "item_id");

-- CreateIndex
CREATE INDEX "binder_items_binder_id_position_idx" ON "binder_items"("binder_id", "position");

-- CreateIndex
CREATE INDEX "binder_items_collectible_id_idx" ON "binder_items"("collectible_id");

-- CreateIndex
CREATE INDEX "pack_purchases_user_id_id_idx" ON "pack_purchases"("user_id", "id" DESC);

-- AddForeignKey
ALTER TABLE "pack_odds_tables" ADD CONSTRAINT "pack_odds_tables_pack_id_fkey" FOREIGN KEY ("pack_id") REFERENCES "packs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pack_openings" ADD CONSTRAINT "pack_openings_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "pack_purchases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pack_openings" ADD CONSTRAINT "pack_openings_seed_id_fkey" FOREIGN KEY ("seed_id") REFERENCES "draw_seeds"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collectible_cards" ADD CONSTRAINT "collectible_cards_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collectible_cards" ADD CONSTRAINT "collectible_cards_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collectibles" ADD CONSTRAINT "collectibles_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "collectible_cards"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collectibles" ADD CONSTRAINT "collectibles_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collectible_transfers" ADD CONSTRAINT "collectible_transfers_collectible_id_fkey" FOREIGN KEY ("collectible_id") REFERENCES "collectibles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_user_id_currency_fkey" FOREIGN KEY ("user_id", "currency") REFERENCES "wallets"("user_id", "currency") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listings" ADD CONSTRAINT "listings_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listings" ADD CONSTRAINT "listings_collectible_id_fkey" FOREIGN KEY ("collectible_id") REFERENCES "collectibles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bids" ADD CONSTRAINT "bids_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bids" ADD CONSTRAINT "bids_bidder_id_fkey" FOREIGN KEY ("bidder_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offers" ADD CONSTRAINT "offers_collectible_id_fkey" FOREIGN KEY ("collectible_id") REFERENCES "collectibles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offers" ADD CONSTRAINT "offers_buyer_id_fkey" FOREIGN KEY ("buyer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "binder_items" ADD CONSTRAINT "binder_items_binder_id_fkey" FOREIGN KEY ("binder_id") REFERENCES "binders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "binder_items" ADD CONSTRAINT "binder_items_collectible_id_fkey" FOREIGN KEY ("collectible_id") REFERENCES "collectibles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Rules Prisma cannot declare: money and editions are exact.
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_balance_nonnegative" CHECK ("balance" >= 0);
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_amount_nonzero" CHECK ("amount" <> 0);
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_balance_after_nonnegative" CHECK ("balance_after" >= 0);
ALTER TABLE "packs" ADD CONSTRAINT "packs_price_nonnegative" CHECK ("price" >= 0);
ALTER TABLE "packs" ADD CONSTRAINT "packs_sold_within_stock" CHECK ("stock" IS NULL OR ("sold_count" >= 0 AND "sold_count" <= "stock"));
ALTER TABLE "collectible_cards" ADD CONSTRAINT "collectible_cards_minted_within_edition" CHECK ("minted_count" >= 0 AND "minted_count" <= "edition_size");
ALTER TABLE "collectibles" ADD CONSTRAINT "collectibles_serial_positive" CHECK ("serial" >= 1);
ALTER TABLE "listings" ADD CONSTRAINT "listings_price_positive" CHECK ("price" > 0);
ALTER TABLE "bids" ADD CONSTRAINT "bids_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "offers" ADD CONSTRAINT "offers_amount_positive" CHECK ("amount" > 0);
