import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { unreadCountOf } from "@/lib/core/notifications/queries";
import { UNREAD_COUNT_CAP, unreadCount } from "@/lib/core/notifications/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My unread notification count",
      description: `The caller's unread notifications (archived ones are read), counted up to ${UNREAD_COUNT_CAP}: past it the answer is \`{ count: ${UNREAD_COUNT_CAP}, capped: true }\` (show "${UNREAD_COUNT_CAP}+"). The count stops there, so it stays cheap however many there are.`,
      tags: ["Notifications"],
      auth: "bearer",
      response: unreadCount,
    },
    ({ user }) => unreadCountOf(db, user.id),
  ),
});
