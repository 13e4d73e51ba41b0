import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { teamsListResult, teamsQuery } from "@/lib/core/teams/schemas";
import { findTeamBySlug, listTeams } from "@/lib/core/teams/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "List teams, or look one up by slug",
      description:
        "With `slug`: `{ team }` (404 when missing or archived). With filters or pagination: `{ teams, season, total, nextCursor? }`, ordered by name. With neither: the full list `{ teams, season }` without `total`. Archived teams are never listed.",
      tags: ["Teams"],
      auth: "public",
      query: teamsQuery,
      envelope: false,
      response: teamsListResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ query: { slug, ...filters } }) => (slug !== undefined ? findTeamBySlug(db, slug) : listTeams(db, filters)),
  ),
});
