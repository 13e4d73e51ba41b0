import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { offerParams, offerResponse } from "@/lib/features/marketplace/schemas";
import { declineOffer } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Decline an offer",
      description:
        "The item's owner declines an open offer: its held funds go back to the buyer, who is notified (OFFER_UPDATE). Closed or expired: 409 OFFER_CLOSED; the buyer: 403; anyone else: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      params: offerParams,
      bodyRequired: false,
      rateLimit: "write",
      response: offerResponse,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN, marketplaceErrors.OFFER_CLOSED, walletsErrors.BALANCE_LIMIT],
    },
    ({ user, params }) => declineOffer(db, user.id, params.offerId),
  ),
});
