import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { suspension, suspensionIdParams } from "@/lib/features/moderation/schemas";
import { liftSuspension } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Lift a posting suspension (staff)",
      description:
        "Ends the suspension now (`liftedAt`); the user may post again unless another suspension is in force. Idempotent: lifting again keeps the first lift time. No body. Unknown id: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      params: suspensionIdParams,
      rateLimit: "write",
      response: suspension,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params, user, requestId }) => liftSuspension(db, params.suspensionId, apiActor(user, requestId)),
  ),
});
