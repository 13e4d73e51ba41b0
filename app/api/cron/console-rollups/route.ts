import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { ROLLUP_CATCH_UP_DAYS, rollupQuery, rollupResult } from "@/lib/operations/rollups/schemas";
import { runRollups } from "@/lib/operations/rollups/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Recompute the console dashboard's daily metrics (Vercel Cron)",
      description:
        "Called every 10 minutes by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        `Recomputes each daily metric of a range of UTC days ending today from its raw table and upserts it into console_daily_metrics: the last \`days\` days when given (a backfill), else every day since the last one computed after it ended, so a run after missed slots catches up (at least today and yesterday, at most ${ROLLUP_CATCH_UP_DAYS} days) ` +
        "(active fans, sign-ups, Rep issued and spent, check-ins, quiz starts and completions, posts, reports, marketplace sales, volume and fees, top-ups and claw-backs), " +
        "and writes today's snapshot of the moderation queue (open reports, oldest open report's age) and the push outbox (pending, failed). " +
        "Idempotent: running it again writes the same values; concurrent runs take turns per chunk of 7 days (a transaction-scoped advisory lock).",
      tags: ["Admin"],
      auth: "cron",
      query: rollupQuery,
      response: rollupResult,
    },
    ({ query }) => runRollups(db, { days: query.days }),
  ),
});
