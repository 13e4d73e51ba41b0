import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { REP_MILESTONES, producerResult } from "@/lib/core/notifications/schemas";
import { runRepMilestones } from "@/lib/core/notifications/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Rep milestones (Vercel Cron)",
      description:
        "Called hourly by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        `Writes a MILESTONE (cause \`milestone:rep:<threshold>\`, thresholds ${REP_MILESTONES.join(", ")}) for the highest threshold each user with \`notifyMilestones\` on has reached with their Rep balance, unless one at that threshold or above exists. ` +
        "One INSERT … SELECT … ON CONFLICT DO NOTHING on the cause key (unique per user): running it again, or concurrently, writes nothing twice. Answers how many notifications this run wrote.",
      tags: ["Admin"],
      auth: "cron",
      response: producerResult,
    },
    () => runRepMilestones(db),
  ),
});
