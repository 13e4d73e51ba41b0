import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { syncRunSchema } from "@/lib/features/sync/schemas";
import { runSync } from "@/lib/features/sync/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Scheduled league/team sync (Vercel Cron)",
      description:
        "Called hourly by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. Runs a full sync (scope `all`, trigger `cron`) and answers the run record; a failed run is recorded and answered with `status: failed`.",
      tags: ["Admin"],
      auth: "cron",
      response: syncRunSchema,
    },
    async () => runSync(db, { scope: "all", trigger: "cron" }),
  ),
});
