import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { announcementCreateBody, announcementResponse } from "@/lib/features/announcements/schemas";
import { createAnnouncement } from "@/lib/features/announcements/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Create an announcement (staff)",
      description:
        "An announcement every fan sees from `startsAt` (default now; at most a year ahead) until `endsAt` (after the start, in the future, at most a year ahead; omitted: until ended): `title`, `body`, optional https `linkUrl`. Audited.",
      tags: ["Admin"],
      auth: "admin",
      body: announcementCreateBody,
      rateLimit: "write",
      status: 201,
      response: announcementResponse,
    },
    ({ user, body, requestId }) => createAnnouncement(db, body, apiActor(user, requestId)),
  ),
});
