import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cronResult } from "@/lib/features/contests/schemas";
import { CRON_BUDGET_MS, RESETTLE_WINDOW_DAYS } from "@/lib/features/contests/settle";
import { runContestsCron } from "@/lib/features/contests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Settle contests whose games are over (cron)",
      description:
        "Called every minute by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`. Settles each contest whose covered games are all final, postponed or canceled, one contest per transaction claimed with FOR UPDATE SKIP LOCKED (two runs at once never settle one twice): scores every lineup from the official player lines (docs/domains/contests.md), ranks them, pays the Rep prizes with keyed grants and unlocks the cards. " +
        `A contest settled within ${RESETTLE_WINDOW_DAYS} days whose games or player lines changed since (an amendment) is re-settled: new scores and ranks, and compensating Rep entries (a credit under a new grant key or a debit), never an edit. At most ${CRON_BUDGET_MS / 1000} s per call.`,
      tags: ["Cron"],
      auth: "cron",
      response: cronResult,
    },
    () => runContestsCron(db),
  ),
});
