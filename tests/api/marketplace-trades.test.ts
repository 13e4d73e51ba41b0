import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, fan, newUser } from "../helpers";
import { act, balance, card, type Fan, ownerOf, propose, tradeLedgerNet, tradeRow } from "./marketplace-trades-fixtures";

// Trades: proposals with items and coins both ways, the recipient's accept (one transaction in the one lock order,
// everything re-checked, void when anything fails), decline, counter; the proposer's cancel. Every concurrency rule is
// raced and the database and balances asserted. Gifts, expiry, offer settings and erasure are in
// marketplace-trade-rules.test.ts.

beforeAll(() => card.create());

const counter = (f: Fan, id: string, json: Record<string, unknown>) =>
  api("POST", `/api/v1/marketplace/trades/${id}/counter`, { headers: { ...f.auth, "idempotency-key": randomUUID() }, json });
const list = (f: Fan, collectibleId: string, price = 500) =>
  api("POST", "/api/v1/marketplace/listings", { headers: f.auth, json: { kind: "fixed", collectibleId, price } });
const buy = (f: Fan, listingId: string) =>
  api("POST", `/api/v1/marketplace/listings/${listingId}/buy`, { headers: { ...f.auth, "idempotency-key": randomUUID() } });
const staleListings = (items: string[]) =>
  db().$queryRaw<{ id: string }[]>`
    SELECT l.id::text AS id FROM listings l JOIN collectibles c ON c.id = l.collectible_id
    WHERE l.status = 'active' AND l.seller_id <> c.owner_id AND l.collectible_id = ANY(${items}::uuid[])`;

