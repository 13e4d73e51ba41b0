import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { counterBody, counterResponse, tradeParams } from "@/lib/features/marketplace/trade-schemas";
import { counterTrade } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Counter a trade",
      description:
        "The recipient answers an open trade with a proposal of their own to its proposer, the sides swapped: `offeredItems` and `offerCoins` are now the caller's, `askedItems` and `askCoins` the old proposer's, with the same rules and errors as proposing (POST /api/v1/marketplace/trades). " +
        "In one transaction under the old trade's lock, the old trade closes as `countered` (its held coins back to its proposer, `counteredById` set) and the new one opens (`counterOfId` set, the caller's offered coins held): a concurrent accept, decline or second counter of the old trade finds it closed (409 TRADE_CLOSED). " +
        "The old proposer is notified (TRADE_UPDATE). Answers both trades. Requires an `Idempotency-Key`. Closed or expired: 409 TRADE_CLOSED; the proposer: 403; anyone else: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "trades",
      params: tradeParams,
      idempotency: "required",
      body: counterBody,
      rateLimit: "money",
      status: 201,
      response: counterResponse,
      errors: [
        ...tradingGateErrors,
        sharedErrors.NOT_FOUND,
        sharedErrors.FORBIDDEN,
        marketplaceErrors.TRADE_CLOSED,
        marketplaceErrors.REFUSED_BY_USER,
        marketplaceErrors.TRADE_ITEM_GONE,
        marketplaceErrors.TRADE_ITEM_LISTED,
        marketplaceErrors.TRADE_ITEM_MINTED,
        marketplaceErrors.TRADE_ITEM_LOCKED,
        walletsErrors.INSUFFICIENT_FUNDS,
        walletsErrors.BALANCE_LIMIT,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, params, body, idempotency }) => counterTrade(db, user.id, params.tradeId, body, idempotency),
  ),
});
