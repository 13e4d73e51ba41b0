-- Money and Rep are int8. Wallet balances, ledger amounts, prices, bids, offers, fees, pack and reward prices, the
-- Rep ledger and the totals kept from it were int4: a balance past 2,147,483,647 minor units failed the statement.
-- The CHECK constraints on these columns (non-negative, non-zero, positive) carry over as they are; no view,
-- function or trigger reads them. The app reads every one of them as a JS number (lib/db/raw.ts: int8), exact
-- below 2^53: a wallet's credits stop at its ceiling (WALLET_BALANCE_MAX, 10^15, lib/wallets/queries.ts), and the
-- CHECK below keeps any balance, refunds included, a safe integer.

-- AlterTable
ALTER TABLE "rewards" ALTER COLUMN "cost_rep" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "reward_claims" ALTER COLUMN "cost_rep" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "packs" ALTER COLUMN "price_rep" SET DATA TYPE BIGINT,
ALTER COLUMN "price" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "pack_purchases" ALTER COLUMN "price" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "collectible_transfers" ALTER COLUMN "price" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "wallets" ALTER COLUMN "balance" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "wallet_transactions" ALTER COLUMN "amount" SET DATA TYPE BIGINT,
ALTER COLUMN "balance_after" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "leaderboard_winners" ALTER COLUMN "points" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "listings" ALTER COLUMN "price" SET DATA TYPE BIGINT,
ALTER COLUMN "starting_price" SET DATA TYPE BIGINT,
ALTER COLUMN "reserve_price" SET DATA TYPE BIGINT,
ALTER COLUMN "min_increment" SET DATA TYPE BIGINT,
ALTER COLUMN "sale_price" SET DATA TYPE BIGINT,
ALTER COLUMN "fee" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "bids" ALTER COLUMN "amount" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "offers" ALTER COLUMN "amount" SET DATA TYPE BIGINT,
ALTER COLUMN "fee" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "cart_items" ALTER COLUMN "price" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "quests" ALTER COLUMN "rep_reward" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "quest_progress" ALTER COLUMN "rep_awarded" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "quiz_sessions" ALTER COLUMN "rep_awarded" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "rep_entries" ALTER COLUMN "amount" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "team_members" ALTER COLUMN "points" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "users" ALTER COLUMN "rep_balance" SET DATA TYPE BIGINT,
ALTER COLUMN "quest_points" SET DATA TYPE BIGINT,
ALTER COLUMN "rep_earned_club" SET DATA TYPE BIGINT,
ALTER COLUMN "rep_earned_fan_amp" SET DATA TYPE BIGINT,
ALTER COLUMN "rep_earned_player_amp" SET DATA TYPE BIGINT,
ALTER COLUMN "rep_earned_service_direct" SET DATA TYPE BIGINT,
ALTER COLUMN "rep_spent" SET DATA TYPE BIGINT;

-- Rules Prisma cannot declare: no balance a JS number cannot hold exactly (Number.MAX_SAFE_INTEGER = 2^53 - 1).
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_balance_safe_integer" CHECK ("balance" <= 9007199254740991);
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_balance_after_safe_integer" CHECK ("balance_after" <= 9007199254740991);
