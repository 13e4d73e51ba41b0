import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { SIGNATURE_TOLERANCE_S } from "@/lib/http/machine-auth";
import { ingestResultSchema, LIVE_BATCH_MAX, LIVE_WEBHOOK_BODY_LIMIT, liveBatchBody } from "@/lib/features/live/schemas";
import { ingestBatch, liveEventsSignature } from "@/lib/features/live/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Live game events (data provider webhook)",
      description: [
        `The data provider's live feed: a batch of up to ${LIVE_BATCH_MAX} events of one or more games (\`{ events: [...] }\`, at most 256 KiB; 413 past it).`,
        "",
        `**Signature.** As the league sync webhook: header \`X-Signature: t=<unix seconds>,v1=<hex>\`, HMAC-SHA256 keyed with the shared secret \`LIVE_EVENTS_WEBHOOK_SECRET\` of the exact bytes \`<t>.<raw request body>\`, \`t\` within ±${SIGNATURE_TOLERANCE_S} s; several \`v1=\` may be sent (rotation). Wrong, missing or stale: 401. No secret configured in production: 503 \`LIVE_FEED_UNAVAILABLE\`.`,
        "",
        "**Events.** Each has the provider's `id` (idempotent: an event already received is a no-op, also when two deliveries race), the `gameId`, the provider's `seq` (higher is newer, per game), a `type` and its fields: " +
          "`kickoff`, `period_start`, `period_end` (game status live), `full_time` (final), `status` (`status`: any game status), `goal` (`teamId`, scorer `playerId`, assist `player2Id`), `card` (`card`: yellow or red), `substitution` (`playerId` off, `player2Id` on), " +
          "`score` (`home`, `away`: the provider's tally), `stat_line` (a player's counting stats so far, written to the game's player lines when its `seq` is newer than the line held) and `amendment` (`amends`: the event it corrects; `action`: `void`, `restore` or `change` with `changes`).",
        "",
        "**State.** The game's status is the highest-seq status-bearing event's; its score the newest `score` event's plus the goals after it, after amendments. Both are recomputed from every event received, so an event that arrives late (a lower seq) never moves the game back. " +
          "An amendment is a timeline row of its own; the event it corrects keeps its fields and is marked (`amendedBy`, `voided`, `corrected`).",
        "",
        "**Answer.** 200 with what was applied, what was already received and what was refused (an unknown game, a team not in the game, an unknown player: send those again once the league sync knows them). Changes reach the games' streams (GET /api/events/{gameId}/stream).",
      ].join("\n"),
      tags: ["Webhooks"],
      auth: "webhook",
      // Public contract, like the league sync webhook: the provider builds its deliveries from this operation.
      internal: false,
      webhook: { verifier: liveEventsSignature },
      // Machine limit: a live feed posts several batches a second; the signature bounds who can post.
      rateLimit: false,
      body: liveBatchBody,
      bodyLimit: LIVE_WEBHOOK_BODY_LIMIT,
      response: ingestResultSchema,
    },
    ({ body }) => ingestBatch(db, body.events, "webhook"),
  ),
});
