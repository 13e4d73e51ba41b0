import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cart, cartLineParams } from "@/lib/features/marketplace/schemas";
import { removeFromCart } from "@/lib/features/marketplace/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "Remove a line from my cart",
      description: "Removes the listing's line (removing an absent line changes nothing). Answers the cart.",
      tags: ["Marketplace"],
      auth: "bearer",
      params: cartLineParams,
      rateLimit: "write",
      response: cart,
    },
    ({ user, params }) => removeFromCart(db, user.id, params.listingId),
  ),
});
