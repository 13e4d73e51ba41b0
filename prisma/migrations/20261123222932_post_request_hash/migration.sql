-- AlterTable
ALTER TABLE "posts" ADD COLUMN     "request_hash" TEXT;
