import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, fan, newUser, testCard } from "../helpers";

// Market data (lib/core/market-data): a card's market (the floor counts only copies buyable now), its sales and every sale
// (staff reversals marked), price alerts (once per listing, the caller's own and blocked sellers left out, the cap
// under concurrency), and the seller's reputation on listings and profiles.

type Fan = Awaited<ReturnType<typeof fan>>;
const card = testCard("Market data card", "rare", 1_000);
beforeAll(() => card.create());
const key = () => randomUUID();
const list = async (f: Fan, collectibleId: string, price: number) => {
  const res = await api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json: { kind: "fixed", collectibleId, price } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.listing as { id: string };
};
const buy = (f: Fan, listingId: string) => api("POST", `/api/v1/marketplace/listings/${listingId}/buy`, { headers: { ...f.auth, "idempotency-key": key() } });
const market = async (cardId = card.id) => {
  const res = await api("GET", `/api/v1/collectibles/cards/${cardId}`, { headers: newUser().auth });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};

describe("a card's market", () => {
  it("shows supply, copies drawn, holders, the floor buyable now, the last sale and the day's volume", async () => {
    const [seller, other, buyer] = await Promise.all([fan(), fan(), fan(100_000)]);
    const cheapStale = await card.give(seller.id);
    const cheapMinted = await card.give(seller.id);
    const auctioned = await card.give(seller.id);
    const floorItem = await card.give(other.id);
    const dearer = await card.give(other.id);
    const sold = await card.give(seller.id);

    // The cheapest listing's item changed hands outside the marketplace: not buyable, not the floor.
    const stale = await list(seller, cheapStale, 100);
    await db().collectible.update({ where: { id: cheapStale }, data: { ownerId: other.id } });
    // Minted (its mint under way): not buyable, not the floor.
    await list(seller, cheapMinted, 150);
    await db().nftMint.create({ data: { userId: seller.id, itemType: "collectible", itemId: cheapMinted, name: "x", mintKey: cheapMinted } });
    // An auction is no fixed price.
    const auction = await api("POST", "/api/v1/marketplace/listings", {
      headers: seller.auth,
      json: { kind: "auction", collectibleId: auctioned, startingPrice: 50, endsAt: new Date(Date.now() + 7_200_000).toISOString() },
    });
    expect(auction.status).toBe(201);
    const floor = await list(other, floorItem, 300);
    await list(other, dearer, 900);
    const sale = await list(seller, sold, 2_000);
    expect((await buy(buyer, sale.id)).status).toBe(200);

    const m = await market();
    expect(m).toMatchObject({
      card: { id: card.id, rarity: "rare" },
      supply: 1_000,
      drawn: 6,
      floor: { listingId: floor.id, price: 300, serial: 4 },
      lastSale: { price: 2_000, serial: 6, refunded: false },
      last24h: { volume: 2_000, sales: 1 },
    });
    expect(m.holders).toBe(3);
    expect(stale.id).not.toBe(m.floor.listingId);
    // Put back what no marketplace path could make (the economy invariant checks it at the end of the run).
    await db()
      .$executeRaw`UPDATE listings SET status = 'cancelled', active_item_id = NULL, closed_at = now() WHERE collectible_id IN (${cheapStale}::uuid, ${cheapMinted}::uuid)`;

    // Staff reverse the sale: marked, and out of the day's volume.
    const staff = newUser({ admin: true });
    expect((await api("POST", `/api/admin/marketplace/listings/${sale.id}/refund`, { headers: staff.auth })).status).toBe(200);
    expect(await market()).toMatchObject({ lastSale: { price: 2_000, refunded: true }, last24h: { volume: 0, sales: 0 } });

    expect((await api("GET", "/api/v1/collectibles/cards/cc_no_such_card")).status).toBe(404);
  });

  it("lists a card's sales and every sale newest first in keyset pages, offers included", async () => {
    const c = testCard("Sales history card", "common", 100);
    const [seller, buyer] = await Promise.all([fan(), fan(100_000)]);
    const prices = [110, 120, 130];
    for (const price of prices) {
      const l = await list(seller, await c.give(seller.id), price);
      expect((await buy(buyer, l.id)).status).toBe(200);
    }
    // An accepted offer is a sale too.
    const item = await c.give(seller.id);
    const o = await api("POST", "/api/v1/marketplace/offers", {
      headers: { ...buyer.auth, "idempotency-key": key() },
      json: { collectibleId: item, amount: 140 },
    });
    expect(o.status, o.text).toBe(201);
    expect(
      (await api("POST", `/api/v1/marketplace/offers/${o.body.data.offer.id}/accept`, { headers: { ...seller.auth, "idempotency-key": key() } })).status,
    ).toBe(200);

    const first = await api("GET", `/api/v1/collectibles/cards/${c.id}/sales?limit=3`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.sales.map((s: { price: number }) => s.price)).toEqual([140, 130, 120]);
    expect(first.body.data.sales[0]).toMatchObject({ via: "offer", sellerId: seller.id, buyerId: buyer.id, refunded: false, cardId: c.id });
    const rest = await api("GET", `/api/v1/collectibles/cards/${c.id}/sales?limit=3&cursor=${first.body.data.nextCursor}`);
    expect(rest.body.data.sales.map((s: { price: number }) => s.price)).toEqual([110]);
    expect(rest.body.data.nextCursor).toBeUndefined();

    const all = await api("GET", `/api/v1/marketplace/sales?cardId=${c.id}`);
    expect(all.body.data.sales).toHaveLength(4);
    expect((await api("GET", "/api/v1/marketplace/sales?limit=2")).body.data.sales).toHaveLength(2);
    expect((await api("GET", "/api/v1/collectibles/cards/cc_no_such_card/sales")).status).toBe(404);
    const bad = await api("GET", `/api/v1/marketplace/sales?cursor=${Buffer.from('["v1","x","y"]').toString("base64url")}`);
    expect([bad.status, errorOf(bad).code]).toEqual([400, "VALIDATION_ERROR"]);
  });
});

