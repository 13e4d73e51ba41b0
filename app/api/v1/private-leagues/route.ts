import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as predictionsErrors } from "@/lib/features/predictions/errors";
import { createLeague, listMyLeagues } from "@/lib/features/predictions/private-leagues";
import { LEAGUE_MEMBER_CAP, LEAGUES_OWNED_PER_USER, LEAGUES_PER_USER, leagueCreateBody, leagueList, leagueResult } from "@/lib/features/predictions/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "The caller's private leagues",
      description: `Every private league the caller is a member of (owned ones included; at most ${LEAGUES_PER_USER}), first joined first, with its join code.`,
      tags: ["Private leagues"],
      auth: "bearer",
      response: leagueList,
    },
    ({ user }) => listMyLeagues(db, user.id),
  ),
  POST: route(
    {
      summary: "Create a private league",
      description: `Body \`{ name }\`. The caller owns it and is its first member; it gets a new 8-character join code. At most ${LEAGUE_MEMBER_CAP} members. A fan may own at most ${LEAGUES_OWNED_PER_USER} leagues and be in at most ${LEAGUES_PER_USER} (409 LEAGUE_LIMIT), counted under the fan's row lock.`,
      tags: ["Private leagues"],
      auth: "bearer",
      body: leagueCreateBody,
      rateLimit: "write",
      status: 201,
      response: leagueResult,
      errors: [predictionsErrors.LEAGUE_LIMIT],
    },
    ({ user, body }) => createLeague(db, user.id, body.name),
  ),
});
