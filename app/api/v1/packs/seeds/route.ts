import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { seedPage, seedsQuery } from "@/lib/features/packs/schemas";
import { listSeeds } from "@/lib/features/packs/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Draw seeds",
      description:
        "The seeds pack openings draw from, newest first: the one in use with only its SHA-256 (`seedHash`, published before it draws anything), retired ones with the seed itself, so every opening that used them can be recomputed. Keyset: `limit` 1..100 (default 20).",
      tags: ["Packs"],
      auth: "optional",
      query: seedsQuery,
      response: seedPage,
    },
    ({ query }) => listSeeds(db, query),
  ),
});
