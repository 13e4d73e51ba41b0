import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RARITY_ORDER, verifyDraw, type Rarity, type Weights } from "../../lib/features/packs/draw";
import { api, db, errorOf, fan, newUser } from "../helpers";

// Wallets, packs, openings and collectibles end to end: money and ownership exact under concurrency.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Staff calls are spread over staff members: each one's money routes are rate-limited (policy money).
const staffMember = () => newUser({ admin: true });
const staff = staffMember();
const key = () => randomUUID();

const balance = async (auth: Record<string, string>) => (await api("GET", "/api/v1/wallet", { headers: auth })).body.data.wallets[0].balance as number;
const buy = (auth: Record<string, string>, packId: string, k: string | null = key()) =>
  api("POST", `/api/v1/packs/${packId}/purchases`, { headers: k === null ? auth : { ...auth, "idempotency-key": k } });
const open = (auth: Record<string, string>, purchaseId: string) => api("POST", `/api/v1/packs/purchases/${purchaseId}/open`, { headers: auth });

/** A pack of its own for a test (stock, pool and weights of its choosing), so seeded packs stay as they are. */
async function testPack(o: {
  stock?: number | null;
  price?: number;
  items?: number;
  pool?: Partial<Record<Rarity, string[]>>;
  weights?: Weights;
  saleStartsAt?: Date;
  saleEndsAt?: Date;
}) {
  const id = `pk_test_${randomUUID().slice(0, 8)}`;
  const cards = await db().collectibleCard.findMany({ where: { rarity: "common" }, orderBy: { id: "asc" }, take: 20, select: { id: true } });
  const pool = { common: cards.map((c) => c.id), rare: [], epic: [], legendary: [], ...o.pool };
  await db().pack.create({
    data: {
      id,
      slug: id,
      name: `Test ${id}`,
      price: o.price ?? 1_000,
      itemsPerPack: o.items ?? 3,
      stock: o.stock ?? null,
      oddsVersion: 1,
      saleStartsAt: o.saleStartsAt ?? null,
      saleEndsAt: o.saleEndsAt ?? null,
    },
  });
  await db().packOddsTable.create({ data: { packId: id, version: 1, weights: o.weights ?? { common: 10_000, rare: 0, epic: 0, legendary: 0 }, pool } });
  return id;
}

