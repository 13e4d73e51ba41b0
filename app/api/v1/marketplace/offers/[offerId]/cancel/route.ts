import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { offerParams, offerResponse } from "@/lib/features/marketplace/schemas";
import { cancelOffer } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Cancel my offer",
      description:
        "The buyer withdraws an open offer: its held funds go back to their wallet. Closed or expired: 409 OFFER_CLOSED; the owner: 403; anyone else: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      params: offerParams,
      bodyRequired: false,
      rateLimit: "write",
      response: offerResponse,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN, marketplaceErrors.OFFER_CLOSED, walletsErrors.BALANCE_LIMIT],
    },
    ({ user, params }) => cancelOffer(db, user.id, params.offerId),
  ),
});
