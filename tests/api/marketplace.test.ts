import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, newUser, testCard } from "../helpers";
import { clawBack, creditPurchase } from "../../lib/features/payments/service";

// The marketplace end to end: listings, buying, auctions and their settlement, offers, cart and checkout, the
// wishlist. Money and ownership are checked in the wallets and the database after every race.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/marketplace", { headers: { authorization: `Bearer ${cronSecret()}` } });
const key = () => randomUUID();
const FEE = (price: number) => Math.floor((price * 500) / 10_000);

type Fan = Awaited<ReturnType<typeof fan>>;

const balance = async (f: Fan) => (await api("GET", "/api/v1/wallet", { headers: f.auth })).body.data.wallets[0].balance as number;
const ownerOf = async (collectibleId: string) => (await db().collectible.findUniqueOrThrow({ where: { id: collectibleId } })).ownerId;

// This file's own card, so its listings never meet another test's.
const card = testCard("Market test card", "epic", 10_000);
const CARD = card.id;
beforeAll(() => card.create());
const give = (f: Fan) => card.give(f.id);

const list = (f: Fan, json: unknown) => api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json });
const buy = (f: Fan, listingId: string, k = key()) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/buy`, { headers: { ...f.auth, "idempotency-key": k } });
const bid = (f: Fan, listingId: string, amount: number, k = key()) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/bids`, { headers: { ...f.auth, "idempotency-key": k }, json: { amount } });
const offer = (f: Fan, json: unknown, k = key()) => api("POST", "/api/v1/marketplace/offers", { headers: { ...f.auth, "idempotency-key": k }, json });
const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
/**
 * A fan with `coins`: bought by card (a credited Stripe purchase, as its webhook credits one) for a fan to be frozen,
 * funded by staff otherwise. Refunding that purchase after the fan spent some (bar "frozen") leaves the wallet in debt.
 */
const buyerFor = async (how: Barred, coins: number) => {
  if (how !== "frozen") return fan(coins);
  const f = await fan();
  const txnId = `pi_${randomUUID()}`;
  const purchase = { provider: "stripe", txnId, id: randomUUID(), userId: f.id, productId: "coins_500", coins, amount: 499, currency: "usd" };
  expect((await creditPurchase(db(), { ...purchase, eventId: `evt_${randomUUID()}`, type: "checkout.session.completed" })).outcome).toBe("credited");
  return f;
};
type Barred = "frozen" | "restricted" | "deleting";
/** Bars a fan from trading in one of the three ways a fan can no longer trade. */
const bar = async (f: Fan, how: Barred) => {
  if (how === "frozen") {
    const [p] = await db().$queryRaw<{ txnId: string }[]>`SELECT provider_txn_id AS "txnId" FROM coin_purchases WHERE user_id = ${f.id}::uuid`;
    const refund = { provider: "stripe", eventId: `evt_${randomUUID()}`, type: "charge.refunded", txnId: p!.txnId, kind: "refund" as const, cumulative: 499 };
    expect((await clawBack(db(), refund)).outcome).toBe("clawed_back");
    return;
  }
  const res =
    how === "restricted"
      ? await api("POST", "/api/admin/moderation/sanctions", {
          headers: newUser({ admin: true }).auth,
          json: { userId: f.id, kind: "trading", hours: 24, reason: "Test" },
        })
      : await api("POST", "/api/v1/me/deletion", { headers: f.auth, json: { confirm: true } });
  expect(res.status).toBeLessThan(300);
};
const ledgerNet = async (referenceId: string) =>
  Number(
    (await db().$queryRaw<{ net: bigint }[]>`SELECT coalesce(sum(amount), 0)::int8 AS net FROM wallet_transactions WHERE reference_id = ${referenceId}`)[0]!
      .net,
  );
const endNow = (listingId: string) => db().$executeRaw`UPDATE listings SET ends_at = now() - interval '1 second' WHERE id = ${listingId}::uuid`;

