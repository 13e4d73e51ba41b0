import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { bidBody, bidPage, bidResult, listingParams, pageQuery } from "@/lib/marketplace/schemas";
import { listBids, placeBid } from "@/lib/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/marketplace/errors";
import { sharedErrors } from "@/lib/http/errors";
import { errors as accountsErrors } from "@/lib/accounts/errors";
import { errors as moderationErrors } from "@/lib/moderation/errors";
import { errors as walletsErrors } from "@/lib/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "An auction's bids",
      description: "Bids newest first. Keyset: `limit` 1..100 (default 20).",
      tags: ["Marketplace"],
      auth: "optional",
      params: listingParams,
      query: pageQuery,
      response: bidPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params, query }) => listBids(db, params.listingId, query),
  ),
  POST: route(
    {
      summary: "Bid on an auction",
      description:
        "Bids `amount` (minor units): at least the starting price for the first bid, then the current bid plus the increment (409 BID_TOO_LOW with the minimum in details). The amount is held from the bidder's wallet (`hold`); the previous top bid's funds go back (`refund`) and its bidder is notified (OUTBID). Not the seller (403 CANNOT_BUY_OWN), not after the end (409 AUCTION_ENDED). " +
        "When the auction ends, the marketplace cron sells to the top bid if it meets the reserve, else returns its funds. Requires an `Idempotency-Key`. Rate-limited per user (policy money).",
      tags: ["Marketplace"],
      auth: "bearer",
      idempotency: "required",
      params: listingParams,
      body: bidBody,
      rateLimit: "money",
      status: 201,
      response: bidResult,
      errors: [
        moderationErrors.TRADING_RESTRICTED,
        accountsErrors.ACCOUNT_DELETION_PENDING,
        walletsErrors.WALLET_FROZEN,
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
    ({ user, params, body, idempotency }) => placeBid(db, user.id, params.listingId, body.amount, idempotency),
  ),
});
