import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, newUser, openEventStream, testCard } from "../helpers";

// Auctions that cannot be sniped: proxy bids (the maximum held, eBay's arithmetic, ties to the earlier bid), the soft
// close (a late bid moves the end, the cron re-reads it under its claim), OUTBID once per displaced leader, the
// caller's bids per auction, and the live auction stream. Every race ends with the database and every balance checked.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/marketplace", { headers: { authorization: `Bearer ${cronSecret()}` } });
const key = () => randomUUID();
const FEE = (price: number) => Math.floor((price * 500) / 10_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Fan = Awaited<ReturnType<typeof fan>>;

const balance = async (f: Fan) => (await api("GET", "/api/v1/wallet", { headers: f.auth })).body.data.wallets[0].balance as number;

const card = testCard("Auction test card", "legendary", 10_000);
beforeAll(() => card.create());

const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const auction = async (seller: Fan, extra: Record<string, unknown> = {}) => {
  const res = await api("POST", "/api/v1/marketplace/listings", {
    headers: seller.auth,
    json: { kind: "auction", collectibleId: await card.give(seller.id), startingPrice: 1_000, minIncrement: 100, endsAt: hoursAhead(2), ...extra },
  });
  expect(res.status).toBe(201);
  return res.body.data.listing;
};
const bid = (f: Fan, listingId: string, amount: number, maxAmount?: number, k = key()) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/bids`, {
    headers: { ...f.auth, "idempotency-key": k },
    json: maxAmount === undefined ? { amount } : { amount, maxAmount },
  });
const getListing = async (id: string) => (await api("GET", `/api/v1/marketplace/listings/${id}`)).body.data.listing;
const endNow = (listingId: string) => db().$executeRaw`UPDATE listings SET ends_at = now() - interval '1 second' WHERE id = ${listingId}::uuid`;
const outbids = (userId: string, listingId: string) =>
  db().notification.count({ where: { userId, type: "OUTBID", payload: { path: ["listingId"], equals: listingId } } });
const myBids = (f: Fan, q = "") => api("GET", `/api/v1/marketplace/bids${q}`, { headers: f.auth });
const heldBids = (listingId: string) => db().bid.findMany({ where: { listingId, releasedAt: null } });

describe("proxy bids", () => {
  it("the higher maximum leads at the other maximum plus the increment; equal maxima go to the earlier bid; the maximum is held and hidden", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const [a, b, c, d] = await Promise.all([fan(10_000), fan(10_000), fan(10_000), fan(10_000)]);

    expect(errorOf(await bid(a, listing.id, 1_200, 1_100))).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "body.maxAmount" }] });

    // A opens at the starting price with a maximum of 3,000: all of it is held.
    const first = await bid(a, listing.id, 1_000, 3_000);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ leading: true, bid: { amount: 1_000, maxAmount: 3_000 }, listing: { price: 1_000, minNextBid: 1_100 } });
    expect(await balance(a)).toBe(7_000);

    // B's maximum 2,000 loses: A rises to 2,000 + 100, B is refunded at once, nobody is notified.
    const second = await bid(b, listing.id, 1_100, 2_000);
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ leading: false, bid: { amount: 2_000, maxAmount: 2_000 } });
    expect(second.body.data.listing).toMatchObject({ price: 2_100, minNextBid: 2_200, topBidderId: a.id, bidCount: 2 });
    expect(await balance(b)).toBe(10_000);
    expect(await balance(a)).toBe(7_000);

    // C ties A's maximum: the earlier bid (A) keeps the lead at that maximum, capped there.
    const tie = await bid(c, listing.id, 2_200, 3_000);
    expect(tie.body.data).toMatchObject({ leading: false, listing: { price: 3_000, topBidderId: a.id } });
    expect(await balance(c)).toBe(10_000);

    // Nobody else sees A's maximum; A does.
    const publicBids = (await api("GET", `/api/v1/marketplace/listings/${listing.id}/bids`)).body.data.bids;
    expect(publicBids.map((x: { amount: number; maxAmount: number | null }) => [x.amount, x.maxAmount])).toEqual([
      [3_000, null],
      [2_000, null],
      [3_000, null],
    ]);
    const asA = (await api("GET", `/api/v1/marketplace/listings/${listing.id}/bids`, { headers: a.auth })).body.data.bids;
    expect(asA.find((x: { bidderId: string }) => x.bidderId === a.id).maxAmount).toBe(3_000);
    expect(asA.filter((x: { maxAmount: number | null }) => x.maxAmount !== null)).toHaveLength(1);

    // D's maximum 5,000 beats 3,000: D leads at 3,000 + 100 (its amount is no more); A's hold goes back with one OUTBID.
    const top = await bid(d, listing.id, 3_100, 5_000);
    expect(top.body.data).toMatchObject({ leading: true, listing: { price: 3_100, topBidderId: d.id } });
    expect(await balance(a)).toBe(10_000);
    expect(await balance(d)).toBe(5_000);
    expect(await outbids(a.id, listing.id)).toBe(1);
    for (const x of [b, c, d]) expect(await outbids(x.id, listing.id)).toBe(0);
    expect((await heldBids(listing.id)).map((h) => h.bidderId)).toEqual([d.id]);

    // The caller's bids per auction while it runs.
    expect((await myBids(a)).body.data.auctions).toEqual([
      expect.objectContaining({ listingId: listing.id, state: "outbid", bidCount: 1, highestAmount: 3_000, maxAmount: 3_000 }),
    ]);
    expect((await myBids(d)).body.data.auctions[0]).toMatchObject({ state: "leading", maxAmount: 5_000, listing: { id: listing.id, price: 3_100 } });

    // Settlement: D pays the price, not the maximum; the rest of the hold goes back.
    await endNow(listing.id);
    await cron();
    expect(await getListing(listing.id)).toMatchObject({ status: "sold", sale: { buyerId: d.id, price: 3_100, fee: FEE(3_100) } });
    expect(await balance(d)).toBe(10_000 - 3_100);
    expect(await balance(seller)).toBe(3_100 - FEE(3_100));
    for (const x of [a, b, c]) expect(await balance(x)).toBe(10_000);
    expect((await myBids(d)).body.data.auctions[0]).toMatchObject({ listingId: listing.id, state: "won" });
    for (const x of [a, b, c]) expect((await myBids(x)).body.data.auctions[0]).toMatchObject({ listingId: listing.id, state: "lost" });
    expect((await myBids(a, "?state=won")).body.data.auctions).toEqual([]);
    expect((await myBids(d, "?state=won")).body.data.auctions.map((x: { listingId: string }) => x.listingId)).toEqual([listing.id]);
  });

  it("a leader's automatic raise notifies nobody; each displaced leader is told exactly once; the bids list pages and filters", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const [a, b] = await Promise.all([fan(20_000), fan(20_000)]);
    await bid(a, listing.id, 1_000, 5_000);
    for (const amount of [1_100, 2_000, 3_000]) expect((await bid(b, listing.id, amount)).body.data.leading).toBe(false);
    expect(await outbids(a.id, listing.id)).toBe(0);
    expect(await outbids(b.id, listing.id)).toBe(0);
    expect((await getListing(listing.id)).price).toBe(3_100);
    // B takes the lead (A told once), A takes it back (B told once).
    expect((await bid(b, listing.id, 5_100)).body.data.leading).toBe(true);
    expect(await outbids(a.id, listing.id)).toBe(1);
    expect((await bid(a, listing.id, 5_200, 9_000)).body.data).toMatchObject({ leading: true, listing: { price: 5_200 } });
    expect(await outbids(b.id, listing.id)).toBe(1);
    expect(await outbids(a.id, listing.id)).toBe(1);
    expect(await balance(a)).toBe(11_000);
    expect(await balance(b)).toBe(20_000);

    // A second auction for B: the caller's list has one entry per auction, newest first, in keyset pages.
    const other = await auction(seller);
    await bid(b, other.id, 1_000);
    const page1 = (await myBids(b, "?limit=1")).body.data;
    expect(page1.auctions.map((x: { listingId: string }) => x.listingId)).toEqual([other.id]);
    const page2 = (await myBids(b, `?limit=1&cursor=${page1.nextCursor}`)).body.data;
    expect(page2.auctions).toEqual([expect.objectContaining({ listingId: listing.id, state: "outbid", bidCount: 4 })]);
    expect(page2.nextCursor).toBeUndefined();
    expect((await myBids(b, "?state=leading")).body.data.auctions.map((x: { listingId: string }) => x.listingId)).toEqual([other.id]);
    expect(errorOf(await myBids(b, "?state=winning")).code).toBe("VALIDATION_ERROR");
    expect((await api("GET", "/api/v1/marketplace/bids")).status).toBe(401);
  });

  it("a leader who bids again raises their maximum, not the price", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const [a, b] = await Promise.all([fan(10_000), fan(10_000)]);
    expect((await bid(a, listing.id, 1_000, 3_000)).status).toBe(201);
    expect((await bid(b, listing.id, 1_100, 2_000)).body.data.listing).toMatchObject({ price: 2_100, topBidderId: a.id });
    // A raises the maximum to 5,000 (the amount must still be at least the next minimum): the price stays 2,100.
    const again = await bid(a, listing.id, 2_200, 5_000);
    expect(again.status, again.text).toBe(201);
    expect(again.body.data).toMatchObject({ leading: true, listing: { price: 2_100, minNextBid: 2_200, topBidderId: a.id } });
    expect(await balance(a)).toBe(5_000);
    // B needs more than 5,000 now; at 4,000 A rises to 4,100.
    expect((await bid(b, listing.id, 2_200, 4_000)).body.data.listing).toMatchObject({ price: 4_100, topBidderId: a.id });
    expect(await outbids(a.id, listing.id)).toBe(0);
  });

  it("a maximum that meets the reserve stands at the reserve", async () => {
    const seller = await fan();
    const listing = await auction(seller, { reservePrice: 4_000 });
    const a = await fan(10_000);
    expect((await bid(a, listing.id, 1_000, 6_000)).body.data.listing).toMatchObject({ price: 4_000, reserveMet: true });
  });
});

describe("soft close", () => {
  it("20 concurrent bids in the last seconds: one leader, the end moved to now + 2 minutes, only the leader's maximum held", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    await db().$executeRaw`UPDATE listings SET ends_at = now() + interval '20 seconds' WHERE id = ${listing.id}::uuid`;
    const bidders = await Promise.all(Array.from({ length: 20 }, () => fan(10_000)));
    const started = Date.now();
    // Bidder i offers 1,000 + 100 i with a maximum 50 above; the last one 5,000 up to 6,000, always enough to lead.
    const results = await Promise.all(
      bidders.map((f, i) => (i === 19 ? bid(f, listing.id, 5_000, 6_000) : bid(f, listing.id, 1_000 + 100 * i, 1_050 + 100 * i))),
    );
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(results.filter((r) => r.status === 409).every((r) => errorOf(r).code === "BID_TOO_LOW")).toBe(true);
    expect(results[19]!.status).toBe(201);

    const after = await getListing(listing.id);
    expect(after.topBidderId).toBe(bidders[19]!.id);
    const endsAt = new Date(after.endsAt).getTime();
    expect(endsAt).toBeGreaterThanOrEqual(started + 120_000 - 5_000);
    expect(endsAt).toBeLessThanOrEqual(Date.now() + 120_000 + 1_000);
    expect((await heldBids(listing.id)).map((h) => h.bidderId)).toEqual([bidders[19]!.id]);
    const balances = await Promise.all(bidders.map(balance));
    expect(balances.slice(0, 19)).toEqual(Array(19).fill(10_000));
    expect(balances[19]).toBe(4_000);
    // Each displaced leader is told exactly once: every bid that took the lead but the first displaced one.
    const leads = results.filter((r) => r.status === 201 && r.body.data.leading).length;
    expect(await db().notification.count({ where: { type: "OUTBID", payload: { path: ["listingId"], equals: listing.id } } })).toBe(leads - 1);
    expect(await outbids(bidders[19]!.id, listing.id)).toBe(0);

    await endNow(listing.id);
    await cron();
    const sold = await getListing(listing.id);
    expect(sold).toMatchObject({ status: "sold", sale: { buyerId: bidders[19]!.id } });
    expect(await balance(bidders[19]!)).toBe(10_000 - sold.price);
  });

  it("a bid far from the end leaves it; the cron skips an auction a bid extended after the cron selected it", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const [a, b] = await Promise.all([fan(5_000), fan(5_000)]);
    await bid(a, listing.id, 1_000);
    expect((await getListing(listing.id)).endsAt).toBe(listing.endsAt);

    await db().$executeRaw`UPDATE listings SET ends_at = now() + interval '3 seconds' WHERE id = ${listing.id}::uuid`;
    const endsAt = (await db().listing.findUniqueOrThrow({ where: { id: listing.id } })).endsAt!.getTime();
    let late: ReturnType<typeof bid> | undefined;
    let run: ReturnType<typeof cron> | undefined;
    // Hold the listing's row lock (as a slow bid would): B's bid, sent before the end, waits for it; the cron, run
    // after the end, claims the item and waits for it too, behind B.
    await db().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM listings WHERE id = ${listing.id}::uuid FOR UPDATE`;
        late = bid(b, listing.id, 1_100);
        await sleep(Math.max(0, endsAt - Date.now()) + 500);
        run = cron();
        await sleep(1_500); // past deadlock_timeout: a lock cycle (a bid re-checking the item's key against the cron's claim) would show
      },
      { timeout: 20_000 },
    );
    expect((await late!).status).toBe(201);
    expect((await run!).status).toBe(200);
    const after = await getListing(listing.id);
    expect(after).toMatchObject({ status: "active", topBidderId: b.id, price: 1_100, ended: false });
    expect(new Date(after.endsAt).getTime()).toBeGreaterThan(Date.now() + 100_000);
    expect(await balance(a)).toBe(5_000);
    expect(await balance(b)).toBe(3_900);
  });
});

