import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { tradeParams, tradeResponse } from "@/lib/features/marketplace/trade-schemas";
import { acceptTrade } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Accept a trade",
      description:
        "The recipient accepts an open trade or gift, in one transaction locking the trade, its items (in id order), their listings and both wallets (in user-id order), then re-checking everything: each offered item still the proposer's and each asked item the recipient's, none listed or in an auction, none minted or being minted, none locked in a collection challenge's entry, neither wallet frozen nor the proposer barred from trading, the asked coins affordable. " +
        "If all hold, the items change hands (owner history reason `trade`, or `gift`) and the coins with them: the held offered coins go to the recipient, the asked coins from the recipient to the proposer, and each coin leg pays the 5% marketplace fee (rounded down) from the side receiving it; items for items pay none. " +
        "If one fails, nothing moves: the trade becomes `void` with the reason, the proposer's held coins go back, and the answer is 409 with that reason's code (TRADE_ITEM_GONE, TRADE_ITEM_LISTED, TRADE_ITEM_MINTED, TRADE_ITEM_LOCKED, TRADE_FUNDS_SHORT, TRADE_WALLET_FROZEN). " +
        "The proposer is notified either way (TRADE_UPDATE). A wallet credit past the wallet ceiling is 409 BALANCE_LIMIT and leaves the trade open. Closed or expired: 409 TRADE_CLOSED; the proposer: 403; anyone else: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "trades",
      params: tradeParams,
      bodyRequired: false,
      rateLimit: "money",
      response: tradeResponse,
      errors: [
        ...tradingGateErrors,
        sharedErrors.NOT_FOUND,
        sharedErrors.FORBIDDEN,
        marketplaceErrors.TRADE_CLOSED,
        marketplaceErrors.TRADE_ITEM_GONE,
        marketplaceErrors.TRADE_ITEM_LISTED,
        marketplaceErrors.TRADE_ITEM_MINTED,
        marketplaceErrors.TRADE_ITEM_LOCKED,
        marketplaceErrors.TRADE_FUNDS_SHORT,
        marketplaceErrors.TRADE_WALLET_FROZEN,
        walletsErrors.BALANCE_LIMIT,
      ],
    },
    ({ user, params }) => acceptTrade(db, user.id, params.tradeId),
  ),
});
