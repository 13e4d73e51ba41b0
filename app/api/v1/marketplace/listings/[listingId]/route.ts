import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listingParams, listingResponse } from "@/lib/marketplace/schemas";
import { cancelListing, getListing } from "@/lib/marketplace/service";

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
      errors: ["NOT_FOUND"],
    },
    ({ params }) => getListing(db, params.listingId),
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
      errors: ["NOT_FOUND", "LISTING_UNAVAILABLE", "HAS_BIDS"],
    },
    ({ user, params }) => cancelListing(db, user.id, params.listingId),
  ),
});
