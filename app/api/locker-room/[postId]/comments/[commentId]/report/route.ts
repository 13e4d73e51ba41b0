import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { postCommentParams, report, reportBody } from "@/lib/features/moderation/schemas";
import { reportComment } from "@/lib/features/moderation/service";
import { errors as moderationErrors } from "@/lib/features/moderation/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Report a comment",
      description:
        "Reports a comment (or reply) of the post to staff, with the same body and rules as reporting a post: once per user and comment (409 ALREADY_REPORTED), not one's own (400 CANNOT_REPORT_OWN). 404 when the caller cannot see the post, or the comment is not of that post, is deleted or hidden, or its author and the caller have blocked each other (either way).",
      tags: ["Locker room"],
      auth: "bearer",
      params: postCommentParams,
      body: reportBody,
      rateLimit: "write",
      status: 201,
      response: report,
      errors: [sharedErrors.NOT_FOUND, moderationErrors.CANNOT_REPORT_OWN, moderationErrors.ALREADY_REPORTED],
    },
    ({ user, params, body }) => reportComment(db, user, params.postId, params.commentId, body.reason, body.note),
  ),
});
