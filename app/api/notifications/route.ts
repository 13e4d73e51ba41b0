import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { notificationListQuery, notificationPage } from "@/lib/core/notifications/schemas";
import { listNotifications } from "@/lib/core/notifications/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My notifications",
      description:
        "The caller's notifications, keyset-paginated (`limit` 1..50, default 20; `nextCursor` only when more remain). `filter`: `inbox` (default: not archived), `unread`, `archived` (most recently archived first) or `all`; inbox, unread and all are newest first by id (UUIDv7), so equal creation times never skip or repeat a row across pages. `types` narrows to a comma-separated list of types. Each notification carries `readAt`, `archivedAt` and a `payload` by `type` (title, body, `href` to deep-link, and the game or milestone). Notifications whose body matches the caller's `notifications` keyword filters are left out of the page read: a page may be short (even empty) with a `nextCursor` continuing after the last one read.",
      tags: ["Notifications"],
      auth: "bearer",
      query: notificationListQuery,
      response: notificationPage,
    },
    ({ user, query }) => listNotifications(db, user.id, query),
  ),
});
