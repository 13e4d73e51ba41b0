import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { hideBody, moderationResult, postIdParams } from "@/lib/features/moderation/schemas";
import { setPostVisibility } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Hide a post (staff)",
      description:
        "Hides the post from everyone but staff (`hidden_at`, `hidden_by`: the staff member's identity-provider id) and resolves its open reports with resolution `hidden`. Idempotent: hiding a hidden post keeps its first hidden time (`changed: false`) and still resolves reports made since. Optional body `{ note }` (at most 500 characters), written to the server log with the action. Unknown post: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      params: postIdParams,
      body: hideBody,
      bodyRequired: false,
      rateLimit: "write",
      response: moderationResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, body, requestId }) => setPostVisibility(db, params.postId, apiActor(user, requestId), true, body?.note),
  ),
});
