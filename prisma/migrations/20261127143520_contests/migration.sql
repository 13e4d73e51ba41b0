-- CreateTable
CREATE TABLE "contests" (
    "id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "lineup_size" INTEGER NOT NULL,
    "slots" TEXT[],
    "rarity_cap" JSONB NOT NULL DEFAULT '{}',
    "lock_at" TIMESTAMPTZ(3) NOT NULL,
    "captain_multiplier" INTEGER NOT NULL DEFAULT 2,
    "prizes" INTEGER[],
    "settled_at" TIMESTAMPTZ(3),
    "settled_version" INTEGER NOT NULL DEFAULT 0,
    "settled_on" TEXT,
    "lineup_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contest_games" (
    "contest_id" UUID NOT NULL,
    "game_id" TEXT NOT NULL,

    CONSTRAINT "contest_games_pkey" PRIMARY KEY ("contest_id","game_id")
);

-- CreateTable
CREATE TABLE "contest_lineups" (
    "id" UUID NOT NULL,
    "contest_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "captain_id" UUID NOT NULL,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "score" INTEGER,
    "captain_score" INTEGER,
    "rank" INTEGER,
    "prize_paid" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "contest_lineups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contest_lineup_cards" (
    "lineup_id" UUID NOT NULL,
    "collectible_id" UUID NOT NULL,
    "contest_id" UUID NOT NULL,
    "slot" INTEGER NOT NULL,
    "player_id" TEXT NOT NULL,
    "locked_item_id" UUID,
    "void" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "contest_lineup_cards_pkey" PRIMARY KEY ("lineup_id","collectible_id")
);

-- CreateIndex
CREATE INDEX "contests_settled_at_lock_at_idx" ON "contests"("settled_at", "lock_at");

-- CreateIndex
CREATE INDEX "contest_games_game_id_idx" ON "contest_games"("game_id");

-- CreateIndex
CREATE INDEX "contest_lineups_contest_id_rank_idx" ON "contest_lineups"("contest_id", "rank");

-- CreateIndex
CREATE INDEX "contest_lineups_user_id_idx" ON "contest_lineups"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "contest_lineups_contest_id_user_id_key" ON "contest_lineups"("contest_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "contest_lineup_cards_locked_item_id_key" ON "contest_lineup_cards"("locked_item_id");

-- CreateIndex
CREATE INDEX "contest_lineup_cards_collectible_id_idx" ON "contest_lineup_cards"("collectible_id");

-- CreateIndex
CREATE INDEX "contest_lineup_cards_contest_id_player_id_idx" ON "contest_lineup_cards"("contest_id", "player_id");

-- CreateIndex
CREATE UNIQUE INDEX "contest_lineup_cards_lineup_id_slot_key" ON "contest_lineup_cards"("lineup_id", "slot");

-- AddForeignKey
ALTER TABLE "contest_games" ADD CONSTRAINT "contest_games_contest_id_fkey" FOREIGN KEY ("contest_id") REFERENCES "contests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contest_games" ADD CONSTRAINT "contest_games_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contest_lineups" ADD CONSTRAINT "contest_lineups_contest_id_fkey" FOREIGN KEY ("contest_id") REFERENCES "contests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contest_lineups" ADD CONSTRAINT "contest_lineups_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contest_lineup_cards" ADD CONSTRAINT "contest_lineup_cards_lineup_id_fkey" FOREIGN KEY ("lineup_id") REFERENCES "contest_lineups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contest_lineup_cards" ADD CONSTRAINT "contest_lineup_cards_contest_id_fkey" FOREIGN KEY ("contest_id") REFERENCES "contests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contest_lineup_cards" ADD CONSTRAINT "contest_lineup_cards_collectible_id_fkey" FOREIGN KEY ("collectible_id") REFERENCES "collectibles"("id") ON DELETE CASCADE ON UPDATE CASCADE;
