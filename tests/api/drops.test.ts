import { createHash, createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, newUser, testPack } from "../helpers";

// Drops end to end: the committed seeded order recomputed from the revealed seed, holds released exactly once (two
// cron runs at once), caps and stock under concurrency, eligibility at purchase, allowlist windows.

type Auth = Record<string, string>;
const PRICE = 1_000;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/drops", { headers: { authorization: `Bearer ${cronSecret()}` } });
const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

const balance = async (userId: string) => Number((await db().wallet.findUnique({ where: { userId_currency: { userId, currency: "COIN" } } }))?.balance ?? 0);
const enter = (auth: Auth, dropId: string, json?: unknown, headers: Auth = {}) =>
  api("POST", `/api/v1/drops/${dropId}/entry`, { headers: { "idempotency-key": randomUUID(), ...auth, ...headers }, json });
const withdraw = (auth: Auth, dropId: string) => api("DELETE", `/api/v1/drops/${dropId}/entry`, { headers: auth });
const show = (dropId: string, auth: Auth = {}) => api("GET", `/api/v1/drops/${dropId}`, { headers: auth });

async function createDrop(o: Record<string, unknown> = {}) {
  const body = {
    name: "Test drop",
    packId: await testPack("drop", 5_000),
    mode: "draw",
    price: PRICE,
    quantity: 3,
    perUserCap: 2,
    opensAt: minutes(-5),
    closesAt: minutes(60),
    ...o,
  };
  const res = await api("POST", "/api/admin/drops", { headers: newUser({ admin: true }).auth, json: body });
  if (res.status !== 201) throw new Error(`could not create a drop: ${res.status} ${res.text}`);
  return res.body.data.drop as { id: string; seedHash: string; seed: string | null; [k: string]: unknown };
}

/** Moves a drop's times into the past (its draw or its queue order is then due). */
const closeDrop = (id: string) =>
  db()
    .$executeRaw`UPDATE drops SET opens_at = now() - interval '2 hours', closes_at = now() - interval '1 second', allowlist_opens_at = NULL WHERE id = ${id}::uuid`;
const openQueue = (id: string) => db().$executeRaw`UPDATE drops SET opens_at = now() - interval '1 second' WHERE id = ${id}::uuid`;

const keyOf = (seed: string, dropId: string, userId: string) => createHmac("sha256", Buffer.from(seed, "hex")).update(`${dropId}:${userId}`).digest("hex");
const refundsOf = (entryId: string) => db().walletTransaction.count({ where: { referenceType: "drop_entry", referenceId: entryId, reason: "refund" } });