describe("wallets", () => {
  it("a new fan has a COIN wallet at 0 and an empty ledger", async () => {
    const f = await fan();
    const res = await api("GET", "/api/v1/wallet", { headers: f.auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ wallets: [{ currency: "COIN", balance: 0, debt: 0, frozen: false, decimals: 2, updatedAt: null }] });
    expect((await api("GET", "/api/v1/wallet/transactions", { headers: f.auth })).body.data).toEqual({ transactions: [] });
    expect((await api("GET", "/api/v1/wallet")).status).toBe(401);
  });

  it("staff credit and debit with a note; a debit past the balance is 409 and changes nothing", async () => {
    const f = await fan();
    const member = staffMember();
    const adjust = (amount: number, headers = member.auth) =>
      api("POST", "/api/admin/wallets/adjustments", { headers, json: { userId: f.id, amount, note: "goodwill" } });
    expect((await adjust(500, f.auth)).status).toBe(403);
    const credit = await adjust(1_250);
    expect(credit.status).toBe(201);
    expect(credit.body.data.transaction).toMatchObject({ amount: 1_250, balanceAfter: 1_250, reason: "adjustment", referenceType: "staff", note: "goodwill" });
    const refused = await adjust(-2_000);
    expect(refused.status).toBe(409);
    expect(errorOf(refused).code).toBe("INSUFFICIENT_FUNDS");
    expect((await adjust(-250)).body.data.transaction).toMatchObject({ amount: -250, balanceAfter: 1_000 });
    expect(await balance(f.auth)).toBe(1_000);
    const ledger = (await api("GET", "/api/v1/wallet/transactions?limit=1", { headers: f.auth })).body.data;
    expect(ledger.transactions.map((t: { amount: number }) => t.amount)).toEqual([-250]);
    const next = (await api("GET", `/api/v1/wallet/transactions?limit=5&cursor=${ledger.nextCursor}`, { headers: f.auth })).body.data;
    expect(next.transactions.map((t: { amount: number }) => t.amount)).toEqual([1_250]);
    expect(next.nextCursor).toBeUndefined();

    for (const [json, field] of [
      [{ userId: f.id, amount: 0, note: "x" }, "body.amount"],
      [{ userId: f.id, amount: 1.5, note: "x" }, "body.amount"],
      [{ userId: f.id, amount: 10 }, "body.note"],
      [{ userId: "nope", amount: 10, note: "x" }, "body.userId"],
    ] as const) {
      const res = await api("POST", "/api/admin/wallets/adjustments", { headers: staff.auth, json });
      expect(res.status).toBe(400);
      expect(errorOf(res).details!.map((d) => d.path)).toContain(field);
    }
    const unknown = await api("POST", "/api/admin/wallets/adjustments", { headers: staff.auth, json: { userId: randomUUID(), amount: 10, note: "x" } });
    expect(unknown.status).toBe(404);
  });

  it("twenty concurrent debits of 1.00 from a 10.00 balance: ten pass, ten are refused, the balance ends at 0", async () => {
    const f = await fan(1_000);
    const racer = staffMember();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        api("POST", "/api/admin/wallets/adjustments", { headers: racer.auth, json: { userId: f.id, amount: -100, note: "race" } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "INSUFFICIENT_FUNDS")).toHaveLength(10);
    expect(await balance(f.auth)).toBe(0);
    const after = results.filter((r) => r.status === 201).map((r) => r.body.data.transaction.balanceAfter as number);
    expect(after.sort((a, b) => a - b)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });

  it("the invariant page: every balance equals the sum of its ledger (staff only)", async () => {
    expect((await api("GET", "/api/admin/wallets/invariant", { headers: (await fan()).auth })).status).toBe(403);
    const res = await api("GET", "/api/admin/wallets/invariant", { headers: staff.auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, mismatches: [] });
    expect(res.body.data.wallets).toBeGreaterThan(0);
  });

  it("the CHECK constraint refuses a negative balance even when code would write one", async () => {
    const f = await fan(100);
    await expect(db().$executeRaw`UPDATE wallets SET balance = -1 WHERE user_id = ${f.id}::uuid`).rejects.toThrow(/wallets_balance_nonnegative/);
  });
});

describe("packs", () => {
  it("lists packs with their price, stock and published odds; the odds table is immutable", async () => {
    const res = await api("GET", "/api/v1/packs");
    expect(res.status).toBe(200);
    const packs = res.body.data.packs as { id: string; odds: { version: number; rarities: { weight: number; cards: number }[] } }[];
    const legends = packs.find((p) => p.id === "pk_legends")!;
    expect(legends).toMatchObject({ price: 100_000, currency: "COIN", decimals: 2, itemsPerPack: 3, stock: 500, grantOnly: false });
    for (const p of packs) expect(p.odds.rarities.reduce((s, r) => s + r.weight, 0)).toBe(10_000);
    expect(legends.odds.rarities.map((r) => r.weight)).toEqual([0, 6_500, 2_900, 600]);

    const one = await api("GET", "/api/v1/packs/pk_gameday");
    expect(one.body.data).toMatchObject({ id: "pk_gameday", onSale: true, price: 25_000 });
    expect((await api("GET", "/api/v1/packs/pk_nope")).status).toBe(404);

    const odds = await api("GET", "/api/v1/packs/pk_gameday/odds/1");
    expect(odds.status).toBe(200);
    expect(odds.headers.get("cache-control")).toContain("immutable");
    expect(odds.body.data.weights).toEqual({ common: 7_000, rare: 2_300, epic: 600, legendary: 100 });
    expect(odds.body.data.pool.legendary.length).toBeGreaterThan(0);
    expect((await api("GET", "/api/v1/packs/pk_gameday/odds/9")).status).toBe(404);
    expect((await api("GET", "/api/v1/packs/pk_gameday/odds/x")).status).toBe(400);
  });

  it("buying needs an Idempotency-Key, debits the price and records the purchase; a retry replays it", async () => {
    const f = await fan(30_000);
    const missing = await buy(f.auth, "pk_gameday", null);
    expect(missing.status).toBe(400);
    expect(errorOf(missing).details).toEqual([{ path: "headers.idempotency-key", message: "required" }]);

    const k = key();
    const first = await buy(f.auth, "pk_gameday", k);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const purchase = first.body.data.purchase;
    expect(purchase).toMatchObject({
      id: expect.stringMatching(UUID),
      pack: { id: "pk_gameday" },
      source: "purchase",
      price: 25_000,
      openedAt: null,
      opening: null,
    });
    expect(await balance(f.auth)).toBe(5_000);
    const [debit] = (await api("GET", "/api/v1/wallet/transactions?limit=1", { headers: f.auth })).body.data.transactions;
    expect(debit).toMatchObject({ amount: -25_000, balanceAfter: 5_000, reason: "purchase", referenceType: "pack_purchase", referenceId: purchase.id });

    const again = await buy(f.auth, "pk_gameday", k);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await balance(f.auth)).toBe(5_000);

    const other = await buy(f.auth, "pk_legends", k);
    expect(other.status).toBe(409);
    expect(errorOf(other).code).toBe("IDEMPOTENCY_KEY_REUSED");

    const poor = await buy(f.auth, "pk_gameday");
    expect(poor.status).toBe(409);
    expect(errorOf(poor).code).toBe("INSUFFICIENT_FUNDS");
    expect(await db().packPurchase.count({ where: { userId: f.id } })).toBe(1);

    expect(errorOf(await buy(f.auth, "pk_starter")).code).toBe("PACK_NOT_FOR_SALE");
    expect((await buy(f.auth, "pk_nope")).status).toBe(404);
  });

  it("a refused buy stores no key: the same key works once the wallet is funded", async () => {
    const f = await fan();
    const k = key();
    expect(errorOf(await buy(f.auth, "pk_gameday", k)).code).toBe("INSUFFICIENT_FUNDS");
    await api("POST", "/api/admin/wallets/adjustments", { headers: staffMember().auth, json: { userId: f.id, amount: 25_000, note: "top up" } });
    const res = await buy(f.auth, "pk_gameday", k);
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
  });

  it("staff set a pack's stock, never below what was sold", async () => {
    const packId = await testPack({ stock: 2 });
    const f = await fan(5_000);
    expect((await buy(f.auth, packId)).status).toBe(201);
    const setStock = (stock: number | null, headers = staff.auth) => api("PUT", `/api/admin/packs/${packId}/stock`, { headers, json: { stock } });
    expect((await setStock(10, f.auth)).status).toBe(403);
    expect((await setStock(5)).body.data).toMatchObject({ stock: 5, remaining: 4 });
    expect(errorOf(await setStock(0)).code).toBe("STOCK_BELOW_SOLD");
    expect((await setStock(null)).body.data).toMatchObject({ stock: null, remaining: null, onSale: true });
    expect((await api("PUT", "/api/admin/packs/pk_nope/stock", { headers: staff.auth, json: { stock: 1 } })).status).toBe(404);
    expect((await setStock(-1)).status).toBe(400);
  });

  it("a pack outside its sale window is not for sale", async () => {
    const f = await fan(10_000);
    const later = await testPack({ saleStartsAt: new Date(Date.now() + 3_600_000) });
    const over = await testPack({ saleEndsAt: new Date(Date.now() - 1_000) });
    for (const packId of [later, over]) {
      expect(errorOf(await buy(f.auth, packId)).code).toBe("PACK_NOT_FOR_SALE");
      expect((await api("GET", `/api/v1/packs/${packId}`)).body.data.onSale).toBe(false);
    }
    expect(await balance(f.auth)).toBe(10_000);
  });

  it("an idempotency key expires after 24 hours: the same key then buys afresh", async () => {
    const f = await fan(60_000);
    const k = key();
    const first = (await buy(f.auth, "pk_gameday", k)).body.data.purchase.id;
    await db().$executeRaw`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE user_id = ${f.id}::uuid AND key = ${k}`;
    const again = await buy(f.auth, "pk_gameday", k);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.data.purchase.id).not.toBe(first);
    expect(await balance(f.auth)).toBe(10_000);
  });

  it("ten concurrent retries with one key buy once", async () => {
    const f = await fan(100_000);
    const k = key();
    const results = await Promise.all(Array.from({ length: 10 }, () => buy(f.auth, "pk_gameday", k)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body.data.purchase.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(await db().packPurchase.count({ where: { userId: f.id } })).toBe(1);
    expect(await balance(f.auth)).toBe(75_000);
  });

  it("ten concurrent buys with a balance for two: two purchases, eight INSUFFICIENT_FUNDS, balance 0", async () => {
    const f = await fan(50_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => buy(f.auth, "pk_gameday")));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "INSUFFICIENT_FUNDS")).toHaveLength(8);
    expect(await balance(f.auth)).toBe(0);
    expect(await db().packPurchase.count({ where: { userId: f.id } })).toBe(2);
  });

  it("the last packs of a stock go to exactly as many buyers; the rest are SOLD_OUT and pay nothing", async () => {
    const packId = await testPack({ stock: 3, price: 1_000 });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => fan(1_000)));
    const results = await Promise.all(buyers.map((b) => buy(b.auth, packId)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "SOLD_OUT")).toHaveLength(5);
    const balances = await Promise.all(buyers.map((b) => balance(b.auth)));
    expect(balances.filter((b) => b === 0)).toHaveLength(3);
    expect(balances.filter((b) => b === 1_000)).toHaveLength(5);
    expect((await api("GET", `/api/v1/packs/${packId}`)).body.data).toMatchObject({ remaining: 0, onSale: false });
  });
});

