-- AlterTable
ALTER TABLE "coin_purchases" ADD COLUMN     "flag" TEXT;

-- The reason a fan could not buy coins when the purchase was credited (lib/payments creditPurchase).
ALTER TABLE "coin_purchases" ADD CONSTRAINT "coin_purchases_flag" CHECK ("flag" IN ('TRADING_RESTRICTED', 'ACCOUNT_DELETION_PENDING'));