describe("draw mode", () => {
  it("holds at entry; the draw follows the committed seed; losers' holds are released exactly once under two concurrent cron runs", async () => {
    const drop = await createDrop({ quantity: 3, perUserCap: 2 });
    expect(drop).toMatchObject({ mode: "draw", status: "open", seed: null, sold: 0, remaining: 3, orderedAt: null });
    expect(drop.seedHash).toMatch(/^[0-9a-f]{64}$/);
    const fans = await Promise.all(Array.from({ length: 7 }, () => fan(5 * PRICE)));
    const asked = fans.map((_, i) => (i === 0 ? 2 : 1));
    for (const [i, f] of fans.entries()) {
      const res = await enter(f.auth, drop.id, { quantity: asked[i] });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.entry).toMatchObject({ status: "entered", quantity: asked[i], held: asked[i]! * PRICE, won: 0, position: null });
      expect(await balance(f.id)).toBe(5 * PRICE - asked[i]! * PRICE);
    }
    // One fan withdraws: the hold comes back, once.
    const quitter = fans[6]!;
    const out = await withdraw(quitter.auth, drop.id);
    expect(out.status, out.text).toBe(200);
    expect(out.body.data.entry.status).toBe("withdrawn");
    expect(await balance(quitter.id)).toBe(5 * PRICE);
    expect((await withdraw(quitter.auth, drop.id)).status).toBe(404);
    expect((await show(drop.id)).body.data).toMatchObject({ order: null, drop: { seed: null } });

    await closeDrop(drop.id);
    const runs = await Promise.all([cron(), cron()]);
    expect(runs.map((r) => r.status)).toEqual([200, 200]);
    expect(runs.reduce((n, r) => n + r.body.data.drawn, 0)).toBeGreaterThanOrEqual(1);
    expect((await cron()).body.data.drawn).toBe(0);

    const seen = (await show(drop.id, fans[0]!.auth)).body.data;
    expect(seen.drop.status).toBe("drawn");
    const seed = seen.drop.seed as string;
    expect(createHash("sha256").update(Buffer.from(seed, "hex")).digest("hex")).toBe(drop.seedHash);
    // Recompute the order from the revealed seed: the entrants (not the fan who withdrew) sorted by their key.
    const entrants = fans.slice(0, 6).map((f) => f.id);
    const expected = entrants.map((id) => ({ id, key: keyOf(seed, drop.id, id) })).sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(seen.order.map((o: { userId: string }) => o.userId)).toEqual(expected.map((e) => e.id));
    expect(seen.order.map((o: { key: string }) => o.key)).toEqual(expected.map((e) => e.key));
    expect(seen.order.map((o: { position: number }) => o.position)).toEqual([1, 2, 3, 4, 5, 6]);

    // Winners in order until the 3 packs are gone; everyone else refunded in full, exactly once.
    let left = 3;
    let sold = 0;
    for (const o of seen.order as { userId: string; quantity: number; won: number; outcome: string }[]) {
      const f = fans.find((x) => x.id === o.userId)!;
      const wins = Math.min(o.quantity, left);
      left -= wins;
      sold += wins;
      expect(o).toMatchObject({ won: wins, outcome: wins > 0 ? "won" : "lost" });
      const entry = (await api("GET", `/api/v1/drops/${drop.id}/entry`, { headers: f.auth })).body.data.entry;
      expect(entry).toMatchObject({ status: wins > 0 ? "won" : "lost", won: wins });
      expect(entry.purchases).toHaveLength(wins);
      expect(await balance(f.id)).toBe(5 * PRICE - wins * PRICE);
      expect(await refundsOf(entry.id)).toBe(o.quantity > wins ? 1 : 0);
      expect(await db().packPurchase.count({ where: { userId: f.id } })).toBe(wins);
    }
    expect(seen.drop).toMatchObject({ sold: 3, remaining: 0 });
    expect(sold).toBe(3);

    // A pack won opens like a bought one; withdrawing after the draw is refused.
    const winner = fans.find((f) => f.id === seen.order[0].userId)!;
    const entry = (await api("GET", `/api/v1/drops/${drop.id}/entry`, { headers: winner.auth })).body.data.entry;
    const opened = await api("POST", `/api/v1/packs/purchases/${entry.purchases[0]}/open`, { headers: winner.auth });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.data.purchase.opening.draws).toHaveLength(1);
    const late = await withdraw(winner.auth, drop.id);
    expect([late.status, errorOf(late).code]).toEqual([409, "DROP_ENTRY_CLOSED"]);
    expect(errorOf(await enter(fans[6]!.auth, drop.id)).code).toBe("DROP_NOT_OPEN");
    const invariant = await api("GET", "/api/admin/wallets/invariant", { headers: newUser({ admin: true }).auth });
    expect(invariant.body.data).toMatchObject({ ok: true, dropMismatches: [] });
  });

  it("the first read after the close runs the draw once, even read concurrently", async () => {
    const drop = await createDrop({ quantity: 1, perUserCap: 1 });
    const fans = await Promise.all(Array.from({ length: 4 }, () => fan(PRICE)));
    for (const f of fans) expect((await enter(f.auth, drop.id)).status).toBe(201);
    await closeDrop(drop.id);
    const reads = await Promise.all(Array.from({ length: 6 }, () => show(drop.id)));
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const seen = (await show(drop.id)).body.data;
    expect(seen.order.filter((o: { outcome: string }) => o.outcome === "won")).toHaveLength(1);
    const balances = await Promise.all(fans.map((f) => balance(f.id)));
    expect(balances.sort()).toEqual([0, PRICE, PRICE, PRICE]);
    const entries = await db().dropEntry.findMany({ where: { dropId: drop.id } });
    for (const e of entries) expect(await refundsOf(e.id)).toBe(e.status === "lost" ? 1 : 0);
  });

  it("entries racing the close and the draw: each is either in the draw or refused, no hold left behind", async () => {
    const fans = await Promise.all(Array.from({ length: 12 }, () => fan(PRICE)));
    const drop = await createDrop({ quantity: 2, perUserCap: 1, closesAt: new Date(Date.now() + 1_500).toISOString() });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const until = Date.parse(drop.closesAt as string) - Date.now();
    const entries = fans.map(async (f, i) => (await sleep(Math.max(0, until - 300 + i * 50)), enter(f.auth, drop.id)));
    const runs = Array.from({ length: 8 }, async (_, i) => (await sleep(Math.max(0, until - 100 + i * 60)), cron()));
    const [answers] = await Promise.all([Promise.all(entries), Promise.all(runs)]);
    for (const r of answers) expect([201, 409]).toContain(r.status);
    for (const r of answers.filter((x) => x.status === 409)) expect(errorOf(r).code).toBe("DROP_NOT_OPEN");
    await cron();
    const seen = (await show(drop.id)).body.data;
    expect(seen.drop.status).toBe("drawn");
    const rows = await db().dropEntry.findMany({ where: { dropId: drop.id } });
    expect(rows).toHaveLength(answers.filter((r) => r.status === 201).length);
    expect(rows.every((e) => e.status === "won" || e.status === "lost")).toBe(true);
    expect(seen.order).toHaveLength(rows.length);
    for (const f of fans) {
      const e = rows.find((x) => x.userId === f.id);
      expect(await balance(f.id)).toBe(PRICE - (e?.wonQuantity ?? 0) * PRICE);
    }
  });

  it("one entry per fan under concurrent requests: one hold, the rest 409; quantity over the cap is 409", async () => {
    const drop = await createDrop({ perUserCap: 2 });
    const f = await fan(10 * PRICE);
    const results = await Promise.all(Array.from({ length: 10 }, () => enter(f.auth, drop.id, { quantity: 2 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(new Set(results.filter((r) => r.status === 409).map((r) => errorOf(r).code))).toEqual(new Set(["DROP_ALREADY_ENTERED"]));
    expect(await balance(f.id)).toBe(8 * PRICE);
    expect(await db().walletTransaction.count({ where: { userId: f.id, reason: "hold" } })).toBe(1);

    const g = await fan(10 * PRICE);
    const over = await enter(g.auth, drop.id, { quantity: 3 });
    expect([over.status, errorOf(over).code]).toEqual([409, "DROP_CAP_REACHED"]);
    expect(await balance(g.id)).toBe(10 * PRICE);
    // Withdrawn, a fan may enter again (a new hold).
    expect((await withdraw(f.auth, drop.id)).status).toBe(200);
    expect((await enter(f.auth, drop.id, { quantity: 1 })).status).toBe(201);
    expect(await balance(f.id)).toBe(9 * PRICE);
  });

  it("eligibility at entry (region, limits, frozen, funds) and again at the draw: a fan drawn but now ineligible is passed over and refunded", async () => {
    const drop = await createDrop({ quantity: 1, perUserCap: 1 });
    const f = await fan(5 * PRICE);
    const region = await enter(f.auth, drop.id, undefined, { "x-vercel-ip-country": "BE" });
    expect([region.status, errorOf(region).code]).toEqual([403, "REGION_RESTRICTED"]);
    await api("PUT", "/api/v1/me/spending-limits", { headers: f.auth, json: { packs: { day: PRICE - 1 } } });
    const limited = await enter(f.auth, drop.id);
    expect([limited.status, errorOf(limited).code]).toEqual([409, "SPENDING_LIMIT_REACHED"]);
    const poor = await fan(PRICE - 1);
    expect(errorOf(await enter(poor.auth, drop.id)).code).toBe("INSUFFICIENT_FUNDS");
    const frozen = await fan(5 * PRICE);
    await db().wallet.update({ where: { userId_currency: { userId: frozen.id, currency: "COIN" } }, data: { debt: 100 } });
    const refused = await enter(frozen.auth, drop.id);
    expect([refused.status, errorOf(refused).code]).toEqual([409, "WALLET_FROZEN"]);
    await db().wallet.update({ where: { userId_currency: { userId: frozen.id, currency: "COIN" } }, data: { debt: 0 } });
    expect(await db().dropEntry.count({ where: { dropId: drop.id } })).toBe(0);

    // Two fans enter; whoever is drawn first moves to a blocked country before the draw: the other gets the pack.
    const a = await fan(PRICE);
    const b = await fan(PRICE);
    expect((await enter(a.auth, drop.id)).status).toBe(201);
    expect((await enter(b.auth, drop.id)).status).toBe(201);
    const seed = (await db().drop.findUniqueOrThrow({ where: { id: drop.id } })).seed; // read only to pick who moves
    const [first, second] = [a, b].sort((x, y) => (keyOf(seed, drop.id, x.id) < keyOf(seed, drop.id, y.id) ? -1 : 1));
    expect((await api("PATCH", "/api/user/settings", { headers: first!.auth, json: { country: "nl" } })).status).toBe(200);
    await closeDrop(drop.id);
    expect((await cron()).status).toBe(200);
    const order = (await show(drop.id)).body.data.order;
    expect(order.map((o: { userId: string; outcome: string }) => [o.userId, o.outcome])).toEqual([
      [first!.id, "ineligible:REGION_RESTRICTED"],
      [second!.id, "won"],
    ]);
    expect(await balance(first!.id)).toBe(PRICE);
    expect(await balance(second!.id)).toBe(0);
  });

  it("concurrent withdrawals release the hold exactly once", async () => {
    const drop = await createDrop({ perUserCap: 2 });
    const f = await fan(3 * PRICE);
    const entered = await enter(f.auth, drop.id, { quantity: 2 });
    expect(entered.status).toBe(201);
    const results = await Promise.all(Array.from({ length: 10 }, () => withdraw(f.auth, drop.id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(404)]);
    expect(await balance(f.id)).toBe(3 * PRICE);
    expect(await refundsOf(entered.body.data.entry.id)).toBe(1);
  });

  it("allowlist window: allowlisted fans enter early, the others are refused until opensAt", async () => {
    const [a, b] = [await fan(PRICE), await fan(PRICE)];
    const drop = await createDrop({ opensAt: minutes(30), closesAt: minutes(60), allowlist: { opensAt: minutes(-1), userIds: [a.id] } });
    expect(drop.status).toBe("upcoming");
    expect((await enter(a.auth, drop.id)).status).toBe(201);
    const early = await enter(b.auth, drop.id);
    expect([early.status, errorOf(early).code]).toEqual([409, "DROP_NOT_OPEN"]);
    expect(errorOf(early).details).toEqual([{ path: "opensAt", message: drop.opensAt }]);
    expect(await balance(b.id)).toBe(PRICE);
  });
});

describe("waiting room (queue mode)", () => {
  it("positions are the committed shuffle; fans buy in turn within the window", async () => {
    const drop = await createDrop({ mode: "queue", quantity: 10, perUserCap: 1, queueWindow: 2, opensAt: minutes(30), closesAt: minutes(90) });
    const fans = await Promise.all(Array.from({ length: 5 }, () => fan(PRICE)));
    for (const f of fans) {
      const joined = await enter(f.auth, drop.id);
      expect(joined.status, joined.text).toBe(201);
      expect(joined.body.data.entry).toMatchObject({ status: "waiting", position: null, won: 0 });
    }
    expect(errorOf(await enter(fans[0]!.auth, drop.id)).code).toBe("DROP_ALREADY_ENTERED");
    await openQueue(drop.id);
    expect((await cron()).body.data.queuesOrdered).toBeGreaterThanOrEqual(1);
    const seen = (await show(drop.id)).body.data;
    const seed = seen.drop.seed as string;
    expect(createHash("sha256").update(Buffer.from(seed, "hex")).digest("hex")).toBe(drop.seedHash);
    const expected = fans.map((f) => ({ id: f.id, key: keyOf(seed, drop.id, f.id) })).sort((x, y) => (x.key < y.key ? -1 : 1));
    expect(seen.order.map((o: { userId: string }) => o.userId)).toEqual(expected.map((e) => e.id));
    const byPosition = expected.map((e) => fans.find((f) => f.id === e.id)!);

    // Window 2: positions 1 and 2 now; position 3 once one fan has bought.
    const third = await enter(byPosition[2]!.auth, drop.id);
    expect([third.status, errorOf(third).code]).toEqual([409, "DROP_NOT_YOUR_TURN"]);
    expect(errorOf(third).details).toEqual([
      { path: "position", message: "3" },
      { path: "servingUpTo", message: "2" },
    ]);
    const second = await enter(byPosition[1]!.auth, drop.id);
    expect(second.status, second.text).toBe(201);
    expect(second.body.data.entry).toMatchObject({ position: 2, won: 1 });
    expect(second.body.data.entry.purchases).toHaveLength(1);
    expect(await balance(byPosition[1]!.id)).toBe(0);
    expect((await enter(byPosition[2]!.auth, drop.id)).status).toBe(201);
    // A late joiner queues behind everyone.
    const late = await fan(PRICE);
    const joined = await enter(late.auth, drop.id);
    expect(joined.status).toBe(201);
    expect(joined.body.data.entry).toMatchObject({ position: 6, won: 0 });
    expect((await show(drop.id)).body.data.drop).toMatchObject({ sold: 2, queue: { window: 2, servingUpTo: 4, length: 6 } });
  });

  it("a retry with the same Idempotency-Key buys once and answers the first result", async () => {
    const drop = await createDrop({ mode: "queue", quantity: 10, perUserCap: 5, opensAt: minutes(-1), closesAt: minutes(60) });
    const f = await fan(10 * PRICE);
    const k = { "idempotency-key": randomUUID() };
    const results = await Promise.all(Array.from({ length: 5 }, () => enter(f.auth, drop.id, { quantity: 2 }, k)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(4);
    for (const r of results) expect(r.body.data).toEqual(results[0]!.body.data);
    expect(await balance(f.id)).toBe(8 * PRICE);
    const reused = await enter(f.auth, drop.id, { quantity: 1 }, k);
    expect([reused.status, errorOf(reused).code]).toEqual([409, "IDEMPOTENCY_KEY_REUSED"]);
    const missing = await api("POST", `/api/v1/drops/${drop.id}/entry`, { headers: f.auth });
    expect(missing.status).toBe(400);
  });

  it("the per-fan cap holds under concurrent purchases by one fan", async () => {
    const drop = await createDrop({ mode: "queue", quantity: 50, perUserCap: 3, opensAt: minutes(-1), closesAt: minutes(60) });
    const f = await fan(20 * PRICE);
    expect((await enter(f.auth, drop.id)).status).toBe(201); // joins (position 1) and buys one
    const results = await Promise.all(Array.from({ length: 8 }, () => enter(f.auth, drop.id)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    expect(new Set(results.filter((r) => r.status === 409).map((r) => errorOf(r).code))).toEqual(new Set(["DROP_CAP_REACHED"]));
    expect(await db().packPurchase.count({ where: { userId: f.id } })).toBe(3);
    expect(await balance(f.id)).toBe(17 * PRICE);
  });

  it("the stock is never oversold under concurrent buyers", async () => {
    const drop = await createDrop({ mode: "queue", quantity: 5, perUserCap: 2, queueWindow: 100, opensAt: minutes(-1), closesAt: minutes(60) });
    const fans = await Promise.all(Array.from({ length: 12 }, () => fan(PRICE)));
    const results = await Promise.all(fans.map((f) => enter(f.auth, drop.id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    for (const r of results.filter((x) => x.status !== 201)) expect([r.status, errorOf(r).code]).toEqual([409, "DROP_SOLD_OUT"]);
    expect((await show(drop.id)).body.data.drop).toMatchObject({ sold: 5, remaining: 0 });
    const balances = await Promise.all(fans.map((f) => balance(f.id)));
    expect(balances.filter((b) => b === 0)).toHaveLength(5);
    expect(balances.filter((b) => b === PRICE)).toHaveLength(7);
    const purchases = await db().dropPurchase.count({ where: { entry: { dropId: drop.id } } });
    expect(purchases).toBe(5);
  });

  it("eligibility at purchase: region, spending limits, frozen wallet", async () => {
    const drop = await createDrop({ mode: "queue", quantity: 10, perUserCap: 2, queueWindow: 100, opensAt: minutes(-1), closesAt: minutes(60) });
    const f = await fan(5 * PRICE);
    const region = await enter(f.auth, drop.id, undefined, { "x-vercel-ip-country": "NL" });
    expect([region.status, errorOf(region).code]).toEqual([403, "REGION_RESTRICTED"]);
    await api("PUT", "/api/v1/me/spending-limits", { headers: f.auth, json: { packs: { day: PRICE } } });
    expect((await enter(f.auth, drop.id)).status).toBe(201);
    const limited = await enter(f.auth, drop.id);
    expect([limited.status, errorOf(limited).code]).toEqual([409, "SPENDING_LIMIT_REACHED"]);
    const g = await fan(5 * PRICE);
    await db().wallet.update({ where: { userId_currency: { userId: g.id, currency: "COIN" } }, data: { debt: 100 } });
    const frozen = await enter(g.auth, drop.id);
    expect([frozen.status, errorOf(frozen).code]).toEqual([409, "WALLET_FROZEN"]);
    await db().wallet.update({ where: { userId_currency: { userId: g.id, currency: "COIN" } }, data: { debt: 0 } });
    expect(await balance(f.id)).toBe(4 * PRICE);
    expect(await balance(g.id)).toBe(5 * PRICE);
  });
});

describe("validation and 404s", () => {
  it("answers 400 for bad input, 404 for unknown drops and entries, 401 and 403", async () => {
    const f = await fan(PRICE);
    const unknown = randomUUID();
    expect((await show(unknown)).status).toBe(404);
    expect((await enter(f.auth, unknown)).status).toBe(404);
    expect((await withdraw(f.auth, unknown)).status).toBe(404);
    expect((await api("GET", `/api/v1/drops/${unknown}/entry`, { headers: f.auth })).status).toBe(404);
    expect(errorOf(await show("not-a-uuid")).code).toBe("VALIDATION_ERROR");
    const drop = await createDrop();
    expect((await api("GET", `/api/v1/drops/${drop.id}/entry`, { headers: f.auth })).status).toBe(404);
    expect((await withdraw(f.auth, drop.id)).status).toBe(404);
    for (const json of [{ quantity: 0 }, { quantity: 1.5 }, { quantity: "1" }, { other: 1 }]) {
      const res = await enter(f.auth, drop.id, json);
      expect([res.status, errorOf(res).code], JSON.stringify(json)).toEqual([400, "VALIDATION_ERROR"]);
    }
    expect((await enter({}, drop.id)).status).toBe(401);
    expect((await api("GET", `/api/v1/drops/${drop.id}/entry`)).status).toBe(401);
    expect(await balance(f.id)).toBe(PRICE);

    const list = await api("GET", "/api/v1/drops?limit=1");
    expect(list.status).toBe(200);
    expect(list.body.data.drops).toHaveLength(1);
    expect(list.body.data.nextCursor).toBeDefined();
    expect((await api("GET", "/api/v1/drops?limit=0")).status).toBe(400);

    const staff = newUser({ admin: true });
    const base = {
      name: "X",
      packId: drop.pack && (drop.pack as { id: string }).id,
      mode: "draw",
      price: PRICE,
      quantity: 1,
      perUserCap: 1,
      opensAt: minutes(1),
      closesAt: minutes(2),
    };
    for (const [json, field] of [
      [{ ...base, closesAt: minutes(0) }, "body.closesAt"],
      [{ ...base, mode: "auction" }, "body.mode"],
      [{ ...base, quantity: 0 }, "body.quantity"],
      [{ ...base, allowlist: { opensAt: minutes(5), userIds: [f.id] } }, "body.allowlist.opensAt"],
      [{ ...base, allowlist: { opensAt: minutes(0) } }, "body.allowlist"],
      [{ ...base, opensAt: "tomorrow" }, "body.opensAt"],
    ] as const) {
      const res = await api("POST", "/api/admin/drops", { headers: staff.auth, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(errorOf(res).details?.map((d) => d.path)).toContain(field);
    }
    expect((await api("POST", "/api/admin/drops", { headers: staff.auth, json: { ...base, packId: "pk_nope" } })).status).toBe(404);
    expect((await api("POST", "/api/admin/drops", { headers: f.auth, json: base })).status).toBe(403);
    expect((await api("GET", "/api/cron/drops")).status).toBe(401);
  });
});

describe("the drops cron", () => {
  it("is scheduled every minute in vercel.json and documented only in the internal document", async () => {
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string; schedule: string }[] };
    expect(crons).toContainEqual({ path: "/api/cron/drops", schedule: "* * * * *" });
    const internal = await api("GET", "/api/admin/openapi.json", { headers: newUser({ admin: true }).auth });
    expect(internal.body.paths["/api/cron/drops"].get.description).toMatch(/SKIP LOCKED/);
    const publicDoc = await api("GET", "/api/openapi.json");
    expect(publicDoc.body.paths["/api/cron/drops"]).toBeUndefined();
    expect(Object.keys(publicDoc.body.paths["/api/v1/drops/{dropId}/entry"]).sort()).toEqual(["delete", "get", "post"]);
  });
});
