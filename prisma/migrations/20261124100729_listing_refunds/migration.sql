-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "refunded_at" TIMESTAMPTZ(3);
