import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { AT_RISK_EVENING, atRiskResult, cronAtQuery } from "@/lib/features/progress/schemas";
import { runStreaksCron } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Streak freezes and streak-at-risk notifications (Vercel Cron)",
      description:
        "Called every 15 minutes by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        "First uses held streak freezes for missed UTC days already past (each day one freeze acquired before it began). Then writes a STREAK_AT_RISK notification (cause `streak_at_risk:<UTC day>`) to every fan whose streak is above 0 with no daily quest completed yet this UTC day, " +
        `whose local clock (settings timezone, else UTC) reads ${AT_RISK_EVENING.startHour}:00 to ${AT_RISK_EVENING.endHour}:00, with notifyMilestones on; the in-app preference and quiet hours apply as for every notification. ` +
        "One INSERT … ON CONFLICT DO NOTHING on the cause key: once per fan and UTC day, however often or concurrently it runs. `at` runs it as of another instant.",
      tags: ["Admin"],
      auth: "cron",
      query: cronAtQuery,
      response: atRiskResult,
    },
    ({ query }) => runStreaksCron(db, query.at ? new Date(query.at) : new Date()),
  ),
});
