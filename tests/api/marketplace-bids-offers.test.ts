import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, newUser } from "../helpers";
import { clawBack, creditPurchase } from "../../lib/features/payments/service";
import { balance, card, FEE, type Fan, give, hoursAhead, key, list, ownerOf } from "./marketplace-fixtures";

// The marketplace's held money: auction bids and their settlement by the cron, offers and their accept, decline,
// cancel and expiry. Money and ownership are checked in the wallets and the database after every race.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/marketplace", { headers: { authorization: `Bearer ${cronSecret()}` } });

beforeAll(() => card.create());

const bid = (f: Fan, listingId: string, amount: number, k = key()) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/bids`, { headers: { ...f.auth, "idempotency-key": k }, json: { amount } });
const offer = (f: Fan, json: unknown, k = key()) => api("POST", "/api/v1/marketplace/offers", { headers: { ...f.auth, "idempotency-key": k }, json });
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
