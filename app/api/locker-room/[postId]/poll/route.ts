import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { postIdParams } from "@/lib/features/lockerroom/schemas";
import { pollResult } from "@/lib/features/polls/schemas";
import { getPoll } from "@/lib/features/polls/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A post's poll",
      description:
        "The options, whether it closed, and the caller's choices. Counts are null until the caller voted or the poll closed (the post's author always sees them). 404 when the post has no poll or the caller may not see it.",
      tags: ["Locker room"],
      auth: "optional",
      params: postIdParams,
      response: pollResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getPoll(db, user, params.postId),
  ),
});
