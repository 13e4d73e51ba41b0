import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { deletedPost, EDIT_WINDOW_MINUTES, editPostBody, post, postIdParams } from "@/lib/features/lockerroom/schemas";
import { deletePost, editPost, getPost } from "@/lib/features/lockerroom/service";
import { errors as lockerroomErrors } from "@/lib/features/lockerroom/errors";
import { errors as visibilityErrors } from "@/lib/core/visibility/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A locker-room post",
      description:
        "The post with its counts (comments, reactions per kind), the caller's reaction and poll votes, and the poll (results once the caller voted or the poll closed). " +
        "404 when the caller may not see it: not published yet (but to its author), private to a team's fans, a block between the caller and its author, deleted or hidden. Staff see deleted and hidden posts (deletedAt, hiddenAt).",
      tags: ["Locker room"],
      auth: "optional",
      params: postIdParams,
      response: post,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getPost(db, user, params.postId),
  ),
  PATCH: route(
    {
      summary: "Edit a post's text",
      description: `The author changes \`content\` within ${EDIT_WINDOW_MINUTES} minutes of publication (then 409 EDIT_WINDOW_CLOSED); the replaced text is kept (GET .../edits) and \`editedAt\` shows the post was edited. Others: 403 (404 when they cannot see it).`,
      tags: ["Locker room"],
      auth: "bearer",
      feature: "posting",
      params: postIdParams,
      body: editPostBody,
      rateLimit: "write",
      response: post,
      errors: [
        sharedErrors.NOT_FOUND,
        sharedErrors.FORBIDDEN,
        lockerroomErrors.EDIT_WINDOW_CLOSED,
        visibilityErrors.UGC_TERMS_REQUIRED,
        visibilityErrors.POSTING_SUSPENDED,
      ],
    },
    ({ user, params, body }) => editPost(db, user, params.postId, body.content),
  ),
  DELETE: route(
    {
      summary: "Delete a post",
      description:
        "The author (or staff) deletes the post: it answers 404 to everyone else from then on. Deleting again answers the same. Others: 403 (404 when they cannot see it).",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      response: deletedPost,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.FORBIDDEN],
    },
    ({ user, params }) => deletePost(db, user, params.postId),
  ),
});
