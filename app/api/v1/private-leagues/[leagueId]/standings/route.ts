import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { leagueStandings } from "@/lib/features/predictions/private-leagues";
import { LEAGUE_MEMBER_CAP, leagueParams, standings } from "@/lib/features/predictions/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A private league's standings",
      description: `Members only (404 otherwise). Every member (at most ${LEAGUE_MEMBER_CAP}, one answer) with the points of their settled predictions of games that kicked off after they joined (void ones count 0), ordered by points desc, exact scores desc, joined first, then user id; equal points and exact scores share a rank.`,
      tags: ["Private leagues"],
      auth: "bearer",
      params: leagueParams,
      response: standings,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => leagueStandings(db, user.id, params.leagueId),
  ),
});
