import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { packsResponse } from "@/lib/features/packs/schemas";
import { listPacks } from "@/lib/features/packs/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Packs",
      description:
        "Active packs with their price (minor units), stock left, sale window, whether they can be bought now, and their published odds per rarity (weight in basis points, percent, cards in the pool), shown before purchase as app stores require. The starter pack is listed with `grantOnly`: it is granted at onboarding, never sold.",
      tags: ["Packs"],
      auth: "optional",
      response: packsResponse,
    },
    () => listPacks(db),
  ),
});
