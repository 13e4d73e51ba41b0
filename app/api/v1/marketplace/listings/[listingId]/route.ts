import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listingParams, listingResponse, repriceBody } from "@/lib/features/marketplace/schemas";
import { cancelListing, getListing, repriceListing } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A listing",
      description:
        "One listing in any state, with the collectible, the seller and, for auctions, the current bid, `minNextBid`, `reserveMet` and `ended`; once sold, the sale (buyer, price, fee).",
      tags: ["Marketplace"],
      auth: "optional",
      params: listingParams,
      response: listingResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => getListing(db, params.listingId),
  ),
  PATCH: route(
    {
      summary: "Reprice my listing",
      description:
        "The seller changes the `price` of an active fixed-price listing (an auction's price is its bids: 409 LISTING_UNAVAILABLE). Carts that added it at the old price refuse to check out (CART_CHANGED) until the line is added again. Another user's listing: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "marketplace",
      params: listingParams,
      body: repriceBody,
      rateLimit: "write",
      response: listingResponse,
      errors: [sharedErrors.NOT_FOUND, marketplaceErrors.LISTING_UNAVAILABLE],
    },
    ({ user, params, body }) => repriceListing(db, user.id, params.listingId, body.price),
  ),
  DELETE: route(
    {
      summary: "Cancel my listing",
      description:
        "The seller withdraws an active listing (an auction only while it has no bid: 409 HAS_BIDS). Another user's listing is 404; one no longer active is 409 LISTING_UNAVAILABLE.",
      tags: ["Marketplace"],
      auth: "bearer",
      params: listingParams,
      rateLimit: "write",
      response: listingResponse,
      errors: [sharedErrors.NOT_FOUND, marketplaceErrors.LISTING_UNAVAILABLE, marketplaceErrors.HAS_BIDS],
    },
    ({ user, params }) => cancelListing(db, user.id, params.listingId),
  ),
});
