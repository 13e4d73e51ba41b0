import { db } from "@/lib/db/client";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { announcementParams, dismissalResponse } from "@/lib/features/announcements/schemas";
import { dismissAnnouncement } from "@/lib/features/announcements/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Dismiss an announcement",
      description:
        "Hides a running announcement from the caller's list. Idempotent (again or concurrently: the first dismissal's time is answered). Unknown, not started or ended: 404.",
      tags: ["Announcements"],
      auth: "bearer",
      params: announcementParams,
      rateLimit: "write",
      response: dismissalResponse,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => dismissAnnouncement(db, user.id, params.announcementId),
  ),
});
