import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as predictionsErrors } from "@/lib/features/predictions/errors";
import { joinLeague } from "@/lib/features/predictions/private-leagues";
import { joinBody, joinResult, LEAGUE_MEMBER_CAP, LEAGUES_PER_USER } from "@/lib/features/predictions/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Join a private league by its code",
      description: `Body \`{ code }\` (any case). Unknown or rotated code → 404 INVALID_LEAGUE_CODE. A member joining again answers the league with \`joined: false\`. The league holds at most ${LEAGUE_MEMBER_CAP} members (409 LEAGUE_FULL) and a fan at most ${LEAGUES_PER_USER} leagues (409 LEAGUE_LIMIT), both counted under row locks, so concurrent joins never pass the cap. Standings count a member's games kicked off after they joined.`,
      tags: ["Private leagues"],
      auth: "bearer",
      body: joinBody,
      rateLimit: "write",
      response: joinResult,
      errors: [predictionsErrors.INVALID_LEAGUE_CODE, predictionsErrors.LEAGUE_FULL, predictionsErrors.LEAGUE_LIMIT],
    },
    ({ user, body }) => joinLeague(db, user.id, body.code),
  ),
});
