import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { teamSearchQuery, teamSearchResult } from "@/lib/core/teams/schemas";
import { searchTeams } from "@/lib/core/teams/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Search teams",
      description:
        "`{ success, data: { teams, nextCursor? } }`. `q` matches a case-insensitive substring of name, short name, city or abbreviation (`%` and `_` are literal); `sport` compares normalised values; `league` is an id or slug. Archived teams are never listed. Keyset-paginated: `sort=name` (default; name, then id), `rank` (rank ascending, unranked teams last, then id) or `fans` (fanCount descending, then id); ties are broken by id, so walking the pages returns every matching team once. The cursor remembers its sort: a cursor from another sort is 400 VALIDATION_ERROR. Signing in is optional and changes nothing.",
      tags: ["Teams"],
      auth: "optional",
      query: teamSearchQuery,
      response: teamSearchResult,
    },
    ({ query }) => searchTeams(db, query),
  ),
});
