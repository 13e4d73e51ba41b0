import { db } from "@/lib/db/client";
import { userRefParams } from "@/lib/core/follows/schemas";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { userPins } from "@/lib/features/lockerroom/pins";
import { pinList } from "@/lib/features/lockerroom/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A fan's pinned posts",
      description:
        "`{userId}` is the user's id or `@handle`. The posts the fan pinned on their profile (at most 3, newest pin first), each as the feed serializes it plus `pinnedAt`. " +
        "Only the pinned posts the caller may see, decided in the statement that reads them: a deleted or hidden post, or a private one of a team the caller is not a fan of, is left out. 404 for an unknown user or a block either way.",
      tags: ["Locker room"],
      auth: "optional",
      params: userRefParams,
      response: pinList,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => userPins(db, user, params.userId),
  ),
});