describe("listings", () => {
  it("lists an owned collectible once; someone else's is 404; concurrent listings of one item make one", async () => {
    const seller = await fan();
    const item = await give(seller);
    const stranger = await fan();
    expect((await list(stranger, { kind: "fixed", collectibleId: item, price: 500 })).status).toBe(404);

    const results = await Promise.all(Array.from({ length: 5 }, () => list(seller, { kind: "fixed", collectibleId: item, price: 500 })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "ALREADY_LISTED")).toHaveLength(4);
    const listing = results.find((r) => r.status === 201)!.body.data.listing;
    expect(listing).toMatchObject({
      kind: "fixed",
      status: "active",
      price: 500,
      seller: { id: seller.id },
      collectible: { id: item, card: { id: CARD } },
      sale: null,
    });

    // The detail adds the seller's reputation (market data).
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing).toEqual({
      ...listing,
      seller: { ...listing.seller, reputation: expect.objectContaining({ completedSales: 0 }) },
    });
    expect((await api("GET", `/api/v1/marketplace/listings/${randomUUID()}`)).status).toBe(404);
  });

  it("validates listings with 400s naming the field", async () => {
    const seller = await fan();
    const item = await give(seller);
    for (const [json, field] of [
      [{ kind: "fixed", collectibleId: item }, "body.price"],
      [{ kind: "fixed", collectibleId: item, price: 0 }, "body.price"],
      [{ kind: "swap", collectibleId: item, price: 5 }, "body.kind"],
      [{ kind: "auction", collectibleId: item, startingPrice: 100, endsAt: hoursAhead(0.5) }, "body.endsAt"],
      [{ kind: "auction", collectibleId: item, startingPrice: 100, endsAt: hoursAhead(24 * 15) }, "body.endsAt"],
      [{ kind: "auction", collectibleId: item, startingPrice: 500, reservePrice: 100, endsAt: hoursAhead(2) }, "body.reservePrice"],
    ] as const) {
      const res = await list(seller, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(errorOf(res).details!.map((d) => d.path)).toContain(field);
    }
  });

  it("browses by price (keyset, stable) and newest first; a bad cursor is 400", async () => {
    const seller = await fan();
    const prices = [900, 300, 300, 700, 100];
    for (const price of prices) expect((await list(seller, { kind: "fixed", collectibleId: await give(seller), price })).status).toBe(201);
    const page = (q: string) => api("GET", `/api/v1/marketplace/listings?sellerId=${seller.id}&${q}`);
    const first = (await page("sort=price&limit=3")).body.data;
    const second = (await page(`sort=price&limit=3&cursor=${first.nextCursor}`)).body.data;
    expect([...first.listings, ...second.listings].map((l: { price: number }) => l.price)).toEqual([100, 300, 300, 700, 900]);
    expect(second.nextCursor).toBeUndefined();
    const newest = (await page("limit=10")).body.data.listings as { id: string; price: number }[];
    expect(newest.map((l) => l.price).sort()).toEqual([...prices].sort());
    expect(newest.map((l) => l.id)).toEqual(
      newest
        .map((l) => l.id)
        .sort()
        .reverse(),
    );
    expect((await page("minPrice=300&maxPrice=700&limit=10")).body.data.listings.map((l: { price: number }) => l.price).sort()).toEqual([300, 300, 700]);
    expect((await page("sort=price&cursor=bogus")).status).toBe(400);
    expect((await page(`sort=newest&cursor=${first.nextCursor}`)).status).toBe(400);
  });

  it("the seller cancels; a stranger cannot; a cancelled listing cannot be bought", async () => {
    const seller = await fan();
    const listing = (await list(seller, { kind: "fixed", collectibleId: await give(seller), price: 500 })).body.data.listing;
    const stranger = await fan(1_000);
    expect((await api("DELETE", `/api/v1/marketplace/listings/${listing.id}`, { headers: stranger.auth })).status).toBe(404);
    const cancelled = await api("DELETE", `/api/v1/marketplace/listings/${listing.id}`, { headers: seller.auth });
    expect(cancelled.body.data.listing.status).toBe("cancelled");
    expect(errorOf(await api("DELETE", `/api/v1/marketplace/listings/${listing.id}`, { headers: seller.auth })).code).toBe("LISTING_UNAVAILABLE");
    expect(errorOf(await buy(stranger, listing.id)).code).toBe("LISTING_UNAVAILABLE");
    expect(await balance(stranger)).toBe(1_000);
    // The item can be listed again.
    expect((await list(seller, { kind: "fixed", collectibleId: listing.collectible.id, price: 600 })).status).toBe(201);
  });
});

