-- CreateTable
CREATE TABLE "leaderboard_season_closings" (
    "season_id" TEXT NOT NULL,
    "closed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leaderboard_season_closings_pkey" PRIMARY KEY ("season_id")
);

-- CreateTable
CREATE TABLE "leaderboard_winners" (
    "season_id" TEXT NOT NULL,
    "board" TEXT NOT NULL,
    "rank" INTEGER NOT NULL,
    "user_id" UUID NOT NULL,
    "points" INTEGER NOT NULL,
    "reached_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "leaderboard_winners_pkey" PRIMARY KEY ("season_id","board","user_id")
);

-- CreateIndex
CREATE INDEX "leaderboard_winners_board_season_id_rank_idx" ON "leaderboard_winners"("board", "season_id", "rank");

-- AddForeignKey
ALTER TABLE "leaderboard_winners" ADD CONSTRAINT "leaderboard_winners_season_id_fkey" FOREIGN KEY ("season_id") REFERENCES "leaderboard_season_closings"("season_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leaderboard_winners" ADD CONSTRAINT "leaderboard_winners_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
