import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { comment, commentBody, commentPage, commentsQuery, COMMENT_MAX } from "@/lib/features/comments/schemas";
import { createComment, listComments } from "@/lib/features/comments/service";
import { postIdParams } from "@/lib/features/lockerroom/schemas";
import { errors as lockerroomErrors } from "@/lib/features/lockerroom/errors";
import { errors as visibilityErrors } from "@/lib/core/visibility/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A post's comments",
      description:
        "Top-level comments, oldest first (keyset), each with its reply count (replies: GET .../comments/{commentId}/replies). Deleted and hidden comments are left out, but a top-level one with replies stays as a placeholder (`removed`, no author or content). Comments by users the caller blocked or who blocked the caller are never listed. Comments by accounts the caller mutes, and live comments matching the caller's `comments` keyword filters, are left out of the page read: a page may be short (even empty) with a `nextCursor` continuing after the last comment read. 404 when the caller may not see the post.",
      tags: ["Locker room"],
      auth: "optional",
      params: postIdParams,
      query: commentsQuery,
      response: commentPage,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, query }) => listComments(db, user, params.postId, query),
  ),
  POST: route(
    {
      summary: "Comment on a post",
      description:
        `\`content\` 1..${COMMENT_MAX} characters; \`parentId\` replies to a top-level comment of the post (replies are one level deep: a reply's id is 400). ` +
        "Needs the current Terms of Use (403 UGC_TERMS_REQUIRED) and no posting suspension (403 POSTING_SUSPENDED). 404 when the caller may not see the post, or the parent comment (removed, or a block either way with its author). " +
        "Notifies the post's author (a comment) or the parent's author (a reply) with REPLY when their notifyCommunity is on. Rate-limited per user (policy ugc). " +
        "The post's interaction policy (PUT .../interaction-policy) decides who may comment or reply: 403 COMMENTS_RESTRICTED otherwise (`viewer.canComment` on the post tells in advance).",
      tags: ["Locker room"],
      auth: "bearer",
      feature: "posting",
      params: postIdParams,
      body: commentBody,
      rateLimit: "ugc",
      status: 201,
      response: comment,
      errors: [sharedErrors.NOT_FOUND, visibilityErrors.UGC_TERMS_REQUIRED, visibilityErrors.POSTING_SUSPENDED, lockerroomErrors.COMMENTS_RESTRICTED],
    },
    ({ user, params, body }) => createComment(db, user, params.postId, body.content, body.parentId),
  ),
});