describe("buying", () => {
  it("fifty concurrent buyers of one listing: one sale, forty-nine refusals, money and ownership exact", async () => {
    const seller = await fan();
    const item = await give(seller);
    const listing = (await list(seller, { kind: "fixed", collectibleId: item, price: 2_000 })).body.data.listing;
    const buyers = await Promise.all(Array.from({ length: 50 }, () => fan(5_000)));
    const results = await Promise.all(buyers.map((b) => buy(b, listing.id)));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "LISTING_UNAVAILABLE")).toHaveLength(49);

    const winner = buyers[results.findIndex((r) => r.status === 200)]!;
    expect(won[0]!.body.data.listing).toMatchObject({ status: "sold", sale: { buyerId: winner.id, price: 2_000, fee: FEE(2_000) } });
    expect(await ownerOf(item)).toBe(winner.id);
    const balances = await Promise.all(buyers.map(balance));
    expect(balances.filter((b) => b === 3_000)).toHaveLength(1);
    expect(balances.filter((b) => b === 5_000)).toHaveLength(49);
    expect(await balance(seller)).toBe(2_000 - FEE(2_000));
    const ledger = (await api("GET", "/api/v1/wallet/transactions", { headers: seller.auth })).body.data.transactions;
    // (rows written in one millisecond share their id's time part, so their order is not asserted)
    expect(ledger.map((t: { reason: string; amount: number }) => [t.reason, t.amount]).sort()).toEqual([
      ["fee", -FEE(2_000)],
      ["sale", 2_000],
    ]);
    const history = (await api("GET", `/api/v1/collectibles/${item}`)).body.data.history;
    expect(history.at(-1)).toMatchObject({ fromUserId: seller.id, toUserId: winner.id, reason: "sale", price: 2_000, referenceId: listing.id });
  });

  it("refuses one's own listing, an auction, and a short balance, moving nothing; a retry with the key replays", async () => {
    const seller = await fan();
    const item = await give(seller);
    const listing = (await list(seller, { kind: "fixed", collectibleId: item, price: 2_000 })).body.data.listing;
    expect(errorOf(await buy(seller, listing.id)).code).toBe("CANNOT_BUY_OWN");
    const poor = await fan(1_999);
    expect(errorOf(await buy(poor, listing.id)).code).toBe("INSUFFICIENT_FUNDS");
    expect(await balance(poor)).toBe(1_999);
    expect(await ownerOf(item)).toBe(seller.id);
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing.status).toBe("active");

    const rich = await fan(2_000);
    const k = key();
    const first = await buy(rich, listing.id, k);
    expect(first.status).toBe(200);
    const again = await buy(rich, listing.id, k);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await balance(rich)).toBe(0);
  });
});

