import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, fan, testPack } from "../helpers";

// Spending limits (GET, PUT /api/v1/me/spending-limits), eligibility (GET /api/v1/me/eligibility) and pack sales by
// region: defaults on, lowering at once, raising after 24 hours, limits held under concurrent purchases, countries
// refused by the request's or the fan's own. The test server refuses packs in BE and NL (tests/setup/global.ts).

type Auth = Record<string, string>;
const LIMITS = "/api/v1/me/spending-limits";
const PRICE = 1_000;
// The configured defaults (lib/env.ts).
const DEFAULTS = { topups: { day: 500_000, month: 2_000_000 }, packs: { day: 500_000, month: 2_000_000 } };

const buy = (auth: Auth, packId: string, headers: Record<string, string> = {}) =>
  api("POST", `/api/v1/packs/${packId}/purchases`, { headers: { ...auth, ...headers, "idempotency-key": randomUUID() } });
const limits = async (auth: Auth) => {
  const res = await api("GET", LIMITS, { headers: auth });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};
const setLimits = (auth: Auth, json: unknown) => api("PUT", LIMITS, { headers: auth, json });
const eligibility = async (auth: Auth, headers: Record<string, string> = {}) => {
  const res = await api("GET", "/api/v1/me/eligibility", { headers: { ...auth, ...headers } });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};

