import { z } from "zod";
import { db } from "@/lib/db/client";
import { gameIdParams } from "@/lib/features/games/schemas";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { openGameStream } from "@/lib/features/live/service";

// A long-lived answer: never prerendered, and allowed the platform's longest run (the stream ends itself sooner).
export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Matchday room (Server-Sent Events)",
      description:
        "`text/event-stream` for one game. Events: `snapshot` first (`{ game, timeline }`: the game as GET /api/events/live lists it and its newest 30 timeline events), then as they come: " +
        "`timeline` (`{ event, amended? }`: a new timeline event as GET …/timeline gives it, and for an amendment the event it corrected, marked), `score` (`{ gameId, score }`), `status` (`{ gameId, status, previous }`), " +
        "`lock` at kick-off (`{ gameId, startsAt, lockedAt, crowd }`: predictions are closed; `crowd` is the prediction split, null when not available), `stats` (`{ players }`: player lines that changed), " +
        "`post` (`{ postId, teamIds, authorTeamId, excerpt, path }`: a public locker-room post of either team published while the game is live) and, at full time, `rating_prompt` (`{ gameId, ratings, score }`: rate the players at POST /api/events/{gameId}/ratings), after which the stream closes. " +
        "A game already over (final, canceled) answers its snapshot and closes. " +
        "Every event has an id: reconnecting with `Last-Event-ID` replays what was missed while the live change feed still holds it (the last 20,000 events of all games), else starts with a fresh snapshot. Events reach streams on every instance. " +
        "A `: heartbeat` comment comes every 15 s; the stream ends itself before the function's time limit (about 4.5 minutes) with `retry: 3000` and a `reconnect` event, and clients reconnect. " +
        "Public. The same per-caller cap as the other streams: at most `STREAMS_PER_CALLER` (default 5) live streams at once across every instance (a Bearer session's user, else the client address); past that, 429 `TOO_MANY_STREAMS` with `Retry-After`.",
      tags: ["Events"],
      auth: "optional",
      params: gameIdParams,
      response: z.instanceof(Response),
      envelope: false,
      errors: [sharedErrors.NOT_FOUND, sharedErrors.TOO_MANY_STREAMS],
      openapi: {
        successResponses: {
          "200": {
            description: "An event stream.",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
        },
      },
    },
    async ({ user, params, req }) => openGameStream(db, req, user?.id ?? null, params.gameId),
  ),
});
