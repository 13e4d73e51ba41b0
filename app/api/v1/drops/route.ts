import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { dropPage, dropsQuery } from "@/lib/features/drops/schemas";
import { listDrops } from "@/lib/features/drops/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Drops",
      description:
        "Drops, newest first (keyset pages): a quantity of a pack sold at a set time, by draw (`mode: draw`: enter until closesAt, then a draw) or by waiting room (`mode: queue`: served in a shuffled order from opensAt), with the price, stock left, the per-fan cap, the windows (allowlisted fans earlier), and the SHA-256 of the seed that orders it (`seedHash`, published at creation; `seed` once the order is fixed: GET /api/v1/drops/{dropId} shows the order to verify).",
      tags: ["Drops"],
      auth: "optional",
      query: dropsQuery,
      response: dropPage,
    },
    ({ query }) => listDrops(db, query),
  ),
});
