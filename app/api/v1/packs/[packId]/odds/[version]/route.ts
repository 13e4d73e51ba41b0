import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { oddsParams, oddsTable } from "@/lib/features/packs/schemas";
import { getOddsTable } from "@/lib/features/packs/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A pack's odds table",
      description:
        "A published odds table, never changed once written: the weight of each rarity (basis points of 10,000) and, per rarity, the card ids a draw indexes in order. With an opening's seed (once revealed), nonce and draws, anyone can recompute each roll and pick (the algorithm: README, Packs).",
      tags: ["Packs"],
      auth: "optional",
      params: oddsParams,
      cache: { maxAge: 86_400, immutable: true },
      response: oddsTable,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => getOddsTable(db, params.packId, params.version),
  ),
});
