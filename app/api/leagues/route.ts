import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { leaguesQuery, leaguesResult } from "@/lib/core/leagues/schemas";
import { listLeagues } from "@/lib/core/leagues/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "List leagues",
      description:
        "Non-archived leagues ordered by displayOrder, then name, with branding (logo, colours), normalised sport (never null), current season, count of non-archived teams, and structure: `conferences` (each with its `divisions`) and `divisions` that belong to no conference. Optional `sport` filters by normalised sport. Signing in is optional and changes nothing in the answer; an invalid token is still a 401.",
      tags: ["Leagues"],
      auth: "optional",
      query: leaguesQuery,
      response: leaguesResult,
    },
    ({ query }) => listLeagues(db, query),
  ),
});
