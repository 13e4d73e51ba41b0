import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listingParams, listingResponse } from "@/lib/features/marketplace/schemas";
import { refundSale } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { errors as challengesErrors } from "@/lib/features/challenges/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Refund a sale (staff)",
      description:
        "Reverses a sale with compensating transactions, once: the buyer is credited the price (`refund`), the seller debited what they were paid net of the fee (`refund`), and the item returns to the seller (owner history reason `staff`); the ledger rows carry the staff member's id. Nothing is edited or deleted. Refused, changing nothing: not a sale or already refunded (409 LISTING_UNAVAILABLE), the buyer no longer owns the item (409 LISTING_UNAVAILABLE), the seller's balance is short (409 INSUFFICIENT_FUNDS), the buyer minted the item to a wallet (409 ITEM_MINTED), the buyer put it in an entry of a collection challenge that has not ended (409 ITEM_LOCKED).",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "economy",
      params: listingParams,
      bodyRequired: false,
      rateLimit: "money",
      response: listingResponse,
      errors: [
        sharedErrors.NOT_FOUND,
        marketplaceErrors.LISTING_UNAVAILABLE,
        walletsErrors.INSUFFICIENT_FUNDS,
        marketplaceErrors.ITEM_MINTED,
        challengesErrors.ITEM_LOCKED,
        walletsErrors.BALANCE_LIMIT,
      ],
    },
    ({ user, params, requestId }) => refundSale(db, params.listingId, apiActor(user, requestId)),
  ),
});
