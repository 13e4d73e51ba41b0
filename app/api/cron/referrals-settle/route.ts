import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sweepResult } from "@/lib/features/referrals/schemas";
import { settleMissedReferrals } from "@/lib/features/referrals/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Settle missed referral rewards (Vercel Cron)",
      description:
        "Called every 15 minutes by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        "Referrals are settled right after the write that qualifies the referee (onboarding complete and a first quest completed). This run settles those that write did not: a quest completed outside a request, or a settlement that failed. " +
        "Each referee is settled exactly once, whoever settles it (this run, another run, or the referee's own request), with the referrer's monthly cap counted under the referrer's lock.",
      tags: ["Admin"],
      auth: "cron",
      response: sweepResult,
    },
    () => settleMissedReferrals(db),
  ),
});
