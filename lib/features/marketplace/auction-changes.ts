// The live auction: GET /api/v1/marketplace/listings/{id}/stream. Bids, soft-close extensions and settlements are
// appended (after their transaction commits) to the auctions' change feed (lib/redis/changes.ts: a capped Redis Stream
// every instance reads), and each stream sends its listing's: `snapshot` first (the listing), then `bid`, `extended`
// and `end` (after which the stream closes). Event ids are the feed's: Last-Event-ID resumes while the feed holds them.
import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { env } from "../../env";
import { feedStream, sse } from "../../http/change-stream";
import { notFound } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { changeFeed, type ChangeFeed } from "../../redis/changes";
import { toListing, unavailable } from "./ownership";
import { listingById } from "./queries";

export type AuctionEventType = "bid" | "extended" | "end";
export interface AuctionEvent {
  type: AuctionEventType;
  listingId: string;
  data: unknown;
}
export interface AuctionChange extends AuctionEvent {
  id: string;
}

export const AUCTION_FEED_LENGTH = 10_000;

function auctionFeed(): Promise<ChangeFeed<AuctionEvent, AuctionChange>> {
  return changeFeed("auction", `${env().RATE_LIMIT_PREFIX}:auctions`, AUCTION_FEED_LENGTH, {
    encode: (e: AuctionEvent) => [e.listingId, e.type, JSON.stringify(e.data)],
    decode: (id, listingId, type, data): AuctionChange => ({ id, listingId, type: type as AuctionEventType, data: JSON.parse(data) as unknown }),
  });
}

/** Appends committed auction events to the feed; a feed that cannot take them costs the streams the events, not the bid. */
export async function publishAuctionEvents(events: AuctionEvent[]) {
  if (!events.length) return;
  try {
    await (await auctionFeed()).append(events);
  } catch (error) {
    log("warn", { msg: "auction feed append failed", error: String(error) });
  }
}

/** What a stream event says of the auction: its price, leader, count and end (never a bidder's maximum). */
export const auctionState = (l: ReturnType<typeof toListing>) => ({
  id: l.id,
  status: l.status,
  price: l.price,
  minNextBid: l.minNextBid,
  bidCount: l.bidCount,
  topBidderId: l.topBidderId,
  reserveMet: l.reserveMet,
  endsAt: l.endsAt,
  sale: l.sale,
});

export async function openAuctionStream(db: RawDb | DbTx, req: Request, bearerUserId: string | null, listingId: string): Promise<Response> {
  const first = await listingById(db, listingId);
  if (!first) throw notFound("Listing");
  if (first.listingKind !== "auction") throw unavailable("Only an auction has a live stream.");
  const feed = await auctionFeed();
  let closed = false;
  return feedStream(req, bearerUserId, {
    feed,
    eventsOf: (batch) => batch.filter((c) => c.listingId === listingId).map((c) => sse(c.type, c.id, c.data)),
    async snapshot(at) {
      const listing = toListing((await listingById(db, listingId))!);
      const out = [sse("snapshot", at, { listing })];
      // Closed already: the end follows at once and the stream closes.
      closed = listing.status !== "active";
      if (closed) out.push(sse("end", at, { listing: auctionState(listing) }));
      return out;
    },
    endWhen: (batch) => batch.some((c) => c.listingId === listingId && c.type === "end"),
    endAfterSnapshot: () => closed,
    // Resuming a stream of an auction that had closed before the request: the replay held its end (or the client has
    // it), nothing more can come.
    endAfterReplay: () => first.status !== "active",
  });
}
