import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { starResult, starSnapshotBody, starredTeamParams, unstarResult } from "@/lib/features/stars/schemas";
import { starTeam, unstarTeam } from "@/lib/features/stars/service";
import { errors as starsErrors } from "@/lib/features/stars/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Star a team",
      description:
        "Idempotent. The id may be a provider club id with no team row. The optional body is a display snapshot: only keys sent are stored or refreshed, null clears. A new id past the 50-club cap answers 409 STARRED_TEAMS_LIMIT. Starring creates no follow.",
      tags: ["Stars"],
      auth: "bearer",
      params: starredTeamParams,
      body: starSnapshotBody,
      bodyRequired: false,
      rateLimit: "write",
      envelope: false,
      response: starResult,
      errors: [starsErrors.STARRED_TEAMS_LIMIT],
    },
    ({ user, params, body }) => starTeam(db, user.id, params.teamId, body ?? {}),
  ),
  DELETE: route(
    {
      summary: "Unstar a team",
      description: "Idempotent: answers `{ starred: false }` whether or not the team was starred.",
      tags: ["Stars"],
      auth: "bearer",
      params: starredTeamParams,
      rateLimit: "write",
      envelope: false,
      response: unstarResult,
    },
    ({ user, params }) => unstarTeam(db, user.id, params.teamId),
  ),
});
