import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { reply } from "@/lib/http/reply";
import { pageQuery, wishlistBody, wishlistPage, wishlistResponse } from "@/lib/features/marketplace/schemas";
import { addWish, listWishes } from "@/lib/features/marketplace/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My wishlist",
      description:
        "Wishlisted items newest first, each with the cheapest active listing of it now (any copy, for a card). Keyset: `limit` 1..100 (default 20).",
      tags: ["Marketplace"],
      auth: "bearer",
      query: pageQuery,
      response: wishlistPage,
    },
    ({ user, query }) => listWishes(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Add to my wishlist",
      description:
        "Body: either `listingId` (the listing's collectible), or both `itemType` (`card`: any copy of a catalog card; `collectible`: one copy) and `itemId`; anything else is a 400 naming the fields. 201 with the new entry; 200 with the existing one when it was there. When a wishlisted item (or any copy of a wishlisted card) is listed, the user is notified (WISHLIST_LISTED). Unknown listing, card or collectible: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      body: wishlistBody,
      rateLimit: "write",
      status: 201,
      responses: { 200: { description: "Already on the wishlist: the existing entry.", schema: wishlistResponse } },
      response: wishlistResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    async ({ user, body }) => {
      const { created, item } = await addWish(db, user.id, body);
      return reply({ item }, { status: created ? 201 : 200 });
    },
  ),
});