describe("proposing", () => {
  it("holds the offered coins, shows both sides to both parties only, and notifies the recipient", async () => {
    const a = await fan(2_000);
    const b = await fan();
    const mine = await card.give(a.id);
    const theirs = await card.give(b.id);
    const res = await propose(a, { recipientId: b.id, offeredItems: [mine], askedItems: [theirs], offerCoins: 700, askCoins: 100, message: " Swap? " });
    expect(res.status).toBe(201);
    const t = res.body.data.trade;
    expect(t).toMatchObject({
      proposer: { id: a.id },
      recipient: { id: b.id },
      offered: { coins: 700, items: [{ id: mine, ownerId: a.id }] },
      asked: { coins: 100, items: [{ id: theirs, ownerId: b.id }] },
      gift: false,
      message: "Swap?",
      status: "open",
      voidReason: null,
      fees: null,
    });
    expect(new Date(t.expiresAt).getTime() - Date.now()).toBeGreaterThan(71 * 3_600_000);
    expect(await balance(a)).toBe(1_300);

    expect((await api("GET", `/api/v1/marketplace/trades/${t.id}`, { headers: b.auth })).body.data.trade.id).toBe(t.id);
    const stranger = await fan();
    expect((await api("GET", `/api/v1/marketplace/trades/${t.id}`, { headers: stranger.auth })).status).toBe(404);
    expect((await act(stranger, t.id, "accept")).status).toBe(404);
    expect((await act(stranger, t.id, "cancel")).status).toBe(404);
    expect(errorOf(await act(a, t.id, "accept")).code).toBe("FORBIDDEN");
    expect(errorOf(await act(b, t.id, "cancel")).code).toBe("FORBIDDEN");

    const sent = await api("GET", "/api/v1/marketplace/trades?role=sent&status=open", { headers: a.auth });
    expect(sent.body.data.trades.map((x: { id: string }) => x.id)).toEqual([t.id]);
    const received = await api("GET", "/api/v1/marketplace/trades?role=received", { headers: b.auth });
    expect(received.body.data.trades.map((x: { id: string }) => x.id)).toEqual([t.id]);
    expect((await api("GET", "/api/v1/marketplace/trades?role=received", { headers: a.auth })).body.data.trades).toEqual([]);

    const notes = await db().notification.findMany({ where: { userId: b.id, type: "TRADE_UPDATE" } });
    expect(notes.map((n) => n.payload)).toEqual([
      expect.objectContaining({ tradeId: t.id, event: "proposed", gift: false, actor: expect.objectContaining({ id: a.id }) }),
    ]);

    expect((await act(a, t.id, "cancel")).body.data.trade.status).toBe("cancelled");
    expect(await balance(a)).toBe(2_000);
    expect(errorOf(await act(b, t.id, "accept")).code).toBe("TRADE_CLOSED");
  });

  it("replays a retried proposal (same Idempotency-Key) without a second hold; pages the caller's trades", async () => {
    const a = await fan(1_000);
    const b = await fan();
    const headers = { ...a.auth, "idempotency-key": randomUUID() };
    const json = { recipientId: b.id, offerCoins: 100, askedItems: [await card.give(b.id)] };
    const [first, again] = [
      await api("POST", "/api/v1/marketplace/trades", { headers, json }),
      await api("POST", "/api/v1/marketplace/trades", { headers, json }),
    ];
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.trade.id).toBe(first.body.data.trade.id);
    expect(await balance(a)).toBe(900);
    const more = [];
    for (let i = 0; i < 3; i++) more.push((await propose(a, { recipientId: b.id, offerCoins: 10, askedItems: json.askedItems })).body.data.trade.id);
    const page1 = (await api("GET", "/api/v1/marketplace/trades?limit=2", { headers: a.auth })).body.data;
    const page2 = (await api("GET", `/api/v1/marketplace/trades?limit=2&cursor=${page1.nextCursor}`, { headers: a.auth })).body.data;
    expect([...page1.trades, ...page2.trades].map((t: { id: string }) => t.id)).toEqual([...more.reverse(), first.body.data.trade.id]);
    expect(page2.nextCursor).toBeUndefined();
  });

  it("refuses bad proposals with a clear 4xx and holds nothing", async () => {
    const a = await fan(1_000);
    const b = await fan();
    const mine = await card.give(a.id);
    const mine2 = await card.give(a.id);
    const theirs = await card.give(b.id);
    const bad = async (json: Record<string, unknown>, status: number, code: string, path?: string) => {
      const res = await propose(a, { recipientId: b.id, ...json });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(errorOf(res).code).toBe(code);
      if (path) expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    };
    await bad({ recipientId: a.id, offeredItems: [mine] }, 400, "VALIDATION_ERROR", "body.recipientId");
    await bad({ offeredItems: [mine], askedItems: [mine2] }, 400, "VALIDATION_ERROR", "body.askedItems.0");
    await bad({ offeredItems: [mine, mine] }, 400, "VALIDATION_ERROR", "body.offeredItems.1");
    await bad({ offeredItems: [mine], askedItems: [mine] }, 400, "VALIDATION_ERROR", "body.askedItems.0");
    await bad({}, 400, "VALIDATION_ERROR", "body.offeredItems");
    await bad({ askedItems: [theirs], askCoins: 100 }, 400, "VALIDATION_ERROR", "body.offerCoins");
    await bad({ offerCoins: -1 }, 400, "VALIDATION_ERROR", "body.offerCoins");
    await bad({ offeredItems: [mine], expiresInHours: 169 }, 400, "VALIDATION_ERROR", "body.expiresInHours");
    await bad({ offeredItems: [mine], message: "x".repeat(281) }, 400, "VALIDATION_ERROR", "body.message");
    await bad({ offeredItems: [theirs] }, 409, "TRADE_ITEM_GONE", "body.offeredItems.0");
    await bad({ offeredItems: [mine], askedItems: [randomUUID()] }, 409, "TRADE_ITEM_GONE", "body.askedItems.0");
    await bad({ offerCoins: 5_000 }, 409, "INSUFFICIENT_FUNDS");
    expect((await propose(a, { recipientId: randomUUID(), offeredItems: [mine] })).status).toBe(404);
    expect((await list(b, theirs)).status).toBe(201);
    await bad({ offeredItems: [mine], askedItems: [theirs] }, 409, "TRADE_ITEM_LISTED", "body.askedItems.0");
    expect(await db().trade.count({ where: { proposerId: a.id } })).toBe(0);
    expect(await balance(a)).toBe(1_000);
  });
});