describe("refunds", () => {
  it("staff reverse a sale once with compensating transactions; the item goes back to the seller", async () => {
    const seller = await fan();
    const item = await give(seller);
    const listing = (await list(seller, { kind: "fixed", collectibleId: item, price: 2_000 })).body.data.listing;
    const buyer = await fan(2_000);
    await buy(buyer, listing.id);
    const staff = newUser({ admin: true });
    const refund = () => api("POST", `/api/admin/marketplace/listings/${listing.id}/refund`, { headers: staff.auth });
    expect((await api("POST", `/api/admin/marketplace/listings/${listing.id}/refund`, { headers: buyer.auth })).status).toBe(403);
    const [first, second] = await Promise.all([refund(), refund()]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const done = first.status === 200 ? first : second;
    expect(done.body.data.listing).toMatchObject({ status: "sold", refundedAt: expect.any(String) });
    expect(await balance(buyer)).toBe(2_000);
    expect(await balance(seller)).toBe(0);
    expect(await ownerOf(item)).toBe(seller.id);
    const sellerLedger = (await api("GET", "/api/v1/wallet/transactions", { headers: seller.auth })).body.data.transactions;
    expect(sellerLedger.map((t: { reason: string; amount: number }) => [t.reason, t.amount]).sort()).toEqual([
      ["fee", -FEE(2_000)],
      ["refund", -(2_000 - FEE(2_000))],
      ["sale", 2_000],
    ]);
    expect((await api("GET", `/api/v1/collectibles/${item}`)).body.data.history.at(-1)).toMatchObject({ reason: "staff", toUserId: seller.id });
    // An item that changed hands again cannot be reversed; an unsold listing neither.
    const other = (await list(seller, { kind: "fixed", collectibleId: await give(seller), price: 500 })).body.data.listing;
    expect(errorOf(await api("POST", `/api/admin/marketplace/listings/${other.id}/refund`, { headers: staff.auth })).code).toBe("LISTING_UNAVAILABLE");
  });
});

describe("auctions", () => {
  const auction = async (seller: Fan, extra: Record<string, unknown> = {}) =>
    (await list(seller, { kind: "auction", collectibleId: await give(seller), startingPrice: 1_000, minIncrement: 100, endsAt: hoursAhead(2), ...extra })).body
      .data.listing;

  it("bids hold funds; outbid funds come back with a notification; bids under the minimum, by the seller or after the end are refused", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    expect(listing).toMatchObject({ kind: "auction", price: 1_000, minNextBid: 1_000, bidCount: 0, reserveMet: null, ended: false });
    const a = await fan(5_000);
    const b = await fan(5_000);
    expect(errorOf(await bid(a, listing.id, 999)).code).toBe("BID_TOO_LOW");
    expect(errorOf(await bid(seller, listing.id, 1_000)).code).toBe("CANNOT_BUY_OWN");
    const first = await bid(a, listing.id, 1_000);
    expect(first.status).toBe(201);
    expect(first.body.data.listing).toMatchObject({ price: 1_000, minNextBid: 1_100, bidCount: 1, topBidderId: a.id });
    expect(await balance(a)).toBe(4_000);
    const low = await bid(b, listing.id, 1_050);
    expect(errorOf(low)).toMatchObject({ code: "BID_TOO_LOW", details: [{ path: "body.amount", message: "at least 1100" }] });
    expect((await bid(b, listing.id, 1_100)).status).toBe(201);
    expect(await balance(a)).toBe(5_000);
    expect(await balance(b)).toBe(3_900);
    const outbid = await db().notification.findMany({ where: { userId: a.id, type: "OUTBID" } });
    expect(outbid.map((n) => n.payload)).toEqual([expect.objectContaining({ listingId: listing.id, yourBid: 1_000, currentBid: 1_100 })]);
    expect(errorOf(await api("DELETE", `/api/v1/marketplace/listings/${listing.id}`, { headers: seller.auth })).code).toBe("HAS_BIDS");
    const bids = (await api("GET", `/api/v1/marketplace/listings/${listing.id}/bids`)).body.data.bids;
    expect(bids.map((x: { amount: number }) => x.amount)).toEqual([1_100, 1_000]);

    await endNow(listing.id);
    expect(errorOf(await bid(a, listing.id, 2_000)).code).toBe("AUCTION_ENDED");
  });

  it("ten bidders at the same minimum: one leads, the rest are refused and keep their money", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const bidders = await Promise.all(Array.from({ length: 10 }, () => fan(2_000)));
    const results = await Promise.all(bidders.map((b) => bid(b, listing.id, 1_000)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "BID_TOO_LOW")).toHaveLength(9);
    const balances = await Promise.all(bidders.map(balance));
    expect(balances.filter((x) => x === 1_000)).toHaveLength(1);
    expect(balances.filter((x) => x === 2_000)).toHaveLength(9);
  });

  it("the cron sells an ended auction to its top bid once, even when run twice at once", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const a = await fan(3_000);
    const b = await fan(3_000);
    await bid(a, listing.id, 1_000);
    await bid(b, listing.id, 1_500);
    await endNow(listing.id);
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing).toMatchObject({ ended: true, minNextBid: null });
    const runs = await Promise.all([cron(), cron()]);
    expect(runs.map((r) => r.status)).toEqual([200, 200]);
    const after = (await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing;
    expect(after).toMatchObject({ status: "sold", sale: { buyerId: b.id, price: 1_500, fee: FEE(1_500) } });
    expect(await ownerOf(listing.collectible.id)).toBe(b.id);
    expect(await balance(b)).toBe(1_500);
    expect(await balance(a)).toBe(3_000);
    expect(await balance(seller)).toBe(1_500 - FEE(1_500));
    await cron();
    expect(await balance(seller)).toBe(1_500 - FEE(1_500));
    expect(await db().walletTransaction.count({ where: { userId: seller.id } })).toBe(2);
  });

  it("a leader who can no longer trade does not win: the next bidder who can buys at proxy price, holds go back once, under racing crons", async () => {
    for (const how of ["frozen", "restricted", "deleting"] as const) {
      const seller = await fan();
      const listing = await auction(seller);
      const [a, b, c] = await Promise.all([fan(3_000), fan(3_000), buyerFor(how, 3_000)]);
      await bid(a, listing.id, 1_000);
      await bid(b, listing.id, 1_200);
      await bid(c, listing.id, 1_500);
      await bar(c, how);
      await endNow(listing.id);
      const runs = await Promise.all([cron(), cron(), cron()]);
      expect(runs.map((r) => r.status)).toEqual([200, 200, 200]);
      // Without c, proxy bidding puts b at a's maximum plus the increment; c's hold goes back once (less a debt it settles).
      const after = (await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing;
      expect(after).toMatchObject({ status: "sold", sale: { buyerId: b.id, price: 1_100, fee: FEE(1_100) } });
      expect(await ownerOf(listing.collectible.id)).toBe(b.id);
      expect([await balance(a), await balance(b), await balance(seller)]).toEqual([3_000, 1_900, 1_100 - FEE(1_100)]);
      expect(await balance(c)).toBe(how === "frozen" ? 0 : 3_000);
      const bids = await db().bid.findMany({ where: { listingId: listing.id } });
      expect(bids.every((x) => x.releasedAt !== null)).toBe(true);
      expect(await db().walletTransaction.count({ where: { userId: c.id, referenceType: "bid", reason: "refund" } })).toBe(1);
      await cron();
      expect(await balance(seller)).toBe(1_100 - FEE(1_100));
    }
  });

  it("ends unsold when no other bidder can trade and pay: the leader's hold goes back once, the item stays", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const [a, b, c] = await Promise.all([fan(3_000), fan(3_000), fan(3_000)]);
    await bid(a, listing.id, 1_000);
    await bid(b, listing.id, 1_200);
    await bid(c, listing.id, 1_500);
    await bar(c, "restricted");
    await bar(a, "deleting");
    // b can trade but has spent the coins since: skipped too.
    await api("POST", "/api/admin/wallets/adjustments", { headers: newUser({ admin: true }).auth, json: { userId: b.id, amount: -2_100, note: "test" } });
    await endNow(listing.id);
    await Promise.all([cron(), cron()]);
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing).toMatchObject({ status: "expired", sale: null });
    expect(await ownerOf(listing.collectible.id)).toBe(seller.id);
    expect([await balance(a), await balance(b), await balance(c), await balance(seller)]).toEqual([3_000, 900, 3_000, 0]);
    for (const x of await db().bid.findMany({ where: { listingId: listing.id } })) expect(await ledgerNet(x.id)).toBe(0);
  });

  it("an auction under its reserve expires: the bid's funds go back and the item stays", async () => {
    const seller = await fan();
    const listing = await auction(seller, { reservePrice: 5_000 });
    const a = await fan(3_000);
    expect((await bid(a, listing.id, 1_000)).body.data.listing.reserveMet).toBe(false);
    await endNow(listing.id);
    await cron();
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing.status).toBe("expired");
    expect(await balance(a)).toBe(3_000);
    expect(await ownerOf(listing.collectible.id)).toBe(seller.id);
  });

  it("staff cancel an auction and refund its top bid", async () => {
    const seller = await fan();
    const listing = await auction(seller);
    const a = await fan(3_000);
    await bid(a, listing.id, 1_200);
    const staff = newUser({ admin: true });
    expect((await api("POST", `/api/admin/marketplace/listings/${listing.id}/cancel`, { headers: a.auth })).status).toBe(403);
    const res = await api("POST", `/api/admin/marketplace/listings/${listing.id}/cancel`, { headers: staff.auth });
    expect(res.body.data.listing.status).toBe("cancelled");
    expect(await balance(a)).toBe(3_000);
  });
});

