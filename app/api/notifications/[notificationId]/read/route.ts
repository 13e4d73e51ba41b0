import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { notification, notificationIdParams } from "@/lib/core/notifications/schemas";
import { setNotificationState } from "@/lib/core/notifications/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Mark a notification read",
      description:
        "Sets `readAt` (kept from the first time: idempotent) and answers the notification. Read and archived are separate states: reading does not archive. Another user's notification or an unknown id is 404; an id that is not a UUID is 400. No request body.",
      tags: ["Notifications"],
      auth: "bearer",
      params: notificationIdParams,
      rateLimit: "write",
      response: notification,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => setNotificationState(db, user.id, params.notificationId, "read"),
  ),
});
