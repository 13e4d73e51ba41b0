-- CreateTable
CREATE TABLE "challenges" (
    "id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "reward_card_id" TEXT,
    "reward_supply" INTEGER NOT NULL DEFAULT 0,
    "first_serial" INTEGER,
    "rep_reward" INTEGER NOT NULL DEFAULT 0,
    "completions" INTEGER NOT NULL DEFAULT 0,
    "seed" TEXT NOT NULL,
    "seed_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "challenge_cards" (
    "challenge_id" UUID NOT NULL,
    "card_id" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "challenge_cards_pkey" PRIMARY KEY ("challenge_id","card_id")
);

-- CreateTable
CREATE TABLE "challenge_entries" (
    "id" UUID NOT NULL,
    "challenge_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenge_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "challenge_entry_items" (
    "entry_id" UUID NOT NULL,
    "collectible_id" UUID NOT NULL,
    "challenge_id" UUID NOT NULL,
    "card_id" TEXT NOT NULL,
    "locked_item_id" UUID,

    CONSTRAINT "challenge_entry_items_pkey" PRIMARY KEY ("entry_id","collectible_id")
);

-- CreateTable
CREATE TABLE "challenge_rewards" (
    "challenge_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "rank" INTEGER NOT NULL,
    "serial" INTEGER,
    "collectible_id" UUID,
    "rep_awarded" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenge_rewards_pkey" PRIMARY KEY ("challenge_id","user_id")
);

-- CreateIndex
CREATE INDEX "challenge_entries_user_id_idx" ON "challenge_entries"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "challenge_entries_challenge_id_user_id_key" ON "challenge_entries"("challenge_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "challenge_entry_items_locked_item_id_key" ON "challenge_entry_items"("locked_item_id");

-- CreateIndex
CREATE INDEX "challenge_entry_items_collectible_id_idx" ON "challenge_entry_items"("collectible_id");

-- CreateIndex
CREATE INDEX "challenge_entry_items_challenge_id_idx" ON "challenge_entry_items"("challenge_id");

-- CreateIndex
CREATE INDEX "challenge_rewards_user_id_idx" ON "challenge_rewards"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "challenge_rewards_challenge_id_rank_key" ON "challenge_rewards"("challenge_id", "rank");

-- AddForeignKey
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_reward_card_id_fkey" FOREIGN KEY ("reward_card_id") REFERENCES "collectible_cards"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_cards" ADD CONSTRAINT "challenge_cards_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_cards" ADD CONSTRAINT "challenge_cards_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "collectible_cards"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_entries" ADD CONSTRAINT "challenge_entries_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_entries" ADD CONSTRAINT "challenge_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_entry_items" ADD CONSTRAINT "challenge_entry_items_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "challenge_entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_entry_items" ADD CONSTRAINT "challenge_entry_items_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_entry_items" ADD CONSTRAINT "challenge_entry_items_collectible_id_fkey" FOREIGN KEY ("collectible_id") REFERENCES "collectibles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_rewards" ADD CONSTRAINT "challenge_rewards_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_rewards" ADD CONSTRAINT "challenge_rewards_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "challenge_rewards" ADD CONSTRAINT "challenge_rewards_collectible_id_fkey" FOREIGN KEY ("collectible_id") REFERENCES "collectibles"("id") ON DELETE SET NULL ON UPDATE CASCADE;