describe("offers", () => {
  it("an offer holds its amount; accepting settles like a sale and withdraws a fixed listing; the buyer is told", async () => {
    const owner = await fan();
    const item = await give(owner);
    const listing = (await list(owner, { kind: "fixed", collectibleId: item, price: 5_000 })).body.data.listing;
    const buyer = await fan(1_000);
    const made = await offer(buyer, { collectibleId: item, amount: 700 });
    expect(made.status).toBe(201);
    expect(made.body.data.offer).toMatchObject({ status: "open", amount: 700, ownerId: owner.id, buyerId: buyer.id });
    expect(await balance(buyer)).toBe(300);
    expect(errorOf(await offer(buyer, { collectibleId: item, amount: 100 })).code).toBe("OFFER_EXISTS");
    expect(errorOf(await offer(owner, { collectibleId: item, amount: 100 })).code).toBe("CANNOT_BUY_OWN");

    const id = made.body.data.offer.id;
    expect((await api("POST", `/api/v1/marketplace/offers/${id}/accept`, { headers: buyer.auth })).status).toBe(403);
    expect((await api("POST", `/api/v1/marketplace/offers/${id}/accept`, { headers: (await fan()).auth })).status).toBe(404);
    const accepted = await api("POST", `/api/v1/marketplace/offers/${id}/accept`, { headers: owner.auth });
    expect(accepted.body.data.offer).toMatchObject({ status: "accepted", sellerId: owner.id, fee: FEE(700), ownerId: buyer.id });
    expect(await ownerOf(item)).toBe(buyer.id);
    expect(await balance(owner)).toBe(700 - FEE(700));
    expect(await balance(buyer)).toBe(300);
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing.status).toBe("cancelled");
    expect((await db().notification.findMany({ where: { userId: buyer.id, type: "OFFER_UPDATE" } })).map((n) => n.payload)).toEqual([
      expect.objectContaining({ offerId: id, status: "accepted", amount: 700 }),
    ]);
    expect(errorOf(await api("POST", `/api/v1/marketplace/offers/${id}/decline`, { headers: owner.auth })).code).toBe("OFFER_CLOSED");
  });

  it("declined and cancelled offers give the funds back; concurrent accept and cancel settle one of them", async () => {
    const owner = await fan();
    const buyer = await fan(2_000);
    const declined = (await offer(buyer, { collectibleId: await give(owner), amount: 500 })).body.data.offer;
    await api("POST", `/api/v1/marketplace/offers/${declined.id}/decline`, { headers: owner.auth });
    const cancelled = (await offer(buyer, { collectibleId: await give(owner), amount: 400 })).body.data.offer;
    await api("POST", `/api/v1/marketplace/offers/${cancelled.id}/cancel`, { headers: buyer.auth });
    expect(await balance(buyer)).toBe(2_000);

    const item = await give(owner);
    const raced = (await offer(buyer, { collectibleId: item, amount: 600 })).body.data.offer;
    const [acc, can] = await Promise.all([
      api("POST", `/api/v1/marketplace/offers/${raced.id}/accept`, { headers: owner.auth }),
      api("POST", `/api/v1/marketplace/offers/${raced.id}/cancel`, { headers: buyer.auth }),
    ]);
    expect([acc.status, can.status].sort()).toEqual([200, 409]);
    if (acc.status === 200) {
      expect(await ownerOf(item)).toBe(buyer.id);
      expect(await balance(buyer)).toBe(1_400);
    } else {
      expect(await ownerOf(item)).toBe(owner.id);
      expect(await balance(buyer)).toBe(2_000);
    }
  });

  it("accepting the offer of a buyer who can no longer trade cancels it: 409, nothing moves, the hold goes back once", async () => {
    for (const how of ["frozen", "restricted", "deleting"] as const) {
      const owner = await fan();
      const item = await give(owner);
      const buyer = await buyerFor(how, 1_000);
      const o = (await offer(buyer, { collectibleId: item, amount: 700 })).body.data.offer;
      await bar(buyer, how);
      const accepts = await Promise.all([1, 2].map(() => api("POST", `/api/v1/marketplace/offers/${o.id}/accept`, { headers: owner.auth })));
      expect(accepts.map((r) => r.status)).toEqual([409, 409]);
      expect(accepts.map((r) => errorOf(r).code).sort()).toEqual(["OFFER_BUYER_CANNOT_TRADE", "OFFER_CLOSED"]);
      expect(await ownerOf(item)).toBe(owner.id);
      expect((await db().offer.findUniqueOrThrow({ where: { id: o.id } })).status).toBe("cancelled");
      // The 700 held comes back once; a frozen wallet's debt (the 700 the refund could not take) is settled from it.
      expect(await balance(buyer)).toBe(how === "frozen" ? 0 : 1_000);
      expect(await balance(owner)).toBe(0);
      expect(await ledgerNet(o.id)).toBe(0);
      if (how === "frozen") expect((await db().wallet.findFirstOrThrow({ where: { userId: buyer.id } })).debt).toBe(0n);
    }
  });

  it("an item in a running auction cannot be sold by offer; expired offers are refunded by the cron", async () => {
    const owner = await fan();
    const item = await give(owner);
    await list(owner, { kind: "auction", collectibleId: item, startingPrice: 1_000, endsAt: hoursAhead(3) });
    const buyer = await fan(1_000);
    const o = (await offer(buyer, { collectibleId: item, amount: 900 })).body.data.offer;
    expect(errorOf(await api("POST", `/api/v1/marketplace/offers/${o.id}/accept`, { headers: owner.auth })).code).toBe("ITEM_IN_AUCTION");
    await db().$executeRaw`UPDATE offers SET expires_at = now() - interval '1 second' WHERE id = ${o.id}::uuid`;
    expect(errorOf(await api("POST", `/api/v1/marketplace/offers/${o.id}/cancel`, { headers: buyer.auth })).code).toBe("OFFER_CLOSED");
    await cron();
    expect((await api("GET", "/api/v1/marketplace/offers?status=expired", { headers: buyer.auth })).body.data.offers.map((x: { id: string }) => x.id)).toEqual([
      o.id,
    ]);
    expect(await balance(buyer)).toBe(1_000);
    const received = (await api("GET", "/api/v1/marketplace/offers?role=received", { headers: owner.auth })).body.data.offers;
    expect(received.map((x: { id: string }) => x.id)).toEqual([o.id]);
  });
});

