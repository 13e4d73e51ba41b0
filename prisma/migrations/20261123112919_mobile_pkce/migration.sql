-- AlterTable
ALTER TABLE "mobile_session_tokens" ADD COLUMN     "code_challenge" TEXT;
