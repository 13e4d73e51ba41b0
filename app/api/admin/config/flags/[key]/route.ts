import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { z } from "zod";
import { adminFlagResponse, flagBody, flagParams } from "@/lib/features/config/schemas";
import { deleteFlag, putFlag } from "@/lib/features/config/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Create or update a feature flag (staff)",
      description:
        "Sets the flag's rollout (0..100 %, two decimals) and optionally its description; a new key creates it (at most 200 flags). A user is in when their bucket (SHA-256 of `<key>:<user id>`, 0..9999) is below the rollout, so raising it only adds users. Audited; an unchanged value writes nothing.",
      tags: ["Admin"],
      auth: "admin",
      params: flagParams,
      body: flagBody,
      rateLimit: "write",
      response: adminFlagResponse,
    },
    ({ user, params, body, requestId }) => putFlag(db, params.key, body, apiActor(user, requestId)),
  ),
  DELETE: route(
    {
      summary: "Delete a feature flag (staff)",
      description:
        "Removes the flag: GET /api/v1/config no longer lists it (apps treat a missing flag as off). Audited; an unknown key answers `deleted: false`.",
      tags: ["Admin"],
      auth: "admin",
      params: flagParams,
      rateLimit: "write",
      response: z.object({ deleted: z.boolean() }),
    },
    ({ user, params, requestId }) => deleteFlag(db, params.key, apiActor(user, requestId)),
  ),
});
