import { z } from "zod";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listingParams } from "@/lib/features/marketplace/schemas";
import { openAuctionStream } from "@/lib/features/marketplace/service";
import { errors as marketplaceErrors } from "@/lib/features/marketplace/errors";
import { sharedErrors } from "@/lib/kernel/errors";

// A long-lived answer: never prerendered, and allowed the platform's longest run (the stream ends itself sooner).
export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Live auction (Server-Sent Events)",
      description:
        "`text/event-stream` for one auction. Events: `snapshot` first (`{ listing }`, as GET …/listings/{listingId} gives it), then `bid` (`{ bid, leading, listing }`: the bid as the public bid list shows it, " +
        "whether it leads, and the auction's `price`, `minNextBid`, `bidCount`, `topBidderId`, `reserveMet`, `endsAt`), `extended` (`{ endsAt, listing }`: a soft close moved the end) " +
        "and `end` (`{ listing }` with its `status` and `sale`, after its settlement or a staff cancel, or at once for a closed auction), after which the stream closes. A bidder's maximum is never in an event. " +
        "Every event has an id: reconnecting with `Last-Event-ID` replays what was missed while the auctions' change feed still holds it (the last 10,000 events of all auctions), else starts with a fresh snapshot. Events reach streams on every instance. " +
        "A `: heartbeat` comment comes every 15 s; the stream ends itself before the function's time limit (about 4.5 minutes) with `retry: 3000` and a `reconnect` event, and clients reconnect. " +
        "Public. The same per-caller cap as the leaderboard stream: at most `STREAMS_PER_CALLER` (default 5) live streams at once across every instance (a Bearer session's user, else the client address); past that, 429 `TOO_MANY_STREAMS` with `Retry-After`. " +
        "Not an auction: 409 LISTING_UNAVAILABLE.",
      tags: ["Marketplace"],
      auth: "optional",
      params: listingParams,
      response: z.instanceof(Response),
      envelope: false,
      errors: [sharedErrors.NOT_FOUND, marketplaceErrors.LISTING_UNAVAILABLE, sharedErrors.TOO_MANY_STREAMS],
      openapi: {
        successResponses: {
          "200": {
            description: "An event stream.",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
        },
      },
    },
    async ({ user, params, req }) => openAuctionStream(db, req, user?.id ?? null, params.listingId),
  ),
});
