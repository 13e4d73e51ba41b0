import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { checkoutResult } from "@/lib/features/marketplace/schemas";
import { checkout } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as walletsErrors } from "@/lib/core/wallets/errors";
import { errors as challengesErrors } from "@/lib/features/challenges/errors";
import { tradingGateErrors } from "@/lib/features/moderation/sanctions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Check out my cart",
      description:
        "Buys every line of the cart at the price it was added, all or none: each listing is re-checked under its lock, and a line sold, withdrawn or repriced since is 409 CART_CHANGED naming it (`lines.<listingId>`) with nothing bought; a balance short of the total is 409 INSUFFICIENT_FUNDS; an item locked in a collection challenge's entry (which a listed item never is: entries refuse listed items and listing refuses locked ones) is 409 ITEM_LOCKED. Each line settles like a single purchase (debit, seller credit minus fee, ownership). Bought lines leave the cart. Requires an `Idempotency-Key`. Rate-limited per user (policy money).",
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "marketplace",
      idempotency: "required",
      bodyRequired: false,
      rateLimit: "money",
      response: checkoutResult,
      errors: [
        ...tradingGateErrors,
        sharedErrors.VALIDATION_ERROR,
        marketplaceErrors.CART_EMPTY,
        marketplaceErrors.CART_CHANGED,
        challengesErrors.ITEM_LOCKED,
        walletsErrors.INSUFFICIENT_FUNDS,
        walletsErrors.BALANCE_LIMIT,
        sharedErrors.IDEMPOTENCY_KEY_REUSED,
      ],
    },
    ({ user, idempotency }) => checkout(db, user.id, idempotency),
  ),
});
