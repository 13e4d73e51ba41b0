import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { claimParams, rewardClaim } from "@/lib/features/rewards/schemas";
import { myClaim } from "@/lib/features/rewards/fulfilment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "One of my reward claims",
      description: "One claim of the caller's with its fulfilment (as in GET /api/rewards/claims). Another fan's claim and an unknown id are both 404.",
      tags: ["Rewards"],
      auth: "bearer",
      params: claimParams,
      response: rewardClaim,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => myClaim(db, user.id, params.claimId),
  ),
});
