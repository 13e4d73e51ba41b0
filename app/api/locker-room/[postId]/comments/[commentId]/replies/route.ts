import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { commentPage, commentParams, commentsQuery } from "@/lib/features/comments/schemas";
import { listComments } from "@/lib/features/comments/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A comment's replies",
      description:
        "Replies to a top-level comment, oldest first (keyset), under the same rules as the comments list. 404 for an unknown comment, a reply's id, or a post the caller may not see.",
      tags: ["Locker room"],
      auth: "optional",
      params: commentParams,
      query: commentsQuery,
      response: commentPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => listComments(db, user, params.postId, { ...query, parentId: params.commentId }),
  ),
});
