import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { postIdParams, report, reportBody } from "@/lib/features/moderation/schemas";
import { reportPost } from "@/lib/features/moderation/service";
import { errors as moderationErrors } from "@/lib/features/moderation/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Report a post",
      description:
        'Reports a post to staff with a `reason` (spam, harassment, hate, violence, sexual, misinformation, other) and an optional `note` (at most 1000 characters; required when the reason is "other"). Once per user and post: a second report is 409 ALREADY_REPORTED (concurrent ones included). A post the caller cannot see (deleted, hidden, unpublished, private, blocked either way) is 404; reporting one\'s own post is 400 CANNOT_REPORT_OWN. Staff see reported posts in the moderation queue.',
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      body: reportBody,
      rateLimit: "write",
      status: 201,
      response: report,
      errors: [sharedErrors.NOT_FOUND, moderationErrors.CANNOT_REPORT_OWN, moderationErrors.ALREADY_REPORTED],
    },
    ({ user, params, body }) => reportPost(db, user, params.postId, body.reason, body.note),
  ),
});
