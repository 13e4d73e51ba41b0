import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { interactionPolicyBody, post, postIdParams } from "@/lib/features/lockerroom/schemas";
import { setInteractionPolicy } from "@/lib/features/lockerroom/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Set who may comment on a post",
      description:
        "The post's author (for a post posted as a team, the team's staff) sets its interaction policy: `comments` is `everyone` (the default), `followers` (fans who follow the author; for a team's post, the team's followers), `team_fans` (fans who follow or joined the post's team) or `nobody`. " +
        "The author, and a team's staff on its posts, can always comment. A comment or reply the policy does not allow is refused with 403 COMMENTS_RESTRICTED, checked in the comment's transaction; comments written before stay. " +
        "Answers the post (`interactionPolicy`, and `viewer.canComment` for each reader). Others: 403 (404 when they cannot see the post).",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      body: interactionPolicyBody,
      rateLimit: "write",
      response: post,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN],
    },
    ({ user, params, body }) => setInteractionPolicy(db, user, params.postId, body.comments),
  ),
});
