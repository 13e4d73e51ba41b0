import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { postIdParams, postMuteState } from "@/lib/features/lockerroom/schemas";
import { mutePost } from "@/lib/features/lockerroom/service";
import { sharedErrors } from "@/lib/kernel/errors";

// Both methods take the same post and answer the same state.
const mute = {
  tags: ["Locker room"],
  auth: "bearer" as const,
  params: postIdParams,
  rateLimit: "write" as const,
  response: postMuteState,
  errors: [sharedErrors.NOT_FOUND],
};

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Mute a post's thread",
      description:
        "Stops the caller's notifications about the post: no REPLY (comments on it, replies to the caller's comments in it) and no REACTION (reactions to it) while muted. Idempotent; answers `{ postId, muted: true }`. The post's author and everyone else see nothing of it. 404 when the caller may not see the post (blocks either way included).",
      ...mute,
    },
    ({ user, params }) => mutePost(db, user, params.postId, true),
  ),
  DELETE: route(
    {
      summary: "Unmute a post's thread",
      description:
        "Lets the post's notifications reach the caller again (those made while it was muted are not sent). Idempotent; answers `{ postId, muted: false }`. 404 when the caller may not see the post.",
      ...mute,
    },
    ({ user, params }) => mutePost(db, user, params.postId, false),
  ),
});
