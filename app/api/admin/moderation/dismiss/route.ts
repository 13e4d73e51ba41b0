import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { dismissBody, dismissResult } from "@/lib/features/moderation/schemas";
import { dismissReports } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Dismiss a target's reports (staff)",
      description:
        "Resolves the open reports of a post (`{ postId }`) or a comment (`{ commentId }`; exactly one) with resolution `dismissed`, leaving the content as it is; the target leaves the queue until reported again. Idempotent: a repeat dismisses nothing (`resolvedReports: 0`). Unknown target: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      body: dismissBody,
      rateLimit: "write",
      response: dismissResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, body, requestId }) => dismissReports(db, body.postId ? { postId: body.postId } : { commentId: body.commentId! }, apiActor(user, requestId)),
  ),
});
