import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getUserTeams } from "@/lib/core/teams/service";
import { userTeams } from "@/lib/core/teams/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Teams I joined and follow",
      description:
        "Bare `{ joinedTeamIds, followedTeamIds }` (the same shape POST/DELETE /api/teams/{id}/join answer). Joins (leaderboard entries) and follows (social) are independent; each list is oldest first. Starred HQ clubs are not included (see /api/me/starred-teams).",
      tags: ["Users"],
      auth: "bearer",
      envelope: false,
      response: userTeams,
    },
    ({ user }) => getUserTeams(db, user.id),
  ),
});
