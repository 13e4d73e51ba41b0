import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { dailySummary } from "@/lib/features/quests/schemas";
import { dailySummary as summarize } from "@/lib/features/quests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Daily checklist per followed team",
      description:
        "For each team the caller follows or joined, on the caller's UTC day: the team's quiz quest (completed or not, session, what it awards) and arena check-in (done or not, what it awards), plus the daily streak: consecutive UTC days with at least one completed daily quest (`current` is 0 once the last such day is older than yesterday).",
      tags: ["Quests"],
      auth: "bearer",
      response: dailySummary,
    },
    ({ user }) => summarize(db, user.id),
  ),
});