describe("cart and checkout", () => {
  it("checks out every line or none: a line sold meanwhile refuses the whole cart, naming it", async () => {
    const seller = await fan();
    const listings = [];
    for (const price of [300, 400, 500]) listings.push((await list(seller, { kind: "fixed", collectibleId: await give(seller), price })).body.data.listing);
    const buyer = await fan(1_200);
    for (const l of listings)
      expect((await api("POST", "/api/v1/marketplace/cart/items", { headers: buyer.auth, json: { listingId: l.id } })).status).toBe(200);
    const cart = (await api("GET", "/api/v1/marketplace/cart", { headers: buyer.auth })).body.data;
    expect(cart.total).toBe(1_200);
    expect(cart.lines.map((l: { available: boolean }) => l.available)).toEqual([true, true, true]);

    const rival = await fan(500);
    expect((await buy(rival, listings[2]!.id)).status).toBe(200);
    const refused = await api("POST", "/api/v1/marketplace/checkout", { headers: { ...buyer.auth, "idempotency-key": key() } });
    expect(refused.status).toBe(409);
    expect(errorOf(refused)).toMatchObject({ code: "CART_CHANGED", details: [{ path: `lines.${listings[2]!.id}`, message: "no longer available" }] });
    expect(await balance(buyer)).toBe(1_200);
    expect(await ownerOf(listings[0]!.collectible.id)).toBe(seller.id);

    await api("DELETE", `/api/v1/marketplace/cart/items/${listings[2]!.id}`, { headers: buyer.auth });
    const k = key();
    const done = await api("POST", "/api/v1/marketplace/checkout", { headers: { ...buyer.auth, "idempotency-key": k } });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ total: 700, balance: 500 });
    expect(done.body.data.orders.map((o: { listingId: string }) => o.listingId).sort()).toEqual([listings[0]!.id, listings[1]!.id].sort());
    expect(await ownerOf(listings[1]!.collectible.id)).toBe(buyer.id);
    const replay = await api("POST", "/api/v1/marketplace/checkout", { headers: { ...buyer.auth, "idempotency-key": k } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(errorOf(await api("POST", "/api/v1/marketplace/checkout", { headers: { ...buyer.auth, "idempotency-key": key() } })).code).toBe("CART_EMPTY");
    expect(await balance(seller)).toBe(300 - FEE(300) + 400 - FEE(400) + 500 - FEE(500));
  });

  it("a line repriced since it was added refuses the checkout with the new price; re-adding it takes the new price", async () => {
    const seller = await fan();
    const l = (await list(seller, { kind: "fixed", collectibleId: await give(seller), price: 500 })).body.data.listing;
    const buyer = await fan(2_000);
    await api("POST", "/api/v1/marketplace/cart/items", { headers: buyer.auth, json: { listingId: l.id } });
    expect((await api("PATCH", `/api/v1/marketplace/listings/${l.id}`, { headers: buyer.auth, json: { price: 1 } })).status).toBe(404);
    const repriced = await api("PATCH", `/api/v1/marketplace/listings/${l.id}`, { headers: seller.auth, json: { price: 800 } });
    expect(repriced.body.data.listing.price).toBe(800);
    const cart = (await api("GET", "/api/v1/marketplace/cart", { headers: buyer.auth })).body.data;
    expect(cart.lines[0]).toMatchObject({ addedPrice: 500, priceChanged: true, available: true, listing: { price: 800 } });
    const refused = await api("POST", "/api/v1/marketplace/checkout", { headers: { ...buyer.auth, "idempotency-key": key() } });
    expect(errorOf(refused)).toMatchObject({ code: "CART_CHANGED", details: [{ path: `lines.${l.id}`, message: "price is now 800" }] });
    expect(await balance(buyer)).toBe(2_000);
    await api("DELETE", `/api/v1/marketplace/cart/items/${l.id}`, { headers: buyer.auth });
    await api("POST", "/api/v1/marketplace/cart/items", { headers: buyer.auth, json: { listingId: l.id } });
    expect((await api("POST", "/api/v1/marketplace/checkout", { headers: { ...buyer.auth, "idempotency-key": key() } })).body.data).toMatchObject({
      total: 800,
      balance: 1_200,
    });
  });

  it("a cart the balance cannot cover buys nothing; one's own listing cannot be added", async () => {
    const seller = await fan();
    const a = (await list(seller, { kind: "fixed", collectibleId: await give(seller), price: 600 })).body.data.listing;
    const b = (await list(seller, { kind: "fixed", collectibleId: await give(seller), price: 600 })).body.data.listing;
    expect(errorOf(await api("POST", "/api/v1/marketplace/cart/items", { headers: seller.auth, json: { listingId: a.id } })).code).toBe("CANNOT_BUY_OWN");
    const buyer = await fan(1_000);
    for (const l of [a, b]) await api("POST", "/api/v1/marketplace/cart/items", { headers: buyer.auth, json: { listingId: l.id } });
    expect(errorOf(await api("POST", "/api/v1/marketplace/checkout", { headers: { ...buyer.auth, "idempotency-key": key() } })).code).toBe(
      "INSUFFICIENT_FUNDS",
    );
    expect(await balance(buyer)).toBe(1_000);
    expect(await ownerOf(a.collectible.id)).toBe(seller.id);
    expect(await ownerOf(b.collectible.id)).toBe(seller.id);
    expect((await api("POST", "/api/v1/marketplace/checkout", { headers: buyer.auth })).status).toBe(400);
  });
});

