import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cart } from "@/lib/features/marketplace/schemas";
import { getCart } from "@/lib/features/marketplace/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My cart",
      description:
        "The caller's cart lines in the order added, each with the price when added, the listing now, `available` and `priceChanged`; `total` sums the available lines.",
      tags: ["Marketplace"],
      auth: "bearer",
      response: cart,
    },
    ({ user }) => getCart(db, user.id),
  ),
});
