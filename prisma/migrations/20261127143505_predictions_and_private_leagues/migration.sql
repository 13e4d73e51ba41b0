-- CreateEnum
CREATE TYPE "PredictionOutcome" AS ENUM ('home', 'draw', 'away');

-- CreateTable
CREATE TABLE "predictions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "game_id" TEXT NOT NULL,
    "outcome" "PredictionOutcome" NOT NULL,
    "home_score" INTEGER NOT NULL,
    "away_score" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "points" INTEGER,
    "rep_credited" INTEGER NOT NULL DEFAULT 0,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "predictions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prediction_settlements" (
    "game_id" TEXT NOT NULL,
    "home_score" INTEGER,
    "away_score" INTEGER,
    "starts_at" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "prediction_settlements_pkey" PRIMARY KEY ("game_id")
);

-- CreateTable
CREATE TABLE "private_leagues" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "owner_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "member_count" INTEGER NOT NULL DEFAULT 0,
    "code_rotated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "private_leagues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "private_league_members" (
    "league_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "private_league_members_pkey" PRIMARY KEY ("league_id","user_id")
);

-- CreateIndex
CREATE INDEX "predictions_user_id_id_idx" ON "predictions"("user_id", "id");

-- CreateIndex
CREATE INDEX "predictions_game_id_home_score_away_score_idx" ON "predictions"("game_id", "home_score", "away_score");

-- CreateIndex
CREATE UNIQUE INDEX "predictions_user_id_game_id_key" ON "predictions"("user_id", "game_id");

-- CreateIndex
CREATE UNIQUE INDEX "private_leagues_code_key" ON "private_leagues"("code");

-- CreateIndex
CREATE INDEX "private_leagues_owner_id_idx" ON "private_leagues"("owner_id");

-- CreateIndex
CREATE INDEX "private_league_members_user_id_league_id_idx" ON "private_league_members"("user_id", "league_id");

-- AddForeignKey
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prediction_settlements" ADD CONSTRAINT "prediction_settlements_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "private_leagues" ADD CONSTRAINT "private_leagues_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "private_league_members" ADD CONSTRAINT "private_league_members_league_id_fkey" FOREIGN KEY ("league_id") REFERENCES "private_leagues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "private_league_members" ADD CONSTRAINT "private_league_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Checks Prisma cannot declare.
ALTER TABLE "predictions" ADD CONSTRAINT "predictions_scores_check" CHECK ("home_score" >= 0 AND "away_score" >= 0 AND "rep_credited" >= 0);
ALTER TABLE "private_leagues" ADD CONSTRAINT "private_leagues_member_count_check" CHECK ("member_count" >= 0);
