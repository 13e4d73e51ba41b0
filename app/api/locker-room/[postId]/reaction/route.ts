import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { postIdParams } from "@/lib/features/lockerroom/schemas";
import { REACTION_KINDS, reactionBody, reactionState } from "@/lib/features/reactions/schemas";
import { putReaction, removeReaction } from "@/lib/features/reactions/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "React to a post",
      description:
        `Sets the caller's reaction (one per post; kinds: ${REACTION_KINDS.join(", ")}): the same kind again changes nothing, another kind replaces it. ` +
        "Answers the post's counts and the caller's reaction. The post's author gets one REACTION notification per fan who reacts (with notifyCommunity on; grouped per post in GET /api/notifications/grouped). 404 when the caller may not see the post (blocks either way included).",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      body: reactionBody,
      rateLimit: "write",
      response: reactionState,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, body }) => putReaction(db, user, params.postId, body.kind),
  ),
  DELETE: route(
    {
      summary: "Remove my reaction",
      description: "Removes the caller's reaction to the post, if any (idempotent), and answers the post's counts. 404 when the caller may not see the post.",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      response: reactionState,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => removeReaction(db, user, params.postId),
  ),
});
