-- Proxy bids: a bid's maximum, which it holds (earlier bids held their amount: that is their maximum).
ALTER TABLE "bids" ADD COLUMN "max_amount" BIGINT;
UPDATE "bids" SET "max_amount" = "amount";
ALTER TABLE "bids" ALTER COLUMN "max_amount" SET NOT NULL;
