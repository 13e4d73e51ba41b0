import { erasureResult } from "@/lib/core/accounts/schemas";
import { ERASURE_BATCH, ERASURE_RETRY_MINUTES, ERASURE_TIME_BUDGET_MS, runAccountErasure } from "@/lib/operations/erasure/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Erase accounts whose deletion is due (Vercel Cron)",
      description:
        "Called hourly by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        `Claims each scheduled deletion past its grace period (FOR UPDATE SKIP LOCKED: concurrent runs never erase one twice; a cancel meanwhile answers 409) and erases the account in one transaction; at most ${ERASURE_BATCH} accounts or ${ERASURE_TIME_BUDGET_MS / 1000} s per call. ` +
        `An account with an auction that has bids (or a mint under way) waits: retried ${ERASURE_RETRY_MINUTES} minutes later, as is one whose erasure failed. ` +
        "Then deletes erased accounts' stored files and identity-provider users, retrying what failed on the next call.",
      tags: ["Admin"],
      auth: "cron",
      response: erasureResult,
    },
    () => runAccountErasure(db),
  ),
});
