import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { MAX_EVENTS_PER_BATCH, SIGNALS_BODY_LIMIT, signalBatch, signalsResult } from "@/lib/core/signals/schemas";
import { ingestSignals } from "@/lib/core/signals/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Send a batch of feed signals",
      description:
        `Behavioural events (impressions, views, clicks, dwell time, shares, likes, hides…) for feed personalization. 1..${MAX_EVENTS_PER_BATCH} events per batch ` +
        `(more: 400 naming \`body.events\`), a body of at most ${SIGNALS_BODY_LIMIT} bytes (413 PAYLOAD_TOO_LARGE), at most 30 batches per minute per user ` +
        "(policy `signals`: 429 RATE_LIMITED with Retry-After). One invalid event refuses the whole batch with 400 naming it (`body.events.3.at`); nothing is stored. " +
        "Answers 200 once the batch is settled: stored (`accepted`; an `eventId` repeated in the batch counts in `duplicates`, and when every event has an `eventId`, " +
        "sending the same events again stores nothing more and counts them all in `duplicates`, so a retry is safe), " +
        "or, when the caller's `analyticsPersonalization` setting is false, dropped unstored (`accepted: 0`, `dropped`, `droppedReason`). " +
        'Send it as `application/json` with `Authorization`: from a page being hidden or closed use `fetch(url, { method: "POST", keepalive: true, headers })`; ' +
        "`navigator.sendBeacon` cannot send an Authorization header, so it cannot call this route (its `text/plain` bodies are refused with 400 at `headers.content-type`). " +
        "Signals are kept for SIGNALS_RETENTION_DAYS days (default 90).",
      tags: ["Feed"],
      auth: "bearer",
      body: signalBatch,
      bodyLimit: SIGNALS_BODY_LIMIT,
      rateLimit: "signals",
      response: signalsResult,
    },
    ({ user, body }) => ingestSignals(db, user.id, body.events),
  ),
});
