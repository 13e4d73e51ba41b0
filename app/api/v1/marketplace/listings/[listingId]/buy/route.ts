import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { IDEMPOTENCY_TTL_HOURS } from "@/lib/db/idempotency";
import { FEE_BPS, listingParams, listingResponse } from "@/lib/features/marketplace/schemas";
import { buyListing } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Buy a fixed-price listing",
      description:
        `Buys the listing at its price, in one transaction or not at all: the buyer's wallet is debited (\`purchase\`), the seller credited (\`sale\`) and charged the ${FEE_BPS / 100}% fee (\`fee\`, rounded down), and the collectible moves to the buyer (leaving the seller's binders). ` +
        "However many buyers try at once, one buys; the others get 409 LISTING_UNAVAILABLE and pay nothing. Refusals: 404, 403 CANNOT_BUY_OWN, 409 LISTING_UNAVAILABLE (sold, withdrawn, or an auction), 409 INSUFFICIENT_FUNDS. " +
        `Requires an \`Idempotency-Key\`: a retry replays the first answer (\`Idempotent-Replayed: true\`) for ${IDEMPOTENCY_TTL_HOURS} h. Rate-limited per user (policy money).`,
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "marketplace",
      idempotency: "required",
      params: listingParams,
      bodyRequired: false,
      rateLimit: "money",
      response: listingResponse,
      errors: [
        ...tradingGateErrors,
        sharedErrors.NOT_FOUND,
        marketplaceErrors.CANNOT_BUY_OWN,
        marketplaceErrors.LISTING_UNAVAILABLE,
        walletsErrors.INSUFFICIENT_FUNDS,
        walletsErrors.BALANCE_LIMIT,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, params, idempotency }) => buyListing(db, user.id, params.listingId, idempotency),
  ),
});
