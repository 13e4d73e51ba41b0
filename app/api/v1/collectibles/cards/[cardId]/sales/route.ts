import { readMayLag } from "@/lib/db/replica";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cardParams, salePage, salesQuery } from "@/lib/core/market-data/schemas";
import { listSales } from "@/lib/core/market-data/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A card's sales",
      description:
        "Every sale of a copy of the card, newest first: listings bought (fixed price, checkout, auction) and offers accepted, with the price the buyer paid; `refunded` when staff reversed it. Keyset: `limit` 1..100 (default 20). Unknown card: 404.",
      tags: ["Collectibles"],
      auth: "optional",
      params: cardParams,
      query: salesQuery,
      response: salePage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params, query, user }) => readMayLag(user?.id ?? null, (db) => listSales(db, { ...query, cardId: params.cardId }, true)),
  ),
});
