import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { teamDetailResult, teamIdParams } from "@/lib/core/teams/schemas";
import { getTeamDetail } from "@/lib/core/teams/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Team detail",
      description:
        "By id, then by slug (case-insensitive). Archived or missing teams answer 404. Signing in is optional; it only decides `viewerCanPostAsTeam`.",
      tags: ["Teams"],
      auth: "optional",
      params: teamIdParams,
      envelope: false,
      response: teamDetailResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params, user }) => getTeamDetail(db, params.id, user),
  ),
});
