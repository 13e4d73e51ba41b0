import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { pinState, postIdParams } from "@/lib/features/lockerroom/schemas";
import { pinPost, PINS_MAX, unpinPost } from "@/lib/features/lockerroom/pins";
import { errors as lockerroomErrors } from "@/lib/features/lockerroom/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Pin a post on its profile",
      description:
        `Pins the post on the profile it belongs to: a fan's own post on the fan's profile (GET /api/v1/users/{userId}/pins), a post posted as a team on the team's (GET /api/teams/{id}/pins; the team's staff accounts only). ` +
        `At most ${PINS_MAX} pinned posts per profile (409 PIN_LIMIT_REACHED), also under concurrent pins. Idempotent: pinning a pinned post answers its first pin time. ` +
        "Someone else's post, or a team's post by a fan who is not its staff: 403. A scheduled post not yet published: 409 POST_NOT_PUBLISHED. 404 when the caller may not see the post.",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      response: pinState,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN, lockerroomErrors.PIN_LIMIT_REACHED, lockerroomErrors.POST_NOT_PUBLISHED],
    },
    ({ user, params }) => pinPost(db, user, params.postId),
  ),
  DELETE: route(
    {
      summary: "Unpin a post",
      description:
        "Unpins the post from its profile: its author, or for a team's post the team's staff (else 403; 404 when the caller may not see the post or it does not exist). Idempotent: answers `{ postId, pinned: false, pinnedAt: null }` whether or not it was pinned.",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      response: pinState,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN],
    },
    ({ user, params }) => unpinPost(db, user, params.postId),
  ),
});
