import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { pageQuery, postPage } from "@/lib/features/lockerroom/schemas";
import { listScheduled } from "@/lib/features/lockerroom/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My scheduled posts",
      description:
        "The caller's scheduled posts that are not published yet, soonest first (keyset). Reschedule or cancel them at /api/locker-room/scheduled/{postId}.",
      tags: ["Locker room"],
      auth: "bearer",
      query: pageQuery,
      response: postPage,
    },
    ({ user, query }) => listScheduled(db, user, query),
  ),
});