describe("spending limits", () => {
  it("are on by default and count pack spend in the UTC day and month", async () => {
    const f = await fan(10 * PRICE);
    const before = await limits(f.auth);
    expect(before.currency).toBe("COIN");
    for (const kind of ["topups", "packs"] as const) {
      for (const period of ["day", "month"] as const) {
        expect(before[kind][period]).toMatchObject({ amount: DEFAULTS[kind][period], default: true, used: 0, pending: null });
      }
    }
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(before.packs.day.resetsAt).toBe(midnight.toISOString());
    expect(new Date(before.packs.month.resetsAt).getUTCDate()).toBe(1);

    const pack = await testPack("spend", PRICE);
    expect((await buy(f.auth, pack)).status).toBe(201);
    const after = await limits(f.auth);
    expect(after.packs.day).toMatchObject({ used: PRICE, remaining: DEFAULTS.packs.day - PRICE });
    expect(after.packs.month).toMatchObject({ used: PRICE, remaining: DEFAULTS.packs.month - PRICE });
    expect(after.topups.day.used).toBe(0);
  });

  it("hold under concurrent purchases: exactly as many packs as the limit allows, the rest 409 with nothing charged", async () => {
    const f = await fan(20 * PRICE);
    expect((await setLimits(f.auth, { packs: { day: 3 * PRICE } })).status).toBe(200);
    const pack = await testPack("spend", PRICE);
    const results = await Promise.all(Array.from({ length: 8 }, () => buy(f.auth, pack)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(errorOf(refused).code).toBe("SPENDING_LIMIT_REACHED");
    expect(errorOf(refused).details).toContainEqual({ path: "packs.day", message: `0 of ${3 * PRICE} left` });
    expect(await db().packPurchase.count({ where: { userId: f.id } })).toBe(3);
    const wallet = await db().wallet.findUniqueOrThrow({ where: { userId_currency: { userId: f.id, currency: "COIN" } } });
    expect(Number(wallet.balance)).toBe(17 * PRICE);
    // The monthly limit counts too.
    const g = await fan(20 * PRICE);
    await setLimits(g.auth, { packs: { month: PRICE } });
    expect((await buy(g.auth, pack)).status).toBe(201);
    const second = await buy(g.auth, pack);
    expect(second.status).toBe(409);
    expect(errorOf(second).details?.[0]).toEqual({ path: "packs.month", message: `0 of ${PRICE} left` });
  });

  it("lowering takes effect at once; raising after 24 hours, the lower limit in force until then", async () => {
    const f = await fan(20 * PRICE);
    const pack = await testPack("spend", PRICE);
    const lowered = await setLimits(f.auth, { packs: { day: PRICE } });
    expect(lowered.status, lowered.text).toBe(200);
    expect(lowered.body.data.packs.day).toMatchObject({ amount: PRICE, default: false, pending: null });
    expect(lowered.body.data.packs.month).toMatchObject({ amount: DEFAULTS.packs.month, default: true });
    expect((await buy(f.auth, pack)).status).toBe(201);
    expect((await buy(f.auth, pack)).status).toBe(409);

    const asked = Date.now();
    const raised = await setLimits(f.auth, { packs: { day: 5 * PRICE } });
    expect(raised.status).toBe(200);
    expect(raised.body.data.packs.day).toMatchObject({ amount: PRICE, pending: { amount: 5 * PRICE } });
    const effectiveAt = Date.parse(raised.body.data.packs.day.pending.effectiveAt);
    expect(effectiveAt - asked).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(effectiveAt - asked).toBeLessThan(24 * 3600_000 + 60_000);
    expect((await buy(f.auth, pack)).status).toBe(409);

    // A day later (the raise's time moved into the past): the raise is the limit.
    await db().$executeRaw`UPDATE spending_limits SET pending_from = now() - interval '1 second' WHERE user_id = ${f.id}::uuid AND kind = 'packs'`;
    expect((await limits(f.auth)).packs.day).toMatchObject({ amount: 5 * PRICE, pending: null, used: PRICE });
    expect((await buy(f.auth, pack)).status).toBe(201);

    // Lowering again cancels a raise still waiting.
    await setLimits(f.auth, { packs: { day: 9 * PRICE } });
    expect((await limits(f.auth)).packs.day.pending).toMatchObject({ amount: 9 * PRICE });
    const back = await setLimits(f.auth, { packs: { day: 2 * PRICE } });
    expect(back.body.data.packs.day).toMatchObject({ amount: 2 * PRICE, pending: null, remaining: 0 });
  });

  it("400 naming the field for bad bodies, nothing stored; 401 without a session", async () => {
    const f = await fan();
    for (const [json, field] of [
      [{}, "body"],
      [{ packs: {} }, "body"],
      [{ packs: { day: -1 } }, "body.packs.day"],
      [{ packs: { day: 1.5 } }, "body.packs.day"],
      [{ packs: { week: 10 } }, "body.packs.week"],
      [{ coins: { day: 10 } }, "body"],
      [{ topups: { month: 10 * DEFAULTS.topups.month + 1 } }, "body.topups.month"],
    ] as const) {
      const res = await setLimits(f.auth, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.map((d) => d.path)).toContain(field);
    }
    expect(await db().spendingLimit.count({ where: { userId: f.id } })).toBe(0);
    expect((await setLimits(f.auth, { topups: { month: 10 * DEFAULTS.topups.month } })).status).toBe(200);
    expect((await api("GET", LIMITS)).status).toBe(401);
    expect((await api("GET", "/api/v1/me/eligibility")).status).toBe(401);
  });
});

describe("top-up limits", () => {
  const startTopup = (auth: Auth) =>
    api("POST", "/api/v1/wallet/topups", { headers: { ...auth, "idempotency-key": randomUUID() }, json: { productId: "coins_500" } });

  it("hold under concurrent checkouts: only as many as the limit allows start, counted in coins bought", async () => {
    const f = await fan();
    const coins = 50_000; // coins_500 (dev/seed/data.ts)
    expect((await setLimits(f.auth, { topups: { day: 2 * coins } })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 5 }, () => startTopup(f.auth)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(errorOf(results.find((r) => r.status === 409)!)).toMatchObject({ code: "SPENDING_LIMIT_REACHED" });
    expect(await db().coinPurchase.count({ where: { userId: f.id } })).toBe(2);
    expect((await limits(f.auth)).topups.day).toMatchObject({ used: 2 * coins, remaining: 0 });
    expect((await eligibility(f.auth)).coins).toMatchObject({ allowed: false, reasons: [{ code: "SPENDING_LIMIT_REACHED" }] });
  });

  it("a frozen wallet (a debt from a refunded top-up) buys no pack, and eligibility says why", async () => {
    const f = await fan(10 * PRICE);
    const pack = await testPack("spend", PRICE);
    await db().wallet.update({ where: { userId_currency: { userId: f.id, currency: "COIN" } }, data: { debt: 500 } });
    const refused = await buy(f.auth, pack);
    expect([refused.status, errorOf(refused).code]).toEqual([409, "WALLET_FROZEN"]);
    expect(await eligibility(f.auth)).toMatchObject({ coins: { allowed: true }, packs: { allowed: false, reasons: [{ code: "WALLET_FROZEN" }] } });
    await db().wallet.update({ where: { userId_currency: { userId: f.id, currency: "COIN" } }, data: { debt: 0 } });
    expect((await buy(f.auth, pack)).status).toBe(201);
  });
});

describe("pack sales by region", () => {
  it("refuses packs in a blocked country, from the request's country or the fan's setting, and says so in eligibility", async () => {
    const f = await fan(10 * PRICE);
    const pack = await testPack("spend", PRICE);
    expect(await eligibility(f.auth)).toEqual({ coins: { allowed: true, reasons: [] }, packs: { allowed: true, reasons: [] }, country: null, paused: [] });

    const fromBelgium = { "x-vercel-ip-country": "be" };
    const refused = await buy(f.auth, pack, fromBelgium);
    expect(refused.status).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: "REGION_RESTRICTED", details: [{ path: "country", message: "BE" }] });
    const seen = await eligibility(f.auth, fromBelgium);
    expect(seen).toMatchObject({ coins: { allowed: true }, packs: { allowed: false, reasons: [{ code: "REGION_RESTRICTED" }] }, country: "BE" });
    expect((await buy(f.auth, pack, { "x-vercel-ip-country": "FR" })).status).toBe(201);

    // The fan's own setting counts wherever the request comes from.
    const set = await api("PATCH", "/api/user/settings", { headers: f.auth, json: { country: "nl" } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.country).toBe("NL");
    expect((await buy(f.auth, pack, { "x-vercel-ip-country": "FR" })).status).toBe(403);
    expect(await eligibility(f.auth, { "x-vercel-ip-country": "FR" })).toMatchObject({ packs: { allowed: false }, country: "NL" });
    expect((await api("PATCH", "/api/user/settings", { headers: f.auth, json: { country: "Netherlands" } })).status).toBe(400);
    expect((await api("PATCH", "/api/user/settings", { headers: f.auth, json: { country: null } })).body.data.country).toBeNull();
    expect((await buy(f.auth, pack)).status).toBe(201);
    expect(await db().packPurchase.count({ where: { userId: f.id } })).toBe(2);
  });

  it("eligibility lists a reached limit and a scheduled deletion", async () => {
    const f = await fan(10 * PRICE);
    await setLimits(f.auth, { packs: { day: 0 }, topups: { month: 0 } });
    const seen = await eligibility(f.auth);
    expect(seen.coins).toEqual({ allowed: false, reasons: [{ code: "SPENDING_LIMIT_REACHED", message: expect.stringContaining("monthly") }] });
    expect(seen.packs).toEqual({ allowed: false, reasons: [{ code: "SPENDING_LIMIT_REACHED", message: expect.stringContaining("daily") }] });
    expect((await api("POST", "/api/v1/me/deletion", { headers: f.auth, json: { confirm: true } })).status).toBe(202);
    const pending = await eligibility(f.auth);
    expect(pending.coins.reasons.map((r: { code: string }) => r.code)).toEqual(["ACCOUNT_DELETION_PENDING", "SPENDING_LIMIT_REACHED"]);
  });
});
