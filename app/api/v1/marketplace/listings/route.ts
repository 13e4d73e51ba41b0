import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { createListingBody, listingPage, listingResponse, listingsQuery } from "@/lib/features/marketplace/schemas";
import { browseListings, createListing } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as challengesErrors } from "@/lib/features/challenges/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Browse listings",
      description:
        "Listings (default: active), filtered by `kind`, `teamId`, `playerId`, `rarity`, `sellerId` and a price range (`minPrice`, `maxPrice`, minor units; an auction's price is its current bid). `sort=newest` (default, newest first) or `price` (cheapest first, then oldest). Keyset: `limit` 1..50 (default 20), `nextCursor` back as `cursor` with the same filters and sort. " +
        "Signed out, the answer may be up to a second old (a server shares one answer per query among anonymous callers for `ANONYMOUS_CACHE_TTL_MS`, 1 s); buying a listing that just sold answers 409 as always. Signed-in callers always read fresh.",
      tags: ["Marketplace"],
      auth: "optional",
      anonymousCache: true,
      query: listingsQuery,
      response: listingPage,
    },
    ({ query }) => browseListings(db, query),
  ),
  POST: route(
    {
      summary: "List a collectible",
      description:
        "Lists a collectible the caller owns: `kind: fixed` with a `price`, or `kind: auction` with a `startingPrice`, an optional undisclosed `reservePrice`, a `minIncrement` (default 1% of the start, at least 1.00) and `endsAt` (1 hour to 14 days ahead). A listed item is locked: it cannot be listed again (409 ALREADY_LISTED) and, while in an auction, cannot change hands outside it. An item minted to a wallet, or whose mint is queued or running, cannot be listed (409 ITEM_MINTED), nor an item in an entry of a collection challenge that has not ended (409 ITEM_LOCKED, naming the challenge). Users who wishlisted the item or its card are notified (WISHLIST_LISTED). Someone else's or an unknown collectible: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "marketplace",
      body: createListingBody,
      rateLimit: "write",
      status: 201,
      response: listingResponse,
      errors: [...tradingGateErrors, sharedErrors.NOT_FOUND, marketplaceErrors.ALREADY_LISTED, marketplaceErrors.ITEM_MINTED, challengesErrors.ITEM_LOCKED],
    },
    ({ user, body }) => createListing(db, user.id, body),
  ),
});
