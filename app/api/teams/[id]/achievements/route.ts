import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listTeamAchievements } from "@/lib/core/teams/service";
import { teamAchievementsResult, teamIdParams } from "@/lib/core/teams/schemas";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Team achievements",
      description:
        "`{ success, data: { achievements } }`: the team's badges, newest first; an empty list for a team without badges. `{id}` is a team id or slug; missing or archived teams answer 404.",
      tags: ["Teams"],
      auth: "public",
      params: teamIdParams,
      response: teamAchievementsResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => listTeamAchievements(db, params.id),
  ),
});
