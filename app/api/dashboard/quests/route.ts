import { db } from "@/lib/db/client";
import { questsToday } from "@/lib/operations/dashboard/schemas";
import { questsTodayOf } from "@/lib/operations/dashboard/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Today's quests",
      description:
        "The quests offered to the caller now with their progress (as in GET /api/v1/engage/quests), how many are completed in their current period, and the daily streak.",
      tags: ["Dashboard"],
      auth: "bearer",
      response: questsToday,
    },
    ({ user }) => questsTodayOf(db, user.id),
  ),
});
