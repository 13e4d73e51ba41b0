import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { deliverResult } from "@/lib/core/push/schemas";
import { deliverDue } from "@/lib/core/push/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Deliver due push notifications (Vercel Cron)",
      description:
        "Called every minute by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`; any other Authorization value, none, or an unset CRON_SECRET answers 401. " +
        "Claims up to 100 due outbox rows (FOR UPDATE SKIP LOCKED: concurrent runs and the after-request attempt never take the same row) and sends each at most once per user and cause key to the user's devices: " +
        "dropped when stale (older than PUSH_STALE_HOURS), when the actor and the user block each other, when push is off for its type or no device is left; in the user's quiet hours it waits until they end; " +
        "a failure retries after PUSH_RETRY_BASE_SECONDS × 2^(attempts − 1), failed after PUSH_MAX_ATTEMPTS. A dead token (Expo DeviceNotRegistered in a ticket or receipt, web push 404/410) removes the device. Then reads due Expo receipts.",
      tags: ["Admin"],
      auth: "cron",
      response: deliverResult,
    },
    () => deliverDue(db),
  ),
});
