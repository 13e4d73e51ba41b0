import { db } from "@/lib/db/client";
import { publicProfile, userRefParams } from "@/lib/core/follows/schemas";
import { getUserProfile } from "@/lib/core/follows/service";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A fan's profile",
      description:
        "`{userId}` is the user's id or `@handle`. The public profile: handle, display name, avatar, banner, bio, favourite teams, follower and following counts, joined date (`view: full`). " +
        "A private profile seen by someone who does not follow it (signed out included) is `view: limited`: id, handle, display name, avatar, counts and `isPrivate`, without bio, banner, favourite teams or joined date. " +
        "The fan themselves, their followers and staff see it in full. 404 for an unknown user, and when either of the caller and the user blocked the other (as the locker room hides their posts).",
      tags: ["Follows"],
      auth: "optional",
      params: userRefParams,
      response: publicProfile,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getUserProfile(db, user, params.userId),
  ),
});
