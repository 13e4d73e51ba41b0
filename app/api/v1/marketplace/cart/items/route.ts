import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cart, cartAddBody, CART_MAX_LINES } from "@/lib/features/marketplace/schemas";
import { addToCart } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Add a listing to my cart",
      description: `Adds an active fixed-price listing at its current price (adding it again changes nothing); at most ${CART_MAX_LINES} lines (409 CART_FULL). Not one's own (403 CANNOT_BUY_OWN). Answers the cart.`,
      tags: ["Marketplace"],
      auth: "bearer",
      feature: "marketplace",
      body: cartAddBody,
      rateLimit: "write",
      response: cart,
      errors: [sharedErrors.NOT_FOUND, marketplaceErrors.LISTING_UNAVAILABLE, marketplaceErrors.CANNOT_BUY_OWN, marketplaceErrors.CART_FULL],
    },
    ({ user, body }) => addToCart(db, user.id, body.listingId),
  ),
});
