import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { deletedPost, post, postIdParams, rescheduleBody } from "@/lib/features/lockerroom/schemas";
import { cancelScheduled, reschedulePost } from "@/lib/features/lockerroom/service";
import { errors as lockerroomErrors } from "@/lib/features/lockerroom/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PATCH: route(
    {
      summary: "Reschedule a scheduled post",
      description:
        "Moves the caller's not-yet-published post to `scheduledFor` (same bounds as creating; its poll's closing moves by the same amount). 409 ALREADY_PUBLISHED once its time came; another user's post is 404.",
      tags: ["Locker room"],
      auth: "bearer",
      feature: "posting",
      params: postIdParams,
      body: rescheduleBody,
      rateLimit: "write",
      response: post,
      errors: [sharedErrors.NOT_FOUND, lockerroomErrors.ALREADY_PUBLISHED],
    },
    ({ user, params, body }) => reschedulePost(db, user, params.postId, body.scheduledFor),
  ),
  DELETE: route(
    {
      summary: "Cancel a scheduled post",
      description:
        "Deletes the caller's not-yet-published post: it never appears. 409 ALREADY_PUBLISHED once its time came (delete it as a post then); another user's post is 404.",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      response: deletedPost,
      errors: [sharedErrors.NOT_FOUND, lockerroomErrors.ALREADY_PUBLISHED],
    },
    ({ user, params }) => cancelScheduled(db, user, params.postId),
  ),
});
