-- CreateEnum
CREATE TYPE "DropMode" AS ENUM ('draw', 'queue');

-- CreateEnum
CREATE TYPE "DropEntryStatus" AS ENUM ('entered', 'won', 'lost', 'withdrawn', 'waiting');

-- CreateTable
CREATE TABLE "drops" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "pack_id" TEXT NOT NULL,
    "mode" "DropMode" NOT NULL,
    "price" BIGINT NOT NULL,
    "currency" "Currency" NOT NULL DEFAULT 'COIN',
    "quantity" INTEGER NOT NULL,
    "sold_count" INTEGER NOT NULL DEFAULT 0,
    "per_user_cap" INTEGER NOT NULL,
    "opens_at" TIMESTAMPTZ(3) NOT NULL,
    "closes_at" TIMESTAMPTZ(3) NOT NULL,
    "allowlist_opens_at" TIMESTAMPTZ(3),
    "queue_window" INTEGER NOT NULL,
    "seed" TEXT NOT NULL,
    "seed_hash" TEXT NOT NULL,
    "ordered_count" INTEGER,
    "queue_length" INTEGER NOT NULL DEFAULT 0,
    "served_count" INTEGER NOT NULL DEFAULT 0,
    "ordered_at" TIMESTAMPTZ(3),
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "drops_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "drop_allowlist" (
    "drop_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,

    CONSTRAINT "drop_allowlist_pkey" PRIMARY KEY ("drop_id","user_id")
);

-- CreateTable
CREATE TABLE "drop_entries" (
    "id" UUID NOT NULL,
    "drop_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "status" "DropEntryStatus" NOT NULL,
    "quantity" INTEGER NOT NULL DEFAULT 0,
    "held" BIGINT NOT NULL DEFAULT 0,
    "won_quantity" INTEGER NOT NULL DEFAULT 0,
    "position" INTEGER,
    "ineligible_code" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "drop_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "drop_purchases" (
    "purchase_id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,

    CONSTRAINT "drop_purchases_pkey" PRIMARY KEY ("purchase_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "drops_seed_hash_key" ON "drops"("seed_hash");

-- CreateIndex
CREATE INDEX "drops_ordered_at_closes_at_idx" ON "drops"("ordered_at", "closes_at");

-- CreateIndex
CREATE INDEX "drop_entries_user_id_id_idx" ON "drop_entries"("user_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "drop_entries_drop_id_user_id_key" ON "drop_entries"("drop_id", "user_id");

-- CreateIndex
CREATE INDEX "drop_purchases_entry_id_idx" ON "drop_purchases"("entry_id");

-- AddForeignKey
ALTER TABLE "drops" ADD CONSTRAINT "drops_pack_id_fkey" FOREIGN KEY ("pack_id") REFERENCES "packs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drop_allowlist" ADD CONSTRAINT "drop_allowlist_drop_id_fkey" FOREIGN KEY ("drop_id") REFERENCES "drops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drop_allowlist" ADD CONSTRAINT "drop_allowlist_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drop_entries" ADD CONSTRAINT "drop_entries_drop_id_fkey" FOREIGN KEY ("drop_id") REFERENCES "drops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drop_entries" ADD CONSTRAINT "drop_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drop_purchases" ADD CONSTRAINT "drop_purchases_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "drop_entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drop_purchases" ADD CONSTRAINT "drop_purchases_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "pack_purchases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Stock never oversold, caps and money positive (the services check first; these are the backstop).
ALTER TABLE "drops" ADD CONSTRAINT "drops_counts_check" CHECK (quantity > 0 AND sold_count >= 0 AND sold_count <= quantity AND per_user_cap >= 1 AND queue_window >= 1 AND price >= 0 AND closes_at > opens_at);
ALTER TABLE "drop_entries" ADD CONSTRAINT "drop_entries_amounts_check" CHECK (quantity >= 0 AND held >= 0 AND won_quantity >= 0);
