import { db } from "@/lib/db/client";
import { exportRun } from "@/lib/operations/exports/schemas";
import { BUILD_BATCH, EXPIRE_BATCH, runExportWorker } from "@/lib/operations/exports/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Build and expire data exports (cron)",
      description:
        "Called every 5 minutes by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; anything else answers 401. " +
        `Claims up to ${BUILD_BATCH} pending exports (and building ones whose claim is over 15 minutes old) with SKIP LOCKED, so concurrent runs never build the same export; ` +
        "reads each user's data in one REPEATABLE READ, read-only transaction, zips it and stores it (Vercel Blob or the local directory) as ready for 7 days. A failed build is retried by later runs, failed for good after 3 attempts. " +
        `Then deletes the files of up to ${EXPIRE_BATCH} ready exports past their 7 days (status expired) and the rows of expired and failed exports requested over 30 days ago.`,
      tags: ["Cron"],
      auth: "cron",
      response: exportRun,
    },
    () => runExportWorker(db),
  ),
});
