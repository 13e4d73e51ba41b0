import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { getLeague } from "@/lib/features/predictions/private-leagues";
import { leagueParams, leagueResult } from "@/lib/features/predictions/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A private league",
      description:
        "Members only: the league with its join code, member count and cap, and when the caller joined; the owner also gets `admin` (every member, when the code was last rotated). A league the caller is not a member of answers 404, as an unknown one does.",
      tags: ["Private leagues"],
      auth: "bearer",
      params: leagueParams,
      response: leagueResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getLeague(db, user.id, params.leagueId),
  ),
});
