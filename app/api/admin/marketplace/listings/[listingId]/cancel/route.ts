import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listingParams, listingResponse } from "@/lib/marketplace/schemas";
import { cancelListing } from "@/lib/marketplace/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Cancel a listing (staff)",
      description: "Withdraws any active listing; an auction's top bid gets its held funds back. Not active: 409 LISTING_UNAVAILABLE.",
      tags: ["Admin"],
      auth: "admin",
      params: listingParams,
      bodyRequired: false,
      rateLimit: "write",
      response: listingResponse,
      errors: ["NOT_FOUND", "LISTING_UNAVAILABLE", "BALANCE_LIMIT"],
    },
    ({ params }) => cancelListing(db, null, params.listingId),
  ),
});
