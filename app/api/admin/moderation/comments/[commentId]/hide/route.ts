import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { hideBody, moderationResult, commentIdParams } from "@/lib/features/moderation/schemas";
import { setCommentVisibility } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Hide a comment (staff)",
      description:
        "Hides the comment from everyone but staff and resolves its open reports with resolution `hidden`. The post's `commentCount` (and a reply's parent's reply count) drop by one, under the post's row lock, only when the comment goes from visible to hidden (not for a deleted comment). Idempotent (`changed: false` when already hidden). Optional body `{ note }`. Unknown comment: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      params: commentIdParams,
      body: hideBody,
      bodyRequired: false,
      rateLimit: "write",
      response: moderationResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, body, requestId }) => setCommentVisibility(db, params.commentId, apiActor(user, requestId), true, body?.note),
  ),
});
