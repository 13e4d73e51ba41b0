import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { grantResult } from "@/lib/features/progress/schemas";
import { runBadgesCron } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Badge backfill (Vercel Cron)",
      description:
        "Called hourly by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        "Records this season's and the previous season's peak of Rep earned for every fan who earned (tiers only rise within a season; the previous season's last hours count however many runs were missed before it ended), then grants every badge that qualifies and is missing: INSERT … ON CONFLICT DO NOTHING on (user, badge, grant key), so running it again or concurrently grants nothing twice. " +
        'Then numbers the "I was there" keepsakes of verified arena check-ins at a game that have none, per game in arrival order, under an advisory lock (concurrent runs never give a number twice). Answers how many grants and keepsakes this run wrote.',
      tags: ["Admin"],
      auth: "cron",
      response: grantResult,
    },
    () => runBadgesCron(db),
  ),
});
