import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { announcementParams, announcementResponse } from "@/lib/features/announcements/schemas";
import { endAnnouncement } from "@/lib/features/announcements/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  DELETE: route(
    {
      summary: "End an announcement now (staff)",
      description:
        "Sets its end to now: fans no longer see it (the row and its dismissals stay). Audited. Idempotent: one that has already ended is answered unchanged. Unknown: 404.",
      tags: ["Admin"],
      auth: "admin",
      params: announcementParams,
      rateLimit: "write",
      response: announcementResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params, requestId }) => endAnnouncement(db, params.announcementId, apiActor(user, requestId)),
  ),
});