describe("accepting", () => {
  it("moves items both ways and the coin legs, each paying the 5% fee from the side receiving it", async () => {
    const a = await fan(2_000);
    const b = await fan(1_000);
    const mine = await card.give(a.id);
    const theirs = await card.give(b.id);
    const t = (await propose(a, { recipientId: b.id, offeredItems: [mine], askedItems: [theirs], offerCoins: 1_000, askCoins: 300 })).body.data.trade;
    const res = await act(b, t.id, "accept");
    expect(res.status).toBe(200);
    expect(res.body.data.trade).toMatchObject({ status: "accepted", fees: { recipient: 50, proposer: 15 } });
    expect(await ownerOf(mine)).toBe(b.id);
    expect(await ownerOf(theirs)).toBe(a.id);
    expect(await balance(a)).toBe(2_000 - 1_000 + 300 - 15);
    expect(await balance(b)).toBe(1_000 + 1_000 - 300 - 50);
    expect(await tradeLedgerNet(t.id)).toBe(-65);
    const history = await db().collectibleTransfer.findMany({ where: { referenceId: t.id }, orderBy: { collectibleId: "asc" } });
    expect(history.map((h) => h.reason)).toEqual(["trade", "trade"]);
    const notes = await db().notification.findMany({ where: { userId: a.id, type: "TRADE_UPDATE" } });
    expect(notes.map((n) => (n.payload as { event: string }).event)).toEqual(["accepted"]);
    expect(errorOf(await act(b, t.id, "accept")).code).toBe("TRADE_CLOSED");
  });

  it("items for items pay no fee", async () => {
    const a = await fan();
    const b = await fan();
    const mine = await card.give(a.id);
    const theirs = await card.give(b.id);
    const t = (await propose(a, { recipientId: b.id, offeredItems: [mine], askedItems: [theirs] })).body.data.trade;
    expect((await act(b, t.id, "accept")).body.data.trade).toMatchObject({ status: "accepted", fees: { recipient: 0, proposer: 0 } });
    expect([await ownerOf(mine), await ownerOf(theirs)]).toEqual([b.id, a.id]);
    expect([await balance(a), await balance(b)]).toEqual([0, 0]);
    expect(await db().walletTransaction.count({ where: { referenceType: "trade", referenceId: t.id } })).toBe(0);
  });

  it("voids the trade when a re-check fails: nothing moves, the held coins go back, 409 names the reason", async () => {
    const a = await fan(1_000);
    const b = await fan(100);
    const mine = await card.give(a.id);
    const theirs = await card.give(b.id);
    // The proposer listed the offered item after proposing.
    const listed = (await propose(a, { recipientId: b.id, offeredItems: [mine], offerCoins: 400 })).body.data.trade;
    const listing = (await list(a, mine)).body.data.listing;
    expect(await balance(a)).toBe(600);
    const res = await act(b, listed.id, "accept");
    expect(res.status).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: "TRADE_ITEM_LISTED", details: [{ path: "offeredItems.0" }] });
    expect(await tradeRow(listed.id)).toMatchObject({ status: "void", voidReason: "TRADE_ITEM_LISTED" });
    expect(await ownerOf(mine)).toBe(a.id);
    expect(await balance(a)).toBe(1_000);
    expect(await balance(b)).toBe(100);
    expect((await api("GET", `/api/v1/marketplace/listings/${listing.id}`)).body.data.listing.status).toBe("active");
    const voidNote = await db().notification.findFirst({ where: { userId: a.id, type: "TRADE_UPDATE", causeKey: `trade:${listed.id}:void` } });
    expect(voidNote?.payload).toMatchObject({ voidReason: "TRADE_ITEM_LISTED" });

    // The recipient cannot pay the coins asked.
    const short = (await propose(a, { recipientId: b.id, offerCoins: 300, askedItems: [theirs], askCoins: 500 })).body.data.trade;
    expect(errorOf(await act(b, short.id, "accept")).code).toBe("TRADE_FUNDS_SHORT");
    expect(await tradeRow(short.id)).toMatchObject({ status: "void", voidReason: "TRADE_FUNDS_SHORT" });
    expect([await balance(a), await balance(b), await ownerOf(theirs)]).toEqual([1_000, 100, b.id]);

    // The asked item was minted to a wallet since.
    const minted = (await propose(a, { recipientId: b.id, offerCoins: 200, askedItems: [theirs] })).body.data.trade;
    await db().nftMint.create({ data: { userId: b.id, itemType: "collectible", itemId: theirs, name: "test mint", mintKey: theirs } });
    expect(errorOf(await act(b, minted.id, "accept"))).toMatchObject({ code: "TRADE_ITEM_MINTED", details: [{ path: "askedItems.0" }] });
    expect([await balance(a), await balance(b), await ownerOf(theirs)]).toEqual([1_000, 100, b.id]);

    // The offered item changed hands since (another trade).
    expect((await api("DELETE", `/api/v1/marketplace/listings/${listing.id}`, { headers: a.auth })).status).toBe(200);
    const other = await fan();
    const first = (await propose(a, { recipientId: other.id, offeredItems: [mine] })).body.data.trade;
    const second = (await propose(a, { recipientId: b.id, offeredItems: [mine], offerCoins: 100 })).body.data.trade;
    expect((await act(other, first.id, "accept")).status).toBe(200);
    expect(errorOf(await act(b, second.id, "accept"))).toMatchObject({ code: "TRADE_ITEM_GONE" });
    expect([await balance(a), await ownerOf(mine)]).toEqual([1_000, other.id]);
    for (const id of [listed.id, short.id, minted.id, second.id]) expect(await tradeLedgerNet(id)).toBe(0);
  });

  it("voids the trade of a proposer barred from trading since proposing; a barred user cannot propose", async () => {
    const a = await fan(500);
    const b = await fan();
    const item = await card.give(a.id);
    const t = (await propose(a, { recipientId: b.id, offeredItems: [item], offerCoins: 500 })).body.data.trade;
    const staff = newUser({ admin: true });
    const imposed = await api("POST", "/api/admin/moderation/sanctions", {
      headers: staff.auth,
      json: { userId: a.id, kind: "trading", hours: 24, reason: "Test" },
    });
    expect(imposed.status).toBe(201);
    expect(errorOf(await act(b, t.id, "accept")).code).toBe("TRADE_WALLET_FROZEN");
    expect(await tradeRow(t.id)).toMatchObject({ status: "void", voidReason: "TRADE_WALLET_FROZEN" });
    expect([await ownerOf(item), await balance(a), await balance(b)]).toEqual([a.id, 500, 0]);
    expect(errorOf(await propose(a, { recipientId: b.id, offeredItems: [item] })).code).toBe("TRADING_RESTRICTED");
  });

  it("races acceptances of two trades, a listing and a sale of one item, 12 times at once: exactly one wins", async () => {
    const rounds = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const owner = await fan();
        const [b, c, d] = await Promise.all([fan(1_000), fan(1_000), fan(1_000)]);
        const item = await card.give(owner.id);
        // Two fans each offer 400 for the item; the owner accepts both, and lists it for a third to buy, all at once.
        const t1 = (await propose(b, { recipientId: owner.id, offerCoins: 400, askedItems: [item] })).body.data.trade;
        const t2 = (await propose(c, { recipientId: owner.id, offerCoins: 400, askedItems: [item] })).body.data.trade;
        const [r1, r2, sale] = await Promise.all([
          act(owner, t1.id, "accept"),
          act(owner, t2.id, "accept"),
          list(owner, item).then(async (l) => (l.status === 201 ? { listing: l, bought: await buy(d, l.body.data.listing.id) } : { listing: l, bought: null })),
        ]);
        return { owner, b, c, d, item, t1, t2, r1, r2, sale };
      }),
    );
    for (const r of rounds) {
      const sold = r.sale.bought?.status === 200;
      const winners = [r.r1.status === 200, r.r2.status === 200, sold].filter(Boolean).length;
      expect(winners, JSON.stringify({ r1: r.r1.body, r2: r.r2.body, sale: r.sale.listing.body })).toBe(1);
      const owner = await ownerOf(r.item);
      const [ob, bb, cb, db_] = await Promise.all([balance(r.owner), balance(r.b), balance(r.c), balance(r.d)]);
      if (r.r1.status === 200) expect([owner, ob, bb, cb, db_]).toEqual([r.b.id, 380, 600, 1_000, 1_000]);
      else if (r.r2.status === 200) expect([owner, ob, bb, cb, db_]).toEqual([r.c.id, 380, 1_000, 600, 1_000]);
      else expect([owner, ob, bb, cb, db_]).toEqual([r.d.id, 475, 1_000, 1_000, 500]);
      for (const [res, t] of [
        [r.r1, r.t1],
        [r.r2, r.t2],
      ] as const) {
        const row = await tradeRow(t.id);
        if (res.status === 200) expect(row.status).toBe("accepted");
        else {
          expect(res.status).toBe(409);
          expect(["TRADE_ITEM_GONE", "TRADE_ITEM_LISTED"]).toContain(errorOf(res).code);
          expect(row).toMatchObject({ status: "void", voidReason: errorOf(res).code });
          expect(await tradeLedgerNet(t.id)).toBe(0);
        }
      }
    }
    expect(await staleListings(rounds.map((r) => r.item))).toEqual([]);
    expect(await db().listing.count({ where: { collectibleId: { in: rounds.map((r) => r.item) }, status: "active" } })).toBe(0);
  });
});

