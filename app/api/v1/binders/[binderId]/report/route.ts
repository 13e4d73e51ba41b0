import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { accountReport, reportBody, binderIdParams } from "@/lib/features/moderation/schemas";
import { reportTarget } from "@/lib/features/moderation/service";
import { errors as moderationErrors } from "@/lib/features/moderation/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Report a binder",
      description:
        'Reports a binder to staff with a `reason` (spam, harassment, hate, violence, sexual, misinformation, other) and an optional `note` (at most 1000 characters; required when the reason is "other"). One open report per user and binder: a second while the first is open is 409 ALREADY_REPORTED (concurrent ones included); once staff reviewed it, the binder may be reported again. A binder the caller cannot see (private, or on a private profile) or no such binder is 404. Reporting your own binder is 400 CANNOT_REPORT_OWN. The caller follows its status in GET /api/v1/me/reports.',
      tags: ["Binders"],
      auth: "bearer",
      params: binderIdParams,
      body: reportBody,
      rateLimit: "write",
      status: 201,
      response: accountReport,
      errors: [sharedErrors.NOT_FOUND, moderationErrors.CANNOT_REPORT_OWN, moderationErrors.ALREADY_REPORTED],
    },
    ({ user, params, body }) => reportTarget(db, user.id, { kind: "binder", id: params.binderId }, body.reason, body.note),
  ),
});
