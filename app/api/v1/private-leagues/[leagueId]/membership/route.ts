import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as predictionsErrors } from "@/lib/features/predictions/errors";
import { leaveLeague } from "@/lib/features/predictions/private-leagues";
import { leagueParams, leaveResult, membershipQuery } from "@/lib/features/predictions/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "Leave a private league, or remove a member (owner)",
      description:
        "Without `userId` (or with the caller's own id) the caller leaves. With another member's `userId` the owner removes them (403 NOT_LEAGUE_OWNER for anyone else; 404 when they are not a member); rotate the code to keep them out. The owner cannot leave while other members remain (409 OWNER_CANNOT_LEAVE); the owner leaving as the last member deletes the league. A league the caller is not in → 404.",
      tags: ["Private leagues"],
      auth: "bearer",
      params: leagueParams,
      query: membershipQuery,
      rateLimit: "write",
      response: leaveResult,
      errors: [sharedErrors.NOT_FOUND, predictionsErrors.NOT_LEAGUE_OWNER, predictionsErrors.OWNER_CANNOT_LEAVE],
    },
    ({ user, params, query }) => leaveLeague(db, user.id, params.leagueId, query.userId),
  ),
});
