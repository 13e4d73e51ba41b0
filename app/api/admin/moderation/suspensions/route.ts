import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { suspension, suspensionBody, suspensionPage, suspensionsQuery } from "@/lib/features/moderation/schemas";
import { suspendUser, userSuspensions } from "@/lib/features/moderation/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A user's posting suspensions (staff)",
      description:
        "The user's suspensions, newest first, with `active` (not lifted and not yet ended). Keyset: `limit` 1..100 (default 20), `nextCursor` back as `cursor`.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      query: suspensionsQuery,
      response: suspensionPage,
    },
    ({ query }) => userSuspensions(db, query),
  ),
  POST: route(
    {
      summary: "Suspend a user from posting (staff)",
      description:
        "Suspends the user from creating posts and comments for `hours` (1..8760) from now, with a `reason` (1..500 characters). While in force, their creates answer 403 POSTING_SUSPENDED with the end time in details (the latest end of their active suspensions). `staffId` records the staff member's identity-provider id. Unknown user: 404.",
      tags: ["Admin"],
      auth: "admin",
      staffArea: "moderation",
      body: suspensionBody,
      rateLimit: "write",
      status: 201,
      response: suspension,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, body, requestId }) => suspendUser(db, body, apiActor(user, requestId)),
  ),
});
