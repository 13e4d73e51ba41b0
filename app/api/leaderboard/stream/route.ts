import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { statsQuery } from "@/lib/core/rep/leaderboard/schemas";
import { openStream, SNAPSHOT_SIZE } from "@/lib/core/rep/leaderboard/stream";
import { errors as leaderboardErrors } from "@/lib/core/rep/leaderboard/errors";
import { sharedErrors } from "@/lib/kernel/errors";

// A long-lived answer: never prerendered, and allowed the platform's longest run (the stream ends itself sooner).
export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Live leaderboard (Server-Sent Events)",
      description:
        "`text/event-stream` for one board and period (the same `board` and `period` as GET /api/leaderboard). Events: " +
        `\`snapshot\` first (\`{ board, entries, me }\`: the top ${SNAPSHOT_SIZE} as GET /api/leaderboard gives them, and the caller's entry), ` +
        "then `score` (`{ fan: { id }, points, reachedAt, rank }`) for each fan whose points changed, and `leave` (`{ fan: { id } }`) for a fan who left a team board. " +
        "Every event has an id: reconnecting with `Last-Event-ID` replays the changes missed since it while the change feed still holds them (the last 10,000 changes), else starts with a fresh snapshot. " +
        "A `: heartbeat` comment comes every 15 s; the stream ends itself before the function's time limit (about 4.5 minutes) with `retry: 3000` and a `reconnect` event, and clients reconnect (EventSource does, with its backoff). " +
        "The board is public; the caller, for `me`, is a Bearer session (native clients) or the session cookie a browser's EventSource sends (it cannot send Authorization). " +
        "A caller holds at most `STREAMS_PER_CALLER` (default 5) live streams at once, across every instance: a Bearer session's user, else (session cookie or none) the client address; " +
        "past that, 429 `TOO_MANY_STREAMS` with `Retry-After`. A stream's slot is freed when it ends or the client disconnects.",
      tags: ["Leaderboard"],
      auth: "optional",
      query: statsQuery,
      response: z.instanceof(Response),
      envelope: false,
      errors: [sharedErrors.NOT_FOUND, leaderboardErrors.SEASON_ARCHIVED, sharedErrors.TOO_MANY_STREAMS],
      openapi: {
        successResponses: {
          "200": {
            description: "An event stream.",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
        },
      },
    },
    async ({ user, query, req }) => openStream(db, req, user?.id ?? null, query),
  ),
});
