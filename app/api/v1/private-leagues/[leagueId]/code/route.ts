import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as predictionsErrors } from "@/lib/features/predictions/errors";
import { rotateCode } from "@/lib/features/predictions/private-leagues";
import { codeResult, leagueParams } from "@/lib/features/predictions/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Rotate a private league's join code (owner)",
      description:
        "The owner replaces the join code with a new one; the old code stops working at once (joining with it → 404 INVALID_LEAGUE_CODE), members stay. Other members → 403 NOT_LEAGUE_OWNER; non-members → 404.",
      tags: ["Private leagues"],
      auth: "bearer",
      params: leagueParams,
      bodyRequired: false,
      rateLimit: "write",
      response: codeResult,
      errors: [sharedErrors.NOT_FOUND, predictionsErrors.NOT_LEAGUE_OWNER],
    },
    ({ user, params }) => rotateCode(db, user.id, params.leagueId),
  ),
});
