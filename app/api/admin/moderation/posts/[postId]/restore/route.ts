import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { moderationResult, postIdParams } from "@/lib/features/moderation/schemas";
import { setPostVisibility } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Restore a hidden post (staff)",
      description:
        "Clears the post's hidden state so it shows again to those who may see it. Idempotent (`changed: false` when it was not hidden); resolved reports stay resolved. No body. Unknown post: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      params: postIdParams,
      rateLimit: "write",
      response: moderationResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, requestId }) => setPostVisibility(db, params.postId, apiActor(user, requestId), false),
  ),
});
