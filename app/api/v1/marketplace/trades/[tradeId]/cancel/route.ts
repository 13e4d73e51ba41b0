import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { tradeParams, tradeResponse } from "@/lib/features/marketplace/trade-schemas";
import { cancelTrade } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Cancel a trade",
      description:
        "The proposer withdraws an open trade or gift: their held coins go back. Closed or expired: 409 TRADE_CLOSED; the recipient: 403; anyone else: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      params: tradeParams,
      bodyRequired: false,
      rateLimit: "write",
      response: tradeResponse,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN, marketplaceErrors.TRADE_CLOSED, walletsErrors.BALANCE_LIMIT],
    },
    ({ user, params }) => cancelTrade(db, user.id, params.tradeId),
  ),
});
