import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { actionIdParams, appeal, appealBody } from "@/lib/features/moderation/schemas";
import { appealAction } from "@/lib/features/moderation/service";
import { errors as moderationErrors } from "@/lib/features/moderation/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Appeal a moderation action",
      description:
        "Appeals an action against the caller with a `text` (1..2000 characters), once per action: a second appeal (or all but one of concurrent ones) is 409 ALREADY_APPEALED; more than 30 days after the action it is 422 APPEAL_WINDOW_CLOSED. Someone else's action or an unknown id is 404. Staff grant (the action is lifted and what it hid comes back) or deny it; the status shows in GET /api/v1/me/moderation-actions. Open to a fully suspended caller.",
      tags: ["Moderation"],
      auth: "bearer",
      allowSuspended: true,
      params: actionIdParams,
      body: appealBody,
      rateLimit: "write",
      status: 201,
      response: appeal,
      errors: [sharedErrors.NOT_FOUND, moderationErrors.ALREADY_APPEALED, moderationErrors.APPEAL_WINDOW_CLOSED],
    },
    ({ user, params, body }) => appealAction(db, user.id, params.actionId, body.text),
  ),
});
