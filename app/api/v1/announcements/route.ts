import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { announcementList, ANNOUNCEMENTS_MAX } from "@/lib/features/announcements/schemas";
import { listAnnouncements } from "@/lib/features/announcements/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Running announcements",
      description: `The announcements running now (startsAt <= now < endsAt, or no end), newest start first, at most ${ANNOUNCEMENTS_MAX}. With a session token the ones the fan dismissed are left out.`,
      tags: ["Announcements"],
      auth: "optional",
      response: announcementList,
    },
    ({ user }) => listAnnouncements(db, user),
  ),
});
