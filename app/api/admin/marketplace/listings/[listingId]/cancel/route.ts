import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listingParams, listingResponse } from "@/lib/features/marketplace/schemas";
import { cancelListingAsStaff } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Cancel a listing (staff)",
      description: "Withdraws any active listing; an auction's top bid gets its held funds back. Not active: 409 LISTING_UNAVAILABLE.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      params: listingParams,
      bodyRequired: false,
      rateLimit: "write",
      response: listingResponse,
      errors: [sharedErrors.NOT_FOUND, marketplaceErrors.LISTING_UNAVAILABLE, walletsErrors.BALANCE_LIMIT],
    },
    ({ user, params, requestId }) => cancelListingAsStaff(db, params.listingId, apiActor(user, requestId)),
  ),
});
