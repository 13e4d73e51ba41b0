import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { moderationResult, commentIdParams } from "@/lib/features/moderation/schemas";
import { setCommentVisibility } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Restore a hidden comment (staff)",
      description:
        "Clears the comment's hidden state; the post's `commentCount` (and a reply's parent's reply count) rise by one, under the post's row lock, only when it actually changes (and the comment is not deleted). Idempotent. No body. Unknown comment: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      params: commentIdParams,
      rateLimit: "write",
      response: moderationResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, requestId }) => setCommentVisibility(db, params.commentId, apiActor(user, requestId), false),
  ),
});
