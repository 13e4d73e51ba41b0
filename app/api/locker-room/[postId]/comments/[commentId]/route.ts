import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { commentParams, deletedComment } from "@/lib/features/comments/schemas";
import { deleteComment } from "@/lib/features/comments/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "Delete a comment",
      description:
        "The comment's author (or staff) deletes it; the post's comment count goes down once, and deleting again answers the same. Others: 403 (404 when they may not see the post).",
      tags: ["Locker room"],
      auth: "bearer",
      params: commentParams,
      rateLimit: "write",
      response: deletedComment,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN],
    },
    ({ user, params }) => deleteComment(db, user, params.postId, params.commentId),
  ),
});
