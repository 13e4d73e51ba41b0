import { z } from "zod";
import { TRADE_STATUSES } from "@/lib/features/marketplace/trade-schemas";

// What the market page and its actions share: the forms' schemas and the result codes' messages.

export const voidForm = z.object({
  tradeId: z.string().uuid(),
  reason: z.string().trim().min(3).max(300),
});

export const tradeStatusFilter = z.enum(TRADE_STATUSES).optional().catch(undefined);

export const MARKET_ERRORS: Record<string, string> = {
  tradeId: "That is not a trade id.",
  reason: "Say why the trade is voided (3-300 characters): the fans may ask.",
  TRADE_CLOSED: "That trade is no longer open.",
  NOT_FOUND: "There is no such trade.",
};

export const MARKET_DONE: Record<string, string> = {
  voided: "Trade voided: the coins offered went back to the proposer, who was told.",
};
