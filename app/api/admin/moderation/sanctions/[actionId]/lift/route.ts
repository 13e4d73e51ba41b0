import { apiActor } from "@/lib/core/audit/service";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { actionIdParams, staffModerationAction } from "@/lib/features/moderation/schemas";
import { liftAction } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Lift a moderation action (staff)",
      description:
        "Lifts the action: its restriction or suspension ends and the posts and comments it hid (and still hides) come back, in one transaction. Idempotent (the first lift is kept). Unknown action: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      params: actionIdParams,
      rateLimit: "write",
      response: z.object({ action: staffModerationAction }),
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, requestId }) => liftAction(db, params.actionId, apiActor(user, requestId)),
  ),
});
