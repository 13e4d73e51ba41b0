import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { bidBody, bidPage, bidResult, listingParams, pageQuery } from "@/lib/features/marketplace/schemas";
import { listBids, placeBid } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "An auction's bids",
      description:
        "Bids newest first. `amount` is what each bid stands at (the leading bid at the auction's price, a beaten one at its maximum); `maxAmount` only on the caller's own bids (null otherwise). Keyset: `limit` 1..100 (default 20).",
      tags: ["Marketplace"],
      auth: "optional",
      params: listingParams,
      query: pageQuery,
      response: bidPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => listBids(db, params.listingId, query, user?.id ?? null),
  ),
  POST: route(
    {
      summary: "Bid on an auction",
      description:
        "Bids `amount` (minor units): at least the listing's `minNextBid` (the starting price for the first bid, then the current price plus the increment; 409 BID_TOO_LOW with the minimum in details), " +
        "up to an optional `maxAmount` (a proxy bid; default the amount; below the amount is 400). The maximum is held from the bidder's wallet (`hold`), so an automatic raise never lacks funds. " +
        "Proxy rule: the higher maximum leads, at the other maximum plus the increment, capped at its own maximum (and at least its `amount`); equal maxima go to the earlier bid; a leader whose maximum meets the reserve stands at least at the reserve. " +
        "A bid that does not beat the leader's maximum raises the leader automatically and is refunded at once (`leading: false`, no notification); a displaced leader's hold goes back (`refund`) with one OUTBID notification. A leader's maximum is never shown to others. " +
        "Soft close: a bid in the last `AUCTION_SOFT_CLOSE_MINUTES` (default 2) moves `endsAt` to now plus that many minutes. Not the seller (403 CANNOT_BUY_OWN), not after the end (409 AUCTION_ENDED). " +
        "When the auction ends, the marketplace cron sells to the leader at the price if it meets the reserve (the rest of their maximum goes back), else returns its funds. Requires an `Idempotency-Key`. Rate-limited per user (policy money).",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "marketplace",
      idempotency: "required",
      params: listingParams,
      body: bidBody,
      rateLimit: "money",
      status: 201,
      response: bidResult,
      errors: [
        ...tradingGateErrors,
        sharedErrors.NOT_FOUND,
        marketplaceErrors.CANNOT_BUY_OWN,
        marketplaceErrors.LISTING_UNAVAILABLE,
        marketplaceErrors.AUCTION_ENDED,
        marketplaceErrors.BID_TOO_LOW,
        walletsErrors.INSUFFICIENT_FUNDS,
        walletsErrors.BALANCE_LIMIT,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, params, body, idempotency }) => placeBid(db, user.id, params.listingId, body.amount, idempotency, body.maxAmount),
  ),
});
