import { db } from "@/lib/db/client";
import { errors as followsErrors } from "@/lib/core/follows/errors";
import { userRefParams } from "@/lib/core/follows/schemas";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { userBadges } from "@/lib/features/progress/schemas";
import { userBadges as userBadgesOf } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A fan's badges",
      description:
        '`{userId}` is the user\'s id or `@handle`. The badges the fan holds (count: times granted), most recently granted first, and the ones they feature, in order, and their "I was there" keepsakes (one per verified arena check-in at a game, numbered per game in arrival order; not tradable). ' +
        "A private profile's badges only to its followers, the fan themselves and staff (else 403 PROFILE_PRIVATE); 404 for an unknown user or a block either way.",
      tags: ["Follows"],
      auth: "optional",
      params: userRefParams,
      response: userBadges,
      errors: [sharedErrors.NOT_FOUND, followsErrors.PROFILE_PRIVATE],
    },
    ({ user, params }) => userBadgesOf(db, user, params.userId),
  ),
});
