import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cronResult, POINTS } from "@/lib/features/predictions/schemas";
import { CRON_BUDGET_MS, runSettleCron } from "@/lib/features/predictions/settle";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Settle match predictions (cron)",
      description:
        "Called every 5 minutes by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`. Settles every final game's predictions: " +
        `exact score ${POINTS.exact} points, right outcome and goal difference ${POINTS.goalDifference}, right outcome ${POINTS.outcome}, else ${POINTS.miss}; void predictions 0; ` +
        "each point is 1 Club Rep under a grant key per fan, game and settlement version. A game is settled once (its settlement row locked with FOR UPDATE SKIP LOCKED: two runs at once never settle it twice) and again when its final score, kick-off or status changes afterwards: the Rep difference is written as a new credit or debit entry (a debit takes at most the fan's balance), never by editing an entry. " +
        `At most ${CRON_BUDGET_MS / 1000} s per call.`,
      tags: ["Cron"],
      auth: "cron",
      response: cronResult,
    },
    () => runSettleCron(db),
  ),
});
