import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { accountReport, reportBody, listingIdParams } from "@/lib/features/moderation/schemas";
import { reportTarget } from "@/lib/features/moderation/service";
import { errors as moderationErrors } from "@/lib/features/moderation/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Report a listing",
      description:
        'Reports a listing to staff with a `reason` (spam, harassment, hate, violence, sexual, misinformation, other) and an optional `note` (at most 1000 characters; required when the reason is "other"). One open report per user and listing: a second while the first is open is 409 ALREADY_REPORTED (concurrent ones included); once staff reviewed it, the listing may be reported again. No such listing is 404. Reporting your own listing is 400 CANNOT_REPORT_OWN. The caller follows its status in GET /api/v1/me/reports.',
      tags: ["Marketplace"],
      auth: "bearer",
      params: listingIdParams,
      body: reportBody,
      rateLimit: "write",
      status: 201,
      response: accountReport,
      errors: [sharedErrors.NOT_FOUND, moderationErrors.CANNOT_REPORT_OWN, moderationErrors.ALREADY_REPORTED],
    },
    ({ user, params, body }) => reportTarget(db, user.id, { kind: "listing", id: params.listingId }, body.reason, body.note),
  ),
});
