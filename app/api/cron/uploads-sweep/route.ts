import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { LOCKER_MEDIA_GRACE_MS } from "@/lib/core/uploads/kinds";
import { sweepResult } from "@/lib/core/uploads/schemas";
import { SWEEP_BATCH, SWEEP_MAX_BATCHES, sweepUploads } from "@/lib/core/uploads/sweep";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Scheduled sweep of unused uploads (Vercel Cron)",
      description:
        "Called hourly by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        `Deletes, from storage and then their records, locker-media uploads no post has attached (pending) that are older than ${LOCKER_MEDIA_GRACE_MS / 3_600_000} h, ` +
        "and replaced avatars, banners and binder covers whose earlier delete failed (records no user or binder references). " +
        `Bounded: batches of ${SWEEP_BATCH}, at most ${SWEEP_MAX_BATCHES} batches of each kind per call; the rest waits for the next call. ` +
        "Each batch's rows are claimed with FOR UPDATE SKIP LOCKED, so two sweeps at once never delete or count one twice. " +
        "A file that cannot be deleted keeps its record (retried next time) and counts in `failed`.",
      tags: ["Admin"],
      auth: "cron",
      response: sweepResult,
    },
    async () => sweepUploads(db),
  ),
});
