import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { followResult, teamIdParams, unfollowResult } from "@/lib/core/teams/schemas";
import { followTeam, unfollowTeam } from "@/lib/core/teams/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Follow a team",
      description:
        "Creates the social follow only: no leaderboard entry (join) and no star. Idempotent: a repeat answers the same `{ following: true, teamId, followedAt }` with the first follow's time. `{id}` is a team id or slug; missing or archived teams answer 404.",
      tags: ["Teams"],
      auth: "bearer",
      params: teamIdParams,
      rateLimit: "write",
      response: followResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => followTeam(db, user.id, params.id),
  ),
  DELETE: route(
    {
      summary: "Unfollow a team",
      description:
        "Removes the social follow only; a join or star stays. Idempotent: answers `{ following: false, teamId }` whether or not the team was followed (archived or unknown ids included).",
      tags: ["Teams"],
      auth: "bearer",
      params: teamIdParams,
      rateLimit: "write",
      response: unfollowResult,
    },
    ({ user, params }) => unfollowTeam(db, user.id, params.id),
  ),
});
