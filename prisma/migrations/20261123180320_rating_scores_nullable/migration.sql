-- AlterTable
ALTER TABLE "game_rating_scores" ALTER COLUMN "score" DROP NOT NULL;
