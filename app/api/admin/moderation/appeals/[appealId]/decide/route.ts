import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { appealDecisionBody, appealIdParams, staffAppeal } from "@/lib/features/moderation/schemas";
import { decideAppeal } from "@/lib/features/moderation/service";
import { errors as moderationErrors } from "@/lib/features/moderation/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Grant or deny an appeal (staff)",
      description:
        "`grant`: in one transaction the appeal is marked granted (who, when) and its action lifted: the restriction or suspension ends and the posts and comments the action hid come back. `deny`: the action stands. Once: a decided appeal is 409 APPEAL_DECIDED. Unknown appeal: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      params: appealIdParams,
      body: appealDecisionBody,
      rateLimit: "write",
      response: staffAppeal,
      errors: [sharedErrors.NOT_FOUND, moderationErrors.APPEAL_DECIDED],
    },
    ({ user, params, body, requestId }) => decideAppeal(db, params.appealId, apiActor(user, requestId), body.decision === "grant", body.note),
  ),
});
