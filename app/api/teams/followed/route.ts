import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { followedTeamsQuery, followedTeamsResult } from "@/lib/core/teams/schemas";
import { listFollowedTeams } from "@/lib/core/teams/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Teams I follow",
      description:
        "`{ success, data: { teams, nextCursor? } }`: the caller's social follows as team payloads with `followedAt`, newest follow first (then team id descending), keyset-paginated (`limit` 1..100, default 50). Archived teams are left out. Joined (leaderboard) and starred teams appear only if also followed.",
      tags: ["Teams"],
      auth: "bearer",
      query: followedTeamsQuery,
      response: followedTeamsResult,
    },
    ({ user, query }) => listFollowedTeams(db, user.id, query),
  ),
});
