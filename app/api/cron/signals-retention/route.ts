import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { retentionResult } from "@/lib/core/signals/schemas";
import { purgeExpiredSignals, RETENTION_BATCH, RETENTION_MAX_BATCHES, RETENTION_TIME_BUDGET_MS } from "@/lib/core/signals/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Delete expired feed signals (Vercel Cron)",
      description:
        "Called daily by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        "Deletes the feed signals received more than SIGNALS_RETENTION_DAYS days ago (default 90), oldest first, " +
        `${RETENTION_BATCH} stored batches (of up to 50 events) per statement, at most ${RETENTION_MAX_BATCHES} statements or ${RETENTION_TIME_BUDGET_MS / 1000} s per call; \`deleted\` counts events ` +
        "(`complete: false`: the rest goes on the next call). Running it again deletes nothing more.",
      tags: ["Admin"],
      auth: "cron",
      response: retentionResult,
    },
    () => purgeExpiredSignals(db, { retentionDays: env().SIGNALS_RETENTION_DAYS }),
  ),
});