describe("GET /api/v1/marketplace/listings/{listingId}/stream", () => {
  const stream = (id: string, headers: Record<string, string> = {}) => openEventStream(`/api/v1/marketplace/listings/${id}/stream`, { headers });

  it("sends a snapshot, then bids and extensions as they come; resumes with Last-Event-ID; ends with the settlement", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const [a, b] = await Promise.all([fan(10_000), fan(10_000)]);
    const s = await stream(listing.id);
    let snapshotId: string;
    let endId = "";
    try {
      expect(s.res.status).toBe(200);
      expect(s.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const snapshot = await s.next((e) => e.event === "snapshot");
      expect(snapshot.data.listing).toMatchObject({ id: listing.id, price: 1_000, bidCount: 0 });
      snapshotId = snapshot.id!;
      await bid(a, listing.id, 1_000, 4_000);
      const first = await s.next((e) => e.event === "bid");
      expect(first.data).toMatchObject({ leading: true, bid: { amount: 1_000, maxAmount: null }, listing: { price: 1_000, topBidderId: a.id } });
      expect(JSON.stringify(first.data)).not.toContain("4000");
    } finally {
      s.close();
    }

    // Missed while away: B's losing bid (A's automatic raise) and, in the last 2 minutes, the extension.
    await bid(b, listing.id, 1_100, 2_000);
    await db().$executeRaw`UPDATE listings SET ends_at = now() + interval '30 seconds' WHERE id = ${listing.id}::uuid`;
    await bid(b, listing.id, 4_100);
    const resumed = await stream(listing.id, { "last-event-id": snapshotId });
    try {
      const missed = [await resumed.next((e) => e.event === "bid"), await resumed.next((e) => e.event === "bid")];
      expect(missed.map((e) => [e.data.leading, e.data.listing.price])).toEqual([
        [true, 1_000],
        [false, 2_100],
      ]);
      const third = await resumed.next((e) => e.event === "bid");
      expect(third.data).toMatchObject({ leading: true, listing: { price: 4_100, topBidderId: b.id } });
      const extended = await resumed.next((e) => e.event === "extended");
      expect(new Date(extended.data.endsAt).getTime()).toBeGreaterThan(Date.now() + 100_000);
      expect(resumed.seen.some((e) => e.event === "snapshot")).toBe(false);

      await endNow(listing.id);
      await cron();
      const end = await resumed.next((e) => e.event === "end");
      expect(end.data.listing).toMatchObject({ status: "sold", sale: { buyerId: b.id, price: 4_100 } });
      await resumed.ended();
      endId = end.id!;
    } finally {
      resumed.close();
    }

    // Resuming after the end (a client that got it and reconnects): nothing more comes, the stream closes at once.
    const after = await stream(listing.id, { "last-event-id": endId });
    await after.ended(3_000); // well before the streams' time limit (6 s in the tests)
    expect(after.seen.filter((e) => e.event === "bid" || e.event === "snapshot")).toEqual([]);

    // A closed auction: snapshot, end, closed. A fixed-price listing has no stream.
    const closed = await stream(listing.id);
    await closed.next((e) => e.event === "end");
    await closed.ended();
    const fixed = await api("POST", "/api/v1/marketplace/listings", {
      headers: seller.auth,
      json: { kind: "fixed", collectibleId: await card.give(seller.id), price: 500 },
    });
    expect(errorOf(await api("GET", `/api/v1/marketplace/listings/${fixed.body.data.listing.id}/stream`)).code).toBe("LISTING_UNAVAILABLE");
    expect((await api("GET", `/api/v1/marketplace/listings/${randomUUID()}/stream`)).status).toBe(404);
  });

  it("a staff cancel ends the stream", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const a = await fan(5_000);
    await bid(a, listing.id, 1_000);
    const s = await stream(listing.id);
    try {
      await s.next((e) => e.event === "snapshot");
      const staff = newUser({ admin: true });
      expect((await api("POST", `/api/admin/marketplace/listings/${listing.id}/cancel`, { headers: staff.auth })).status).toBe(200);
      expect((await s.next((e) => e.event === "end")).data.listing).toMatchObject({ status: "cancelled", sale: null });
      await s.ended();
    } finally {
      s.close();
    }
    expect(await balance(a)).toBe(5_000);
  });

  it("counts against the same per-caller cap as the leaderboard stream", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const f = await fan();
    const boards = await Promise.all(Array.from({ length: 5 }, () => openEventStream("/api/leaderboard/stream?board=global", { headers: f.auth })));
    try {
      expect(boards.map((x) => x.res.status)).toEqual([200, 200, 200, 200, 200]);
      const refused = await api("GET", `/api/v1/marketplace/listings/${listing.id}/stream`, { headers: f.auth });
      expect(refused.status).toBe(429);
      expect(errorOf(refused).code).toBe("TOO_MANY_STREAMS");
    } finally {
      boards.forEach((x) => x.close());
    }
  });
});
