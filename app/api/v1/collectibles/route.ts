import { collectiblePage, ownedQuery } from "@/lib/core/collectibles/schemas";
import { listOwned } from "@/lib/core/collectibles/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My collectibles",
      description:
        "The caller's collectibles (serial-numbered copies of catalog cards), newest first, optionally of one team or rarity. Keyset: `limit` 1..100 (default 20), `nextCursor` back as `cursor`.",
      tags: ["Collectibles"],
      auth: "bearer",
      query: ownedQuery,
      response: collectiblePage,
    },
    ({ user, query }) => listOwned(db, user.id, query),
  ),
});
