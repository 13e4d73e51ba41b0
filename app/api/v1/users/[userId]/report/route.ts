import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { accountReport, reportBody, userIdParams } from "@/lib/features/moderation/schemas";
import { reportTarget } from "@/lib/features/moderation/service";
import { errors as moderationErrors } from "@/lib/features/moderation/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Report a user",
      description:
        'Reports a user to staff with a `reason` (spam, harassment, hate, violence, sexual, misinformation, other) and an optional `note` (at most 1000 characters; required when the reason is "other"). One open report per user and user: a second while the first is open is 409 ALREADY_REPORTED (concurrent ones included); once staff reviewed it, the user may be reported again. A user who blocked the caller or whom the caller blocked, or no such user, is 404. Reporting oneself is 400 CANNOT_REPORT_OWN. The caller follows its status in GET /api/v1/me/reports.',
      tags: ["Users"],
      auth: "bearer",
      params: userIdParams,
      body: reportBody,
      rateLimit: "write",
      status: 201,
      response: accountReport,
      errors: [sharedErrors.NOT_FOUND, moderationErrors.CANNOT_REPORT_OWN, moderationErrors.ALREADY_REPORTED],
    },
    ({ user, params, body }) => reportTarget(db, user.id, { kind: "user", id: params.userId }, body.reason, body.note),
  ),
});