describe("wishlist", () => {
  const wish = (f: Fan, json: unknown) => api("POST", "/api/v1/marketplace/wishlist", { headers: f.auth, json });

  it("takes either listingId or itemType with itemId; anything else is a 400 naming the fields", async () => {
    const f = await fan();
    for (const [json, fields] of [
      [{}, ["body.listingId", "body.itemType", "body.itemId"]],
      [{ itemType: "card" }, ["body.itemId"]],
      [{ itemId: CARD }, ["body.itemType"]],
      [{ listingId: randomUUID(), itemType: "card", itemId: CARD }, ["body.listingId", "body.itemType", "body.itemId"]],
      [{ itemType: "pack", itemId: "x" }, ["body.itemType"]],
      [{ itemType: "collectible", itemId: "not-a-uuid" }, ["body.itemId"]],
    ] as const) {
      const res = await wish(f, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(
        errorOf(res)
          .details!.map((d) => d.path)
          .sort(),
      ).toEqual([...fields].sort());
    }
    expect((await wish(f, { itemType: "card", itemId: "cc_nope" })).status).toBe(404);
    const racing = await Promise.all(Array.from({ length: 10 }, () => wish(f, { itemType: "card", itemId: CARD })));
    expect(racing.map((r) => r.status).sort()).toEqual([...Array(9).fill(200), 201]);
    expect(new Set(racing.map((r) => r.body.data.item.id)).size).toBe(1);
    await api("DELETE", `/api/v1/marketplace/wishlist/${racing[0]!.body.data.item.id}`, { headers: f.auth });
    expect((await wish(f, { listingId: randomUUID() })).status).toBe(404);
  });

  it("adds once, lists with the cheapest listing, notifies when a copy is listed, and removes", async () => {
    const f = await fan();
    const first = await wish(f, { itemType: "card", itemId: CARD });
    expect(first.status).toBe(201);
    const again = await wish(f, { itemType: "card", itemId: CARD });
    expect(again.status).toBe(200);
    expect(again.body.data.item.id).toBe(first.body.data.item.id);

    const seller = await fan();
    const listing = (await list(seller, { kind: "fixed", collectibleId: await give(seller), price: 1 })).body.data.listing;
    const notes = await db().notification.findMany({ where: { userId: f.id, type: "WISHLIST_LISTED" } });
    expect(notes.map((n) => n.payload)).toEqual([expect.objectContaining({ listingId: listing.id, cardId: CARD, price: 1 })]);
    const items = (await api("GET", "/api/v1/marketplace/wishlist", { headers: f.auth })).body.data.items;
    expect(items).toEqual([expect.objectContaining({ itemType: "card", itemId: CARD, cheapestListing: { id: listing.id, price: 1 } })]);

    const byListing = await wish(f, { listingId: listing.id });
    expect(byListing.body.data.item).toMatchObject({ itemType: "collectible", itemId: listing.collectible.id, listingId: listing.id });
    const id = first.body.data.item.id;
    expect((await api("DELETE", `/api/v1/marketplace/wishlist/${id}`, { headers: f.auth })).status).toBe(200);
    expect((await api("DELETE", `/api/v1/marketplace/wishlist/${id}`, { headers: f.auth })).status).toBe(404);
    expect((await api("GET", "/api/v1/marketplace/wishlist", { headers: f.auth })).body.data.items).toHaveLength(1);
  });
});
