import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { adminTrendTagResponse, reviewTagBody, tagParams } from "@/lib/features/tags/schemas";
import { reviewTag } from "@/lib/features/tags/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Approve or reject a tag for the trends (staff)",
      description:
        "Sets the tag's review state: `approved` (it may trend), `rejected` (it never trends) or `pending` (back to review). Audited (`tag.trend_review`, before and after) in the same transaction; setting the state it already has changes and records nothing. " +
        "Answers the tag with its window's counts. A tag nobody used or followed is 404.",
      tags: ["Admin"],
      auth: "admin",
      params: tagParams,
      body: reviewTagBody,
      rateLimit: "write",
      response: adminTrendTagResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, body, requestId }) => reviewTag(db, params.tag, body.status, apiActor(user, requestId)),
  ),
});