describe("price alerts", () => {
  it("fire once per matching listing (new or repriced), never for one's own, a blocked seller, or outside the range", async () => {
    const c = testCard("Alert card", "epic", 100);
    await c.create();
    const [watcher, seller, blocked] = await Promise.all([fan(), fan(), fan()]);
    const create = (json: unknown) => api("POST", "/api/v1/marketplace/alerts", { headers: watcher.auth, json });
    const wide = await create({ cardId: c.id, maxPrice: 500 });
    expect(wide.status, wide.text).toBe(201);
    const narrow = (await create({ cardId: c.id, maxPrice: 10_000, serialMin: 3, serialMax: 3 })).body.data.alert;
    await db().userBlock.create({ data: { blockerId: watcher.id, blockedId: blocked.id } });

    const alerts = async () =>
      (await db().notification.findMany({ where: { userId: watcher.id, type: "PRICE_ALERT" }, orderBy: { id: "asc" } })).map(
        (n) => n.payload as { alertId: string; listingId: string; price: number; serial: number },
      );
    const s1 = await card.give(seller.id); // another card: never
    await list(seller, s1, 100);
    const tooDear = await list(seller, await c.give(seller.id), 800); // serial 1, above 500
    expect(await alerts()).toEqual([]);
    // Repriced down to the alert's price: fires once; repriced again, still matching: nothing new.
    const reprice = (price: number) => api("PATCH", `/api/v1/marketplace/listings/${tooDear.id}`, { headers: seller.auth, json: { price } });
    expect((await reprice(450)).status).toBe(200);
    expect((await reprice(400)).status).toBe(200);
    expect(await alerts()).toEqual([expect.objectContaining({ alertId: wide.body.data.alert.id, listingId: tooDear.id, price: 450, serial: 1 })]);
    await list(seller, await c.give(seller.id), 9_000); // serial 2: above the wide alert, outside the narrow one
    const third = await list(seller, await c.give(seller.id), 9_000); // serial 3: the narrow one
    await list(blocked, await c.give(blocked.id), 10); // a blocked seller: nothing
    await list(watcher, await c.give(watcher.id), 10); // one's own: nothing
    expect((await alerts()).map((a) => [a.alertId, a.listingId])).toEqual([
      [wide.body.data.alert.id, tooDear.id],
      [narrow.id, third.id],
    ]);
  });

  it("validates, lists, deletes, and caps alerts at 50 under concurrency", async () => {
    const c = testCard("Alert cap card", "common", 100);
    await c.create();
    const f = await fan();
    const create = (json: unknown) => api("POST", "/api/v1/marketplace/alerts", { headers: f.auth, json });
    for (const [json, field] of [
      [{ cardId: c.id }, "body.maxPrice"],
      [{ cardId: c.id, maxPrice: 0 }, "body.maxPrice"],
      [{ cardId: c.id, maxPrice: 10, serialMin: 5, serialMax: 2 }, "body.serialMax"],
      [{ cardId: c.id, maxPrice: 10, extra: 1 }, "body"],
    ] as const) {
      const res = await create(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(
        errorOf(res)
          .details!.map((d) => d.path)
          .join(","),
      ).toContain(field);
    }
    expect((await create({ cardId: "cc_no_such_card", maxPrice: 10 })).status).toBe(404);
    expect((await api("POST", "/api/v1/marketplace/alerts", { json: { cardId: c.id, maxPrice: 10 } })).status).toBe(401);

    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => create({ cardId: c.id, maxPrice: 100 + i })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    expect(results.filter((r) => r.status === 409).map((r) => errorOf(r).code)).toEqual(Array(10).fill("ALERT_LIMIT"));
    const page = await api("GET", "/api/v1/marketplace/alerts?limit=40", { headers: f.auth });
    expect(page.body.data.alerts).toHaveLength(40);
    const id = page.body.data.alerts[0].id;
    const other = await fan();
    expect((await api("DELETE", `/api/v1/marketplace/alerts/${id}`, { headers: other.auth })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/marketplace/alerts/${id}`, { headers: f.auth })).status).toBe(200);
    expect((await api("DELETE", `/api/v1/marketplace/alerts/${id}`, { headers: f.auth })).status).toBe(404);
    expect((await create({ cardId: c.id, maxPrice: 5 })).status).toBe(201);
  });
});

describe("seller reputation", () => {
  it("shows completed sales, the refund rate, account age and Rep earned on listings and the profile", async () => {
    const c = testCard("Reputation card", "common", 100);
    const [seller, buyer] = await Promise.all([fan(), fan(100_000)]);
    const sales = [];
    for (const price of [100, 200]) {
      const l = await list(seller, await c.give(seller.id), price);
      expect((await buy(buyer, l.id)).status).toBe(200);
      sales.push(l);
    }
    const staff = newUser({ admin: true });
    expect((await api("POST", `/api/admin/marketplace/listings/${sales[0]!.id}/refund`, { headers: staff.auth })).status).toBe(200);
    // A fresh seller (no cached record yet): the detail shows the record from the ledgers.
    const onSale = await list(seller, await c.give(seller.id), 300);
    const detail = await api("GET", `/api/v1/marketplace/listings/${onSale.id}`);
    expect(detail.body.data.listing.seller.reputation).toEqual({ completedSales: 1, refundRate: 0.5, accountAgeDays: 0, earnedRep: expect.any(Number) });
    const browse = await api("GET", `/api/v1/marketplace/listings?sellerId=${seller.id}`, { headers: buyer.auth });
    expect(browse.body.data.listings[0].seller.reputation).toMatchObject({ completedSales: 1, refundRate: 0.5 });
    const profile = await api("GET", `/api/v1/users/${seller.id}`, { headers: buyer.auth });
    expect(profile.body.data.sellerReputation).toMatchObject({ completedSales: 1, refundRate: 0.5, accountAgeDays: 0 });
    const newcomer = await fan();
    expect((await api("GET", `/api/v1/users/${newcomer.id}`, { headers: buyer.auth })).body.data.sellerReputation).toMatchObject({
      completedSales: 0,
      refundRate: null,
    });
  });
});
