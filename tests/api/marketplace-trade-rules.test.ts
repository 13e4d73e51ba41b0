import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, newUser } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";
import { act, balance, card, type Fan, ownerOf, propose, tradeLedgerNet, tradeRow } from "./marketplace-trades-fixtures";

// The rules around trades: gifts (and trades for a nominal price) and their limit per sender, expiry by the marketplace
// cron, offer settings, the economy invariant over trade holds, and account erasure closing a user's open trades.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/marketplace", { headers: { authorization: `Bearer ${cronSecret()}` } });

beforeAll(() => card.create());

describe("gifts", () => {
  it("asks nothing back; the recipient accepts; history says gift; coins pay the fee", async () => {
    const a = await fan(1_000);
    const b = await fan();
    const item = await card.give(a.id);
    const g = (await propose(a, { recipientId: b.id, offeredItems: [item], offerCoins: 200 })).body.data.trade;
    expect(g).toMatchObject({ gift: true, status: "open" });
    expect((await db().notification.findFirst({ where: { userId: b.id, causeKey: `trade:${g.id}:proposed` } }))?.payload).toMatchObject({ gift: true });
    expect((await act(b, g.id, "accept")).body.data.trade).toMatchObject({ status: "accepted", fees: { recipient: 10, proposer: 0 } });
    expect([await ownerOf(item), await balance(a), await balance(b)]).toEqual([b.id, 800, 190]);
    expect((await db().collectibleTransfer.findFirstOrThrow({ where: { referenceId: g.id } })).reason).toBe("gift");
  });

  it("a declined gift gives the coins back and tells the sender", async () => {
    const a = await fan(500);
    const b = await fan();
    const g = (await propose(a, { recipientId: b.id, offerCoins: 500 })).body.data.trade;
    expect(await balance(a)).toBe(0);
    expect((await act(b, g.id, "decline")).body.data.trade.status).toBe("declined");
    expect([await balance(a), await balance(b)]).toEqual([500, 0]);
    expect((await db().notification.findFirst({ where: { userId: a.id, causeKey: `trade:${g.id}:declined` } }))?.payload).toMatchObject({ event: "declined" });
  });

  it("are rate-limited per sender (policy gifts; 5 a minute under test): trades asking something back are not", async () => {
    const a = await fan(100);
    const b = await fan();
    const results = await Promise.all(Array.from({ length: 8 }, () => propose(a, { recipientId: b.id, offerCoins: 1 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(results.find((r) => r.status === 429)!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await balance(a)).toBe(95);
    const [mine, theirs] = await Promise.all([card.give(a.id), card.give(b.id)]);
    expect((await propose(a, { recipientId: b.id, offeredItems: [mine], askedItems: [theirs] })).status).toBe(201);
    expect((await propose(a, { recipientId: b.id, offeredItems: [mine], askCoins: 1_000 })).status).toBe(201);
    expect((await propose(await fan(1), { recipientId: b.id, offerCoins: 1 })).status).toBe(201);
  });

  it("a trade for a nominal price (a side giving no items and, net, under 1 000 minor units) counts as a gift", { timeout: 60_000 }, async () => {
    const b = await fan(10_000);
    const theirs = await card.give(b.id);
    // Each kind from a fresh sender: 5 pass (the test policy), the 6th is 429; the same item may be in several open trades.
    const kinds: [string, (a: Fan, mine: string) => Record<string, unknown>][] = [
      ["a card for 1 coin", (_, mine) => ({ offeredItems: [mine], askCoins: 1 })],
      ["a card for 999 coins", (_, mine) => ({ offeredItems: [mine], askCoins: 999 })],
      ["a card and 5 000 coins for 5 500 coins", (_, mine) => ({ offeredItems: [mine], offerCoins: 5_000, askCoins: 5_500 })],
      ["a card asked for 1 coin", () => ({ askedItems: [theirs], offerCoins: 1 })],
      ["coins for fewer coins", () => ({ offerCoins: 2_000, askCoins: 1_500 })],
    ];
    for (const [kind, body] of kinds) {
      const a = await fan(100_000);
      const mine = await card.give(a.id);
      // A burst across the limiter's window edge could find a token come back (tests/rate-window.ts).
      await awayFromWindowEdge();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await propose(a, { recipientId: b.id, ...body(a, mine) })).status);
      expect(statuses, kind).toEqual([201, 201, 201, 201, 201, 429]);
    }
    // A price of note is not limited: a card for 1 000 coins, a card bought for 1 000 coins, items both ways.
    const a = await fan(100_000);
    const mine = await card.give(a.id);
    const fair = [
      { offeredItems: [mine], askCoins: 1_000 },
      { askedItems: [theirs], offerCoins: 1_000 },
      { offeredItems: [mine], askedItems: [theirs] },
    ];
    for (let i = 0; i < 8; i++) expect((await propose(a, { recipientId: b.id, ...fair[i % 3] })).status).toBe(201);
  });
});

describe("expiry", () => {
  it("the marketplace cron expires open trades past their time and gives the held coins back", async () => {
    const a = await fan(300);
    const b = await fan();
    const t = (await propose(a, { recipientId: b.id, offerCoins: 300, expiresInHours: 1 })).body.data.trade;
    await db().$executeRaw`UPDATE trades SET expires_at = now() - interval '1 second' WHERE id = ${t.id}::uuid`;
    expect(errorOf(await act(b, t.id, "accept")).code).toBe("TRADE_CLOSED");
    const run = await cron();
    expect(run.status).toBe(200);
    // Counted by this run or by a run another file started at the same moment (the cron is shared): the row says.
    expect(run.body.data.tradesExpired).toEqual(expect.any(Number));
    expect((await tradeRow(t.id)).status).toBe("expired");
    expect(await balance(a)).toBe(300);
    expect(await tradeLedgerNet(t.id)).toBe(0);
  });
});

describe("offer settings", () => {
  it("a minimum per card and refused users, enforced on offers and trade proposals; blocks refuse too", async () => {
    const owner = await fan();
    const [buyer, refused, blocked] = await Promise.all([fan(5_000), fan(5_000), fan(5_000)]);
    const item = await card.give(owner.id);
    expect((await api("GET", "/api/v1/marketplace/offer-settings", { headers: owner.auth })).body.data.settings).toEqual({
      minimumOffers: [],
      refusedUserIds: [],
    });
    const put = await api("PUT", "/api/v1/marketplace/offer-settings", {
      headers: owner.auth,
      json: { minimumOffers: [{ cardId: card.id, amount: 1_000 }], refusedUserIds: [refused.id] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.settings).toEqual({ minimumOffers: [{ cardId: card.id, amount: 1_000 }], refusedUserIds: [refused.id] });

    const offer = (f: Fan, amount: number) =>
      api("POST", "/api/v1/marketplace/offers", { headers: { ...f.auth, "idempotency-key": randomUUID() }, json: { collectibleId: item, amount } });
    const low = await offer(buyer, 999);
    expect(errorOf(low)).toMatchObject({ code: "OFFER_BELOW_MINIMUM", details: [{ path: "body.amount", message: "at least 1000" }] });
    expect(await balance(buyer)).toBe(5_000);
    expect((await offer(buyer, 1_000)).status).toBe(201);
    expect(errorOf(await offer(refused, 2_000)).code).toBe("REFUSED_BY_USER");
    expect(errorOf(await propose(refused, { recipientId: owner.id, offerCoins: 2_000, askedItems: [item] })).code).toBe("REFUSED_BY_USER");
    expect(await balance(refused)).toBe(5_000);
    // A trade proposal's coins are not an offer: the minimum does not apply to them.
    expect((await propose(buyer, { recipientId: owner.id, offerCoins: 10, askedItems: [item] })).status).toBe(201);

    expect((await api("POST", "/api/user/blocks", { headers: owner.auth, json: { blockedUserId: blocked.id } })).status).toBe(200);
    expect(errorOf(await propose(blocked, { recipientId: owner.id, offerCoins: 10 })).code).toBe("REFUSED_BY_USER");
    expect(errorOf(await propose(owner, { recipientId: blocked.id, offeredItems: [item] })).code).toBe("REFUSED_BY_USER");
    expect(errorOf(await offer(blocked, 2_000)).code).toBe("REFUSED_BY_USER");
  });

  it("refuses unknown cards and users, duplicates, oneself and lists past their caps with a 400 naming them", async () => {
    const me = await fan();
    const other = await fan();
    const put = (json: unknown) => api("PUT", "/api/v1/marketplace/offer-settings", { headers: me.auth, json });
    const paths = async (json: unknown) => {
      const res = await put(json);
      expect(res.status).toBe(400);
      return errorOf(res).details?.map((d) => d.path);
    };
    expect(await paths({ minimumOffers: [{ cardId: "cc_nope", amount: 5 }], refusedUserIds: [] })).toEqual(["body.minimumOffers.0.cardId"]);
    expect(await paths({ minimumOffers: [], refusedUserIds: [randomUUID()] })).toEqual(["body.refusedUserIds.0"]);
    expect(await paths({ minimumOffers: [], refusedUserIds: [me.id] })).toEqual(["body.refusedUserIds.0"]);
    expect(await paths({ minimumOffers: [], refusedUserIds: [other.id, other.id] })).toEqual(["body.refusedUserIds.1"]);
    expect(
      await paths({
        minimumOffers: [
          { cardId: card.id, amount: 5 },
          { cardId: card.id, amount: 6 },
        ],
        refusedUserIds: [],
      }),
    ).toEqual(["body.minimumOffers.1.cardId"]);
    expect(await paths({ minimumOffers: [{ cardId: card.id, amount: 0 }], refusedUserIds: [] })).toEqual(["body.minimumOffers.0.amount"]);
    expect(await paths({ minimumOffers: [], refusedUserIds: Array.from({ length: 501 }, () => randomUUID()) })).toEqual(["body.refusedUserIds"]);
    // The caps themselves fit in a body.
    const many = await put({ minimumOffers: [{ cardId: card.id, amount: 5 }], refusedUserIds: [other.id, ...Array.from({ length: 499 }, () => randomUUID())] });
    expect(errorOf(many).details).toHaveLength(499);
    expect((await put({ minimumOffers: [], refusedUserIds: [other.id] })).status).toBe(200);
  });
});

describe("the economy invariant", () => {
  it("covers trade holds: none disagrees with its trade's state", async () => {
    const staff = newUser({ admin: true });
    const report = (await api("GET", "/api/admin/wallets/invariant", { headers: staff.auth })).body.data;
    expect(report.tradeMismatches).toEqual([]);
    expect(report.mismatches).toEqual([]);
  });

  it("reports a trade whose held coins went missing", async () => {
    const a = await fan(100);
    const b = await fan();
    const t = (await propose(a, { recipientId: b.id, offerCoins: 100 })).body.data.trade;
    const { checkInvariant } = await import("../../lib/operations/invariants/economy");
    const rollback = new Error("rollback");
    await expect(
      db().$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE trades SET status = 'cancelled' WHERE id = ${t.id}::uuid`;
        const report = await checkInvariant(tx);
        expect(report.ok).toBe(false);
        expect(report.tradeMismatches).toEqual([{ tradeId: t.id, status: "cancelled", expected: 0, ledger: -100 }]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });
});

describe("account erasure", () => {
  it("closes the user's open trades either side, every hold back before the forfeit, and erases their messages", async () => {
    const a = await fan(1_000);
    const b = await fan();
    const c = await fan(500);
    const mine = (await propose(a, { recipientId: b.id, offerCoins: 300, message: "for you" })).body.data.trade;
    const theirs = (await propose(c, { recipientId: a.id, offerCoins: 200 })).body.data.trade;
    const scheduled = await api("POST", "/api/v1/me/deletion", { headers: a.auth, json: { confirm: true } });
    expect(scheduled.body.data.deletion.coins).toMatchObject({ balance: 700, held: 300, forfeited: 1_000 });
    await db().$executeRaw`UPDATE account_deletions SET requested_at = now() - interval '8 days', due_at = now() - interval '1 second',
                   not_before = now() - interval '1 second' WHERE user_id = ${a.id}::uuid`;
    const run = await api("GET", "/api/cron/account-erasure", { headers: { authorization: `Bearer ${cronSecret()}` } });
    expect(run.status).toBe(200);
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: a.id } })).state).toBe("erased");
    expect(await tradeRow(mine.id)).toMatchObject({ status: "cancelled", message: null });
    expect((await tradeRow(theirs.id)).status).toBe("declined");
    expect(await balance(c)).toBe(500);
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: a.id } })).coinsForfeited).toBe(1_000n);
    for (const id of [mine.id, theirs.id]) expect(await tradeLedgerNet(id)).toBe(0);
  });
});