describe("opening packs", () => {
  it("draws itemsPerPack collectibles for the buyer, once: opening again, also concurrently, answers the same", async () => {
    const f = await fan(25_000);
    const purchase = (await buy(f.auth, "pk_gameday")).body.data.purchase;
    const results = await Promise.all(Array.from({ length: 8 }, () => open(f.auth, purchase.id)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    for (const r of results) expect(r.body.data).toEqual(results[0]!.body.data);
    const opened = results[0]!.body.data.purchase;
    expect(opened.openedAt).not.toBeNull();
    expect(opened.opening.draws).toHaveLength(8);
    expect(opened.opening.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await db().collectible.count({ where: { purchaseId: purchase.id } })).toBe(8);

    const mine = (await api("GET", "/api/v1/collectibles?limit=100", { headers: f.auth })).body.data.collectibles as { id: string }[];
    expect(mine.map((c) => c.id).sort()).toEqual(opened.opening.draws.map((d: { collectible: { id: string } }) => d.collectible.id).sort());
    expect((await api("GET", `/api/v1/packs/purchases/${purchase.id}`, { headers: f.auth })).body.data).toEqual({ purchase: opened });
    const listed = (await api("GET", "/api/v1/packs/purchases", { headers: f.auth })).body.data.purchases;
    expect(listed).toEqual([opened]);
    expect((await api("GET", "/api/v1/packs/purchases?unopened=true", { headers: f.auth })).body.data.purchases).toEqual([]);

    const stranger = await fan();
    expect((await open(stranger.auth, purchase.id)).status).toBe(404);
    expect((await api("GET", `/api/v1/packs/purchases/${purchase.id}`, { headers: stranger.auth })).status).toBe(404);
  });

  it("every draw can be recomputed from the revealed seed, the nonce and the published odds table", async () => {
    const f = await fan(25_000);
    const purchase = (await buy(f.auth, "pk_gameday")).body.data.purchase;
    const opening = (await open(f.auth, purchase.id)).body.data.purchase.opening;
    expect(opening.seed).toBeNull();
    const seeds = (await api("GET", "/api/v1/packs/seeds")).body.data.seeds as { seedHash: string; seed: string | null; active: boolean }[];
    expect(seeds.find((s) => s.seedHash === opening.seedHash)).toMatchObject({ seed: null });

    const rotated = await api("POST", "/api/admin/packs/seeds/rotate", { headers: staff.auth });
    expect(rotated.status).toBe(200);
    const revealed = (await api("GET", `/api/v1/packs/purchases/${purchase.id}`, { headers: f.auth })).body.data.purchase.opening;
    // Another test may have rotated meanwhile; either way the seed of this opening is now revealed.
    expect(revealed.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(createHash("sha256").update(Buffer.from(revealed.seed, "hex")).digest("hex")).toBe(opening.seedHash);

    const table = (await api("GET", `/api/v1/packs/pk_gameday/odds/${opening.oddsVersion}`)).body.data;
    for (const d of opening.draws) {
      expect(verifyDraw(revealed.seed, { purchaseId: purchase.id, nonce: opening.nonce, weights: table.weights, pool: table.pool }, d)).toBe(true);
      expect(table.pool[d.cardRarity][d.cardIndex]).toBe(d.collectible.card.id);
      expect(verifyDraw(revealed.seed, { purchaseId: purchase.id, nonce: opening.nonce + 1, weights: table.weights, pool: table.pool }, d)).toBe(false);
    }
    const after = (await api("GET", "/api/v1/packs/seeds")).body.data.seeds as { active: boolean; seed: string | null }[];
    expect(after.filter((s) => s.active)).toHaveLength(1);
    expect(after.find((s) => s.active)!.seed).toBeNull();
  });

  it("a card whose edition is sold out gives the next card of its pool; an exhausted pack yields what remains", async () => {
    const team = await db().team.findFirstOrThrow({ where: { archivedAt: null }, select: { id: true } });
    const ids = [0, 1].map(() => `cc_test_${randomUUID().slice(0, 8)}`);
    await db().collectibleCard.createMany({
      data: ids.map((id) => ({ id, kind: "team", teamId: team.id, name: id, rarity: "common" as const, editionSize: 1 })),
    });
    const packId = await testPack({ items: 3, pool: { common: ids.sort() } });
    const f = await fan(1_000);
    const purchase = (await buy(f.auth, packId)).body.data.purchase;
    const opening = (await open(f.auth, purchase.id)).body.data.purchase.opening;
    expect(opening.draws).toHaveLength(2);
    expect(opening.draws.map((d: { collectible: { card: { id: string }; serial: number } }) => d.collectible.card.id).sort()).toEqual(ids.sort());
    expect(opening.draws.every((d: { collectible: { serial: number } }) => d.collectible.serial === 1)).toBe(true);
    const second = opening.draws[1];
    expect(second.cardIndex).toBe(1 - opening.draws[0].cardIndex);
    expect(await db().collectibleCard.findMany({ where: { id: { in: ids } }, select: { mintedCount: true } })).toEqual([
      { mintedCount: 1 },
      { mintedCount: 1 },
    ]);
  });

  it("the starter pack granted at onboarding opens the same way", async () => {
    const f = await fan();
    const grant = await db().packPurchase.create({ data: { userId: f.id, packId: "pk_starter", source: "onboarding", grantKey: "onboarding-free-pack" } });
    const opened = await open(f.auth, grant.id);
    expect(opened.status).toBe(200);
    expect(opened.body.data.purchase).toMatchObject({ source: "onboarding", price: 0, pack: { id: "pk_starter" } });
    expect(opened.body.data.purchase.opening.draws).toHaveLength(5);
    expect(await balance(f.auth)).toBe(0);
  });

  it("a collectible shows its card and owner history, publicly", async () => {
    const f = await fan(25_000);
    const purchase = (await buy(f.auth, "pk_gameday")).body.data.purchase;
    const [first] = (await open(f.auth, purchase.id)).body.data.purchase.opening.draws;
    const res = await api("GET", `/api/v1/collectibles/${first.collectible.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: first.collectible.id,
      serial: first.collectible.serial,
      ownerId: f.id,
      owner: { id: f.id },
      history: [{ fromUserId: null, toUserId: f.id, reason: "pack_opening", referenceId: purchase.id, price: null }],
    });
    expect((await api("GET", `/api/v1/collectibles/${randomUUID()}`)).status).toBe(404);
    expect((await api("GET", "/api/v1/collectibles/nope")).status).toBe(400);
    const rarity = first.collectible.card.rarity as Rarity;
    expect(RARITY_ORDER).toContain(rarity);
    const filtered = (await api("GET", `/api/v1/collectibles?rarity=${rarity}&limit=100`, { headers: f.auth })).body.data.collectibles;
    expect(filtered.every((c: { card: { rarity: string } }) => c.card.rarity === rarity)).toBe(true);
    const cards = (await api("GET", `/api/v1/collectibles/cards?rarity=rare&limit=5`)).body.data;
    expect(cards.cards.every((c: { rarity: string }) => c.rarity === "rare")).toBe(true);
    const more = (await api("GET", `/api/v1/collectibles/cards?rarity=rare&limit=5&cursor=${cards.nextCursor}`)).body.data;
    expect(more.cards[0].id > cards.cards[4].id).toBe(true);
  });

  it("money routes have their own per-user limit and answer 429 with Retry-After", async () => {
    const f = await fan();
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof open>> | undefined;
    for (let i = 0; i < 35 && !limited; i++) {
      const res = await open(f.auth, randomUUID());
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(404));
    expect(limited!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(errorOf(limited!).code).toBe("RATE_LIMITED");
  });
});
