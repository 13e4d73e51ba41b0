import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { postIdParams, repostState } from "@/lib/features/lockerroom/schemas";
import { repostPost, unrepostPost } from "@/lib/features/lockerroom/reposts";
import { errors as lockerroomErrors } from "@/lib/features/lockerroom/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Repost a post",
      description:
        "Reposts (boosts) the post: it shows in the caller's reposts (GET /api/v1/users/{userId}/reposts) and counts in the post's `counts.reposts`. Idempotent, also under concurrent calls: one repost, counted once, its first time kept. " +
        "Only a published public post can be reposted: a private one (its team's fans only) or a scheduled one is 409 POST_NOT_SHAREABLE; 404 when the caller may not see the post (deleted, hidden, blocks either way). " +
        "The post's author gets one REPOST notification per fan (with notifyCommunity on; grouped per post).",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      feature: "posting",
      response: repostState,
      errors: [sharedErrors.NOT_FOUND, lockerroomErrors.POST_NOT_SHAREABLE],
    },
    ({ user, params }) => repostPost(db, user, params.postId),
  ),
  DELETE: route(
    {
      summary: "Remove my repost",
      description:
        "Removes the caller's repost of the post, if any (the count moves back once). Idempotent; it does not look at whether the post is still visible, so a repost of a post that became invisible can be taken back (then `repostCount` is null).",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      response: repostState,
    },
    ({ user, params }) => unrepostPost(db, user, params.postId),
  ),
});
