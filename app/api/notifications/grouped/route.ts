import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { notificationGroupPage, notificationListQuery } from "@/lib/core/notifications/schemas";
import { listNotificationGroups } from "@/lib/core/notifications/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My notifications, grouped",
      description:
        "Mastodon v2 style grouping over the same page as GET /api/notifications (same `filter`, `types`, `limit` and `cursor`): the page's notifications grouped by `groupKey` (GAME_ALERT, RATING, FOLLOW and FOLLOW_REQUEST of one UTC day together; REACTION and MENTION per post; each MILESTONE alone), groups in the order of their newest notification. Counts and ids are within the page; a group cut by the page boundary continues on the next page under the same key.",
      tags: ["Notifications"],
      auth: "bearer",
      query: notificationListQuery,
      response: notificationGroupPage,
    },
    ({ user, query }) => listNotificationGroups(db, user.id, query),
  ),
});
