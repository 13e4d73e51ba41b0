import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, fan, newUser } from "../helpers";
import { balance, card, FEE, type Fan, give, hoursAhead, key, list, ownerOf } from "./marketplace-fixtures";

// The marketplace end to end: listings, buying, refunds, cart and checkout, the wishlist. Money and ownership are
// checked in the wallets and the database after every race. Auctions and offers are in marketplace-bids-offers.test.ts.

const CARD = card.id;
beforeAll(() => card.create());

const buy = (f: Fan, listingId: string, k = key()) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/buy`, { headers: { ...f.auth, "idempotency-key": k } });

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
