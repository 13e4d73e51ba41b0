import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { offerParams, offerResponse } from "@/lib/features/marketplace/schemas";
import { acceptOffer } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { errors as challengesErrors } from "@/lib/features/challenges/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Accept an offer",
      description:
        "The item's owner accepts an open offer: it settles like a sale with the buyer's held funds (the owner is credited the amount minus the fee, the item moves to the buyer), withdrawing a fixed-price listing of the item; an item in a running auction cannot (409 ITEM_IN_AUCTION), nor an item the owner minted (or is minting) to a wallet since the offer was made (409 ITEM_MINTED; the offer stays open until the buyer cancels or it expires), nor an item in an entry of a collection challenge that has not ended (409 ITEM_LOCKED, naming the challenge; the offer stays open). A buyer who can no longer trade (restricted from trading, deletion pending, or a wallet frozen by a refunded top-up) does not get the item: the offer is cancelled, the buyer's held funds go back, and the answer is 409 OFFER_BUYER_CANNOT_TRADE (which reason is not said). The buyer is notified (OFFER_UPDATE). Closed or expired: 409 OFFER_CLOSED; the buyer: 403; anyone else: 404.",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "marketplace",
      params: offerParams,
      bodyRequired: false,
      rateLimit: "money",
      response: offerResponse,
      errors: [
        ...tradingGateErrors,
        sharedErrors.NOT_FOUND,
        sharedErrors.FORBIDDEN,
        marketplaceErrors.OFFER_CLOSED,
        marketplaceErrors.OFFER_BUYER_CANNOT_TRADE,
        marketplaceErrors.ITEM_IN_AUCTION,
        marketplaceErrors.ITEM_MINTED,
        challengesErrors.ITEM_LOCKED,
        walletsErrors.BALANCE_LIMIT,
      ],
    },
    ({ user, params }) => acceptOffer(db, user.id, params.offerId),
  ),
});
