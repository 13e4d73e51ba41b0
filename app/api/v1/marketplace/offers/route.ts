import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { offerBody, offerPage, offerResponse, offersQuery } from "@/lib/features/marketplace/schemas";
import { listOffers, makeOffer } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My offers",
      description:
        "`role=made` (default): offers the caller made; `received`: offers on items the caller owns now. Optionally by `status`. Newest first, keyset.",
      tags: ["Marketplace"],
      auth: "bearer",
      query: offersQuery,
      response: offerPage,
    },
    ({ user, query }) => listOffers(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Make an offer",
      description:
        "Offers `amount` for a collectible, listed or not, open for `expiresInHours` (default 72). The amount is held from the caller's wallet (`hold`) until the offer closes: accepted (it pays), declined, cancelled or expired (refunded). One open offer per buyer and item (409 OFFER_EXISTS); not on one's own item (403 CANNOT_BUY_OWN); not below the owner's minimum for the card (409 OFFER_BELOW_MINIMUM, GET/PUT /api/v1/marketplace/offer-settings), nor from a user the owner refuses or a block either way (409 REFUSED_BY_USER); not on an item minted to a wallet or whose mint is under way (409 ITEM_MINTED). Requires an `Idempotency-Key`. Rate-limited per user (policy money).",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "marketplace",
      idempotency: "required",
      body: offerBody,
      rateLimit: "money",
      status: 201,
      response: offerResponse,
      errors: [
        ...tradingGateErrors,
        sharedErrors.NOT_FOUND,
        marketplaceErrors.CANNOT_BUY_OWN,
        marketplaceErrors.OFFER_EXISTS,
        marketplaceErrors.REFUSED_BY_USER,
        marketplaceErrors.OFFER_BELOW_MINIMUM,
        marketplaceErrors.ITEM_MINTED,
        walletsErrors.INSUFFICIENT_FUNDS,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, body, idempotency }) => makeOffer(db, user.id, body, idempotency),
  ),
});
