import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { postIdParams } from "@/lib/features/lockerroom/schemas";
import { reactionPage, reactionsQuery } from "@/lib/features/reactions/schemas";
import { listReactions } from "@/lib/features/reactions/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Who reacted to a post",
      description:
        "The post's reactions, newest first (keyset; `kind` narrows to one kind). Users the caller blocked or who blocked the caller are left out; reactions by accounts the caller mutes are left out of the page read (a page may be short; `nextCursor` continues after the last reaction read). 404 when the caller may not see the post.",
      tags: ["Locker room"],
      auth: "optional",
      params: postIdParams,
      query: reactionsQuery,
      response: reactionPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => listReactions(db, user, params.postId, query),
  ),
});
