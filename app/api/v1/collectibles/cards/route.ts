import { cardPage, cardsQuery } from "@/lib/core/collectibles/schemas";
import { listCards } from "@/lib/core/collectibles/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "The card catalog",
      description:
        "Every card that can be drawn: players and teams of the synced data, each with its rarity, edition size and copies drawn so far, by id; optionally of one team or rarity. Keyset: `limit` 1..100 (default 50).",
      tags: ["Collectibles"],
      auth: "optional",
      query: cardsQuery,
      response: cardPage,
    },
    ({ query }) => listCards(db, query),
  ),
});
