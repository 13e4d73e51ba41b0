-- AlterTable
ALTER TABLE "coin_purchases" ADD COLUMN     "dispute_won_at" TIMESTAMPTZ(3);
