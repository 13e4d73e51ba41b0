import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { productsResponse } from "@/lib/features/payments/schemas";
import { listProducts } from "@/lib/features/payments/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Coin bundles on sale",
      description:
        "The coin bundles on sale, cheapest first as staff order them: the coins each credits (COIN minor units), its price in each currency a web top-up can pay in (POST /api/v1/wallet/topups), and the App Store and Google Play product ids of the same bundle in the apps. Read from the database. Coins never expire and are never exchanged back for money.",
      tags: ["Wallet"],
      auth: "optional",
      response: productsResponse,
    },
    () => listProducts(db),
  ),
});
