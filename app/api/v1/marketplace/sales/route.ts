import { readMayLag } from "@/lib/db/replica";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { allSalesQuery, salePage } from "@/lib/core/market-data/schemas";
import { listSales } from "@/lib/core/market-data/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Recent sales",
      description:
        "Every sale on the marketplace, newest first (optionally of one `cardId`): listings bought and offers accepted, with the price the buyer paid; `refunded` when staff reversed it. Keyset: `limit` 1..100 (default 20).",
      tags: ["Marketplace"],
      auth: "optional",
      query: allSalesQuery,
      response: salePage,
    },
    ({ query, user }) => readMayLag(user?.id ?? null, (db) => listSales(db, query)),
  ),
});
