import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { fan, openEventStream, testCard } from "../helpers";
import { on } from "./helpers";

// A live auction held on one instance hears a bid made through the other, and a client resuming on the other instance
// with Last-Event-ID gets what it missed: the auctions' change feed lives in Redis.

const card = testCard("Multi auction card", "rare", 1_000);
beforeAll(() => card.create());

describe("auction stream across instances", () => {
  it("a bid through instance A reaches a stream on instance B; a resume on A replays it", async () => {
    const seller = await fan();
    const bidder = await fan(10_000);
    const listed = await on(0).api("POST", "/api/v1/marketplace/listings", {
      headers: seller.auth,
      json: { kind: "auction", collectibleId: await card.give(seller.id), startingPrice: 1_000, endsAt: new Date(Date.now() + 7_200_000).toISOString() },
    });
    expect(listed.status).toBe(201);
    const id = listed.body.data.listing.id as string;
    const stream = await openEventStream(`/api/v1/marketplace/listings/${id}/stream`, { base: on(1).base });
    let snapshotId: string;
    try {
      snapshotId = (await stream.next((e) => e.event === "snapshot")).id!;
      const placed = await on(0).api("POST", `/api/v1/marketplace/listings/${id}/bids`, {
        headers: { ...bidder.auth, "idempotency-key": randomUUID() },
        json: { amount: 1_000, maxAmount: 3_000 },
      });
      expect(placed.status).toBe(201);
      const event = await stream.next((e) => e.event === "bid");
      expect(event.data).toMatchObject({ leading: true, bid: { bidderId: bidder.id, maxAmount: null }, listing: { price: 1_000, topBidderId: bidder.id } });
    } finally {
      stream.close();
    }
    const resumed = await openEventStream(`/api/v1/marketplace/listings/${id}/stream`, { base: on(0).base, headers: { "last-event-id": snapshotId } });
    try {
      expect((await resumed.next((e) => e.event === "bid")).data.listing.price).toBe(1_000);
    } finally {
      resumed.close();
    }
  });
});
