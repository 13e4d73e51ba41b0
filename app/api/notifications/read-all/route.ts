import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { readAllBody, readAllResult } from "@/lib/core/notifications/schemas";
import { readAll } from "@/lib/core/notifications/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Mark all my notifications read",
      description:
        "Marks the caller's unread notifications read in one statement, bounded to what the caller can have seen: notifications created after this request started stay unread, and with `{ upTo: <id> }` (the newest notification the client showed) so do those newer than it (greater ids). Answers how many this request marked (`marked`; 0 on a repeat). The body is optional.",
      tags: ["Notifications"],
      auth: "bearer",
      body: readAllBody,
      bodyRequired: false,
      rateLimit: "write",
      response: readAllResult,
    },
    ({ user, body }) => readAll(db, user.id, new Date(), body?.upTo),
  ),
});