describe("countering", () => {
  it("closes the old trade as countered and opens the new one, sides swapped, holds moved, in one step", async () => {
    const a = await fan(1_000);
    const b = await fan(1_000);
    const mine = await card.give(a.id);
    const theirs = await card.give(b.id);
    const old = (await propose(a, { recipientId: b.id, offeredItems: [mine], offerCoins: 300, askedItems: [theirs] })).body.data.trade;
    const res = await counter(b, old.id, { offeredItems: [theirs], offerCoins: 100, askedItems: [mine], askCoins: 500 });
    expect(res.status).toBe(201);
    const { trade, countered } = res.body.data;
    expect(countered).toMatchObject({ id: old.id, status: "countered", counteredById: trade.id });
    expect(trade).toMatchObject({
      status: "open",
      counterOfId: old.id,
      proposer: { id: b.id },
      recipient: { id: a.id },
      offered: { coins: 100, items: [{ id: theirs }] },
      asked: { coins: 500, items: [{ id: mine }] },
    });
    expect([await balance(a), await balance(b)]).toEqual([1_000, 900]);
    const note = await db().notification.findFirst({ where: { userId: a.id, type: "TRADE_UPDATE", causeKey: `trade:${trade.id}:countered` } });
    expect(note?.payload).toMatchObject({ event: "countered", counterOfId: old.id });
    expect(errorOf(await counter(b, old.id, { offerCoins: 1, askedItems: [mine] })).code).toBe("TRADE_CLOSED");
    expect(errorOf(await counter(b, trade.id, { offerCoins: 1, askedItems: [mine] })).code).toBe("FORBIDDEN");
  });

  it("a counter and an accept of the same trade at once, 10 times: exactly one goes through, holds right", async () => {
    const rounds = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const a = await fan(1_000);
        const b = await fan(1_000);
        const mine = await card.give(a.id);
        const theirs = await card.give(b.id);
        const old = (await propose(a, { recipientId: b.id, offeredItems: [mine], offerCoins: 300, askedItems: [theirs] })).body.data.trade;
        const [accepted, countered] = await Promise.all([
          act(b, old.id, "accept"),
          counter(b, old.id, { offeredItems: [theirs], offerCoins: 200, askedItems: [mine] }),
        ]);
        return { a, b, mine, theirs, old, accepted, countered };
      }),
    );
    for (const r of rounds) {
      expect([r.accepted.status, r.countered.status].sort()).toEqual(r.accepted.status === 200 ? [200, 409] : [201, 409]);
      const loser = r.accepted.status === 200 ? r.countered : r.accepted;
      expect(errorOf(loser).code).toBe("TRADE_CLOSED");
      const oldRow = await tradeRow(r.old.id);
      const counters = await db().trade.findMany({ where: { counterOfId: r.old.id } });
      if (r.accepted.status === 200) {
        expect(oldRow.status).toBe("accepted");
        expect(counters).toEqual([]);
        expect([await balance(r.a), await balance(r.b), await ownerOf(r.mine), await ownerOf(r.theirs)]).toEqual([700, 1_000 + 300 - 15, r.b.id, r.a.id]);
      } else {
        expect(oldRow).toMatchObject({ status: "countered", counteredById: counters[0]!.id });
        expect(counters.map((c) => c.status)).toEqual(["open"]);
        expect([await balance(r.a), await balance(r.b), await ownerOf(r.mine), await ownerOf(r.theirs)]).toEqual([1_000, 800, r.a.id, r.b.id]);
      }
    }
  });
});
