import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { teamIdParams, teamMembershipResult } from "@/lib/core/teams/schemas";
import { joinTeam, leaveTeam } from "@/lib/core/teams/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Join a team",
      description:
        "Upserts the caller's leaderboard entry for the team only: no follow, no star. Idempotent, also under concurrent repeats. Answers the bare `{ joinedTeamIds, followedTeamIds }` (the caller's full lists, oldest first, as GET /api/user/teams). `{id}` is a team id or slug; missing or archived teams answer 404.",
      tags: ["Teams"],
      auth: "bearer",
      params: teamIdParams,
      rateLimit: "write",
      envelope: false,
      response: teamMembershipResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => joinTeam(db, user.id, params.id),
  ),
  DELETE: route(
    {
      summary: "Leave a team",
      description:
        "Removes only the caller's leaderboard entry; a follow or star stays. Idempotent: leaving a team not joined (or an unknown id) is fine. Answers the bare `{ joinedTeamIds, followedTeamIds }`.",
      tags: ["Teams"],
      auth: "bearer",
      params: teamIdParams,
      rateLimit: "write",
      envelope: false,
      response: teamMembershipResult,
    },
    ({ user, params }) => leaveTeam(db, user.id, params.id),
  ),
});
