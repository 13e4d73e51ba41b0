import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { GIFT_NOMINAL_COINS, tradeBody, tradePage, tradeResponse, tradesQuery } from "@/lib/features/marketplace/trade-schemas";
import { listTrades, proposeTrade } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My trades",
      description:
        "`role=sent` (default): trades and gifts the caller proposed; `received`: proposed to the caller. Optionally by `status` (open, accepted, declined, cancelled, expired, void, countered). Newest first, keyset.",
      tags: ["Marketplace"],
      auth: "bearer",
      query: tradesQuery,
      response: tradePage,
    },
    ({ user, query }) => listTrades(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Propose a trade or a gift",
      description:
        "Proposes to `recipientId` the caller's `offeredItems` and `offerCoins` for the recipient's `askedItems` and `askCoins` (each optional; something must be offered), open for `expiresInHours` (default 72, 1..168), with an optional `message`. " +
        "The offered coins are held from the caller's wallet (`hold`) until the trade closes: accepted (they pay), declined, cancelled, countered, void or expired (refunded); the asked coins are paid by the recipient when they accept. " +
        "A trade asking nothing back is a gift: the recipient still accepts it, and each sender may send 20 gifts an hour (policy `gifts`, 429 past it). " +
        `A trade for a nominal price counts as a gift against that limit (\`gift\` stays false): one with a side that gives no items and, net of the coins it gets, fewer than ${GIFT_NOMINAL_COINS} minor units, as a card for 1 coin, a card asked for 1 coin, or coins for fewer coins. ` +
        "Every offered item must be the caller's and every asked item the recipient's (409 TRADE_ITEM_GONE), none listed or in an auction (409 TRADE_ITEM_LISTED), none minted or being minted (409 TRADE_ITEM_MINTED), none in an entry of a collection challenge that has not ended (409 TRADE_ITEM_LOCKED, naming the challenge); details name each item. " +
        "400 for a trade with oneself, nothing offered, an item listed twice or on both sides, or one's own item asked for. A recipient who refuses the caller (their offer settings) or a block either way: 409 REFUSED_BY_USER. " +
        "Items are not reserved: accepting re-checks everything. The recipient is notified (TRADE_UPDATE). Requires an `Idempotency-Key`. Rate-limited per user (policy money).",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "trades",
      idempotency: "required",
      body: tradeBody,
      rateLimit: "money",
      status: 201,
      response: tradeResponse,
      errors: [
        ...tradingGateErrors,
        sharedErrors.NOT_FOUND,
        marketplaceErrors.REFUSED_BY_USER,
        marketplaceErrors.TRADE_ITEM_GONE,
        marketplaceErrors.TRADE_ITEM_LISTED,
        marketplaceErrors.TRADE_ITEM_MINTED,
        marketplaceErrors.TRADE_ITEM_LOCKED,
        walletsErrors.INSUFFICIENT_FUNDS,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, body, idempotency }) => proposeTrade(db, user.id, body, idempotency),
  ),
});
