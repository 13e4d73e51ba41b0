import { createHash, randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, newUser, testCard, testPack, type Res } from "../helpers";

// Remote config (GET /api/v1/config): a strong ETag over the exact body and 304 on If-None-Match; flags bucketed per
// user (SHA-256 of "<key>:<user id>" → 0..9999 below the rollout), stable, split as the rollout says; signed-out
// shape; kill switches enforced by the pipeline (409 FEATURE_DISABLED naming the feature) on every marked write,
// reads still open, writes open again once resumed; staff changes audited and visible at once in this process.
//
// Kill switches are global state shared with the other files running against the same server: this file only ever
// pauses a feature for its own users (`userIds`, a scoped pause), so nobody else's request is refused. The
// everyone-scope is the same check without the membership test (tests/domain/config.test.ts covers both).

type Config = {
  flags: Record<string, boolean>;
  features: Record<string, { enabled: boolean; message: string | null }>;
  minVersions: Record<string, string>;
  legal: Record<string, string>;
  limits: Record<string, number>;
  products: { id: string; appStoreProductId: string | null; googlePlayProductId: string | null }[];
  refreshSeconds: number;
};

const staff = newUser({ admin: true });
const uid = () => randomUUID().replace(/-/g, "").slice(0, 10);
const flagKeys: string[] = [];

const getConfig = (auth: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  api("GET", "/api/v1/config", { headers: { ...auth, ...headers } });
const configOf = async (auth: Record<string, string> = {}) => {
  const res = await getConfig(auth);
  expect(res.status, res.text).toBe(200);
  return res.body.data as Config;
};
async function putFlag(key: string, rolloutPercent: number, description?: string) {
  if (!flagKeys.includes(key)) flagKeys.push(key);
  const res = await api("PUT", `/api/admin/config/flags/${key}`, { headers: staff.auth, json: { rolloutPercent, ...(description ? { description } : {}) } });
  expect(res.status, res.text).toBe(200);
  return res.body.data.flag;
}
const putSwitch = (feature: string, json: Record<string, unknown>) => api("PUT", `/api/admin/config/kill-switches/${feature}`, { headers: staff.auth, json });
const bucket = (key: string, userId: string) => createHash("sha256").update(`${key}:${userId}`).digest().readUInt32BE(0) % 10_000;

/** Runs `work` over items with at most `n` at once. */
async function pool<T, R>(items: T[], n: number, work: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

afterAll(async () => {
  await Promise.all(flagKeys.map((k) => api("DELETE", `/api/admin/config/flags/${k}`, { headers: staff.auth })));
});

describe("GET /api/v1/config", () => {
  it("answers the signed-out shape: defaults, limits, product ids, every feature listed", async () => {
    const res = await getConfig();
    expect(res.status, res.text).toBe(200);
    const c = res.body.data as Config;
    expect(Object.keys(c.features).sort()).toEqual(["marketplace", "packs", "posting", "topups", "trades"]);
    for (const f of Object.values(c.features)) expect(typeof f.enabled).toBe("boolean");
    expect(c.minVersions).toEqual({
      ios: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      android: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      web: expect.any(String),
    });
    expect(c.legal.termsUrl).toMatch(/^https?:\/\//);
    expect(c.legal.termsVersion).toEqual(expect.any(String));
    expect(c.limits).toMatchObject({ postMaxLength: 2000, commentMaxLength: 1000 });
    expect(c.refreshSeconds).toBeGreaterThanOrEqual(1);
    const products = await api("GET", "/api/v1/wallet/products");
    expect(c.products.map((p) => p.id)).toEqual(products.body.data.products.map((p: { id: string }) => p.id));
    // Signed out: a flag is on only when rolled out to everyone.
    const half = `t_half_${uid()}`;
    const all = `t_all_${uid()}`;
    await putFlag(half, 99.99);
    await putFlag(all, 100);
    const after = await configOf();
    expect(after.flags[half]).toBe(false);
    expect(after.flags[all]).toBe(true);
  });

  it("sends a strong ETag over the exact body, 304 without a body on If-None-Match, and a new tag after a change", async () => {
    const first = await getConfig();
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(etag).toBe(`"${createHash("sha256").update(first.text).digest("base64url")}"`);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("vary")).toMatch(/Authorization/);

    const again = await getConfig({}, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("private, no-cache");
    // Weak comparison and lists, as RFC 9110 says for If-None-Match; another tag gets the body.
    expect((await getConfig({}, { "if-none-match": `"other", W/${etag}` })).status).toBe(304);
    const stale = await getConfig({}, { "if-none-match": '"not-the-tag"' });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(first.text);

    // A staff change: a new body and tag (this process at once; the bound is refreshSeconds elsewhere).
    const key = `t_etag_${uid()}`;
    await putFlag(key, 100);
    const changed = await getConfig({}, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect((changed.body.data as Config).flags[key]).toBe(true);
    expect(changed.headers.get("etag")).not.toBe(etag);

    // A suspended fan's app still reads it (nothing else of theirs changes).
    const suspended = newUser();
    await db().user.create({ data: { externalId: suspended.sub, suspendedUntil: new Date(Date.now() + 86_400_000) } });
    expect((await getConfig(suspended.auth)).status).toBe(200);

    // Signed in: its own tag, also answered 304.
    const f = newUser();
    const mine = await getConfig(f.auth);
    expect(mine.status).toBe(200);
    expect((await getConfig(f.auth, { "if-none-match": mine.headers.get("etag")! })).status).toBe(304);
  });

  it("buckets users stably: 50% splits a few hundred users roughly in half, exactly by SHA-256, 0% none, 100% all; raising only adds", async () => {
    const key = `t_split_${uid()}`;
    const zero = `t_zero_${uid()}`;
    const full = `t_full_${uid()}`;
    await putFlag(key, 50, "half the fans");
    await putFlag(zero, 0);
    await putFlag(full, 100);
    const users = Array.from({ length: 300 }, () => newUser());
    const answers = await pool(users, 16, (u) => configOf(u.auth));
    const rows = await db().user.findMany({ where: { externalId: { in: users.map((u) => u.sub) } }, select: { id: true, externalId: true } });
    const idOf = new Map(rows.map((r) => [r.externalId, r.id]));
    const on = answers.filter((c) => c.flags[key]).length;
    expect(on).toBeGreaterThan(110);
    expect(on).toBeLessThan(190);
    answers.forEach((c, i) => {
      expect(c.flags[key]).toBe(bucket(key, idOf.get(users[i]!.sub)!) < 5000);
      expect(c.flags[zero]).toBe(false);
      expect(c.flags[full]).toBe(true);
    });
    // The same user, again: the same answer (and the same tag).
    const sample = users.slice(0, 20);
    const again = await pool(sample, 8, (u) => configOf(u.auth));
    again.forEach((c, i) => expect(c.flags[key]).toBe(answers[i]!.flags[key]));
    // Raising the rollout keeps everyone who had it.
    await putFlag(key, 75);
    const raised = await pool(users, 16, (u) => configOf(u.auth));
    raised.forEach((c, i) => {
      if (answers[i]!.flags[key]) expect(c.flags[key]).toBe(true);
    });
    expect(raised.filter((c) => c.flags[key]).length).toBeGreaterThan(on);
  });
});

describe("staff API", () => {
  it("audits each change, refuses fans and invalid values, and lists everything as stored", async () => {
    const key = `t_audit_${uid()}`;
    await putFlag(key, 12.5, "audited");
    await putFlag(key, 12.5, "audited"); // unchanged: no second entry
    const entries = await db().auditEntry.findMany({ where: { targetType: "feature_flag", targetId: key } });
    expect(entries.map((e) => e.action)).toEqual(["config.flag.create"]);
    expect(entries[0]!.actorId).toBe(staff.sub);

    const fanUser = newUser();
    expect((await api("PUT", `/api/admin/config/flags/${key}`, { headers: fanUser.auth, json: { rolloutPercent: 1 } })).status).toBe(403);
    expect(errorOf(await api("PUT", `/api/admin/config/flags/${key}`, { headers: staff.auth, json: { rolloutPercent: 101 } })).code).toBe("VALIDATION_ERROR");
    expect(errorOf(await api("PUT", `/api/admin/config/flags/${key}`, { headers: staff.auth, json: { rolloutPercent: 1.234 } })).code).toBe("VALIDATION_ERROR");
    expect((await api("PUT", "/api/admin/config/flags/Bad-Key", { headers: staff.auth, json: { rolloutPercent: 1 } })).status).toBe(400);
    expect((await api("PUT", "/api/admin/config/kill-switches/nothing", { headers: staff.auth, json: { paused: true } })).status).toBe(400);
    const badVersion = await api("PUT", "/api/admin/config/settings/minVersion.ios", { headers: staff.auth, json: { value: "one" } });
    expect(errorOf(badVersion).code).toBe("VALIDATION_ERROR");
    expect((await api("PUT", "/api/admin/config/settings/nope", { headers: staff.auth, json: { value: "1.0.0" } })).status).toBe(400);

    const listed = await api("GET", "/api/admin/config", { headers: staff.auth });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.flags.find((f: { key: string }) => f.key === key)).toMatchObject({ rolloutPercent: 12.5, description: "audited" });
    expect(listed.body.data.killSwitches.map((k: { feature: string }) => k.feature)).toEqual(["marketplace", "trades", "packs", "topups", "posting"]);
    expect((await api("DELETE", `/api/admin/config/flags/${key}`, { headers: staff.auth })).body.data).toEqual({ deleted: true });
    expect((await configOf()).flags[key]).toBeUndefined();
  });

  it("sets a minimum version shown in the config at once", async () => {
    const current = (await configOf()).minVersions.web;
    const next = current === "0.0.7" ? "0.0.8" : "0.0.7";
    const res = await api("PUT", "/api/admin/config/settings/minVersion.web", { headers: staff.auth, json: { value: next } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.setting).toMatchObject({ key: "minVersion.web", value: next, isDefault: false });
    expect((await configOf()).minVersions.web).toBe(next);
  });

  it("applies concurrent identical changes once (one audit entry)", async () => {
    const key = `t_race_${uid()}`;
    flagKeys.push(key);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api("PUT", `/api/admin/config/flags/${key}`, { headers: staff.auth, json: { rolloutPercent: 30 } })),
    );
    // Serialized per key: one creates it, the others find it unchanged and write nothing.
    for (const r of results) expect(r.status, r.text).toBe(200);
    const entries = await db().auditEntry.findMany({ where: { targetType: "feature_flag", targetId: key } });
    expect(entries).toHaveLength(1);
  });
});

describe("kill switches", () => {
  const dummy = "019ac0de-0000-7000-8000-00000000beef";
  // Every write marked with a feature; the check runs before the body is read, so an empty one is enough.
  const WRITES: [string, string, string][] = [
    ["marketplace", "POST", "/api/v1/marketplace/listings"],
    ["marketplace", "POST", `/api/v1/marketplace/listings/${dummy}/buy`],
    ["marketplace", "POST", `/api/v1/marketplace/listings/${dummy}/bids`],
    ["marketplace", "POST", "/api/v1/marketplace/offers"],
    ["marketplace", "POST", `/api/v1/marketplace/offers/${dummy}/accept`],
    ["marketplace", "POST", "/api/v1/marketplace/checkout"],
    ["trades", "POST", "/api/v1/marketplace/trades"],
    ["trades", "POST", `/api/v1/marketplace/trades/${dummy}/accept`],
    ["trades", "POST", `/api/v1/marketplace/trades/${dummy}/counter`],
    ["packs", "POST", "/api/v1/packs/pk_none/purchases"],
    ["packs", "POST", `/api/v1/packs/purchases/${dummy}/open`],
    ["topups", "POST", "/api/v1/wallet/topups"],
    ["posting", "POST", "/api/locker-room"],
    ["posting", "POST", `/api/locker-room/${dummy}/comments`],
    // Added by issue 44: every write of a feature's domain (tests/domain/contract.test.ts keeps the list complete).
    ["marketplace", "PATCH", `/api/v1/marketplace/listings/${dummy}`],
    ["marketplace", "POST", "/api/v1/marketplace/cart/items"],
    ["packs", "POST", `/api/v1/drops/${dummy}/entry`],
    ["posting", "PATCH", `/api/locker-room/${dummy}`],
    ["posting", "PATCH", `/api/locker-room/scheduled/${dummy}`],
    ["posting", "POST", "/api/upload/locker-media"],
    ["posting", "POST", "/api/upload/locker-media/direct"],
    ["posting", "POST", `/api/upload/locker-media/direct/${dummy}/complete`],
  ];
  const READS = ["/api/v1/marketplace/listings", "/api/v1/marketplace/trades", "/api/v1/packs", "/api/v1/wallet/products", "/api/locker-room"];
  const write = (auth: Record<string, string>, method: string, path: string) =>
    api(method, path, { headers: { ...auth, "idempotency-key": randomUUID() }, json: {} });
  const features = [...new Set(WRITES.map(([f]) => f))];

  afterAll(async () => {
    for (const f of features) await putSwitch(f, { paused: false });
  });

  it("refuses each paused feature's writes with 409 FEATURE_DISABLED for the paused users only; reads stay open; resumed works again", async () => {
    const [paused, other] = await Promise.all([fan(), fan()]);
    for (const f of features) {
      const res = await putSwitch(f, { paused: true, userIds: [paused.id], message: `Test pause of ${f}.` });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.killSwitch).toMatchObject({ feature: f, paused: true, scope: "users", userIds: [paused.id] });
    }

    const c = await configOf(paused.auth);
    for (const f of features) expect(c.features[f]).toEqual({ enabled: false, message: `Test pause of ${f}.` });
    const otherConfig = await configOf(other.auth);
    for (const f of features) expect(otherConfig.features[f]!.enabled).toBe(true);

    for (const [feature, method, path] of WRITES) {
      const res = await write(paused.auth, method, path);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(409);
      expect(errorOf(res)).toEqual({ code: "FEATURE_DISABLED", message: `Test pause of ${feature}.`, details: [{ path: "feature", message: feature }] });
      const unaffected = await write(other.auth, method, path);
      expect(unaffected.status, `${method} ${path}: ${unaffected.text}`).toBeLessThan(500);
      expect(errorOf(unaffected)?.code, `${method} ${path}`).not.toBe("FEATURE_DISABLED");
    }
    for (const path of READS) {
      const res = await api("GET", path, { headers: paused.auth });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }

    // Audited: who paused what, and for whom.
    const entries = await db().auditEntry.findMany({ where: { targetType: "kill_switch", actorId: staff.sub, action: "config.feature.pause" } });
    expect(entries.map((e) => e.targetId).sort()).toEqual(expect.arrayContaining(features.sort()));

    // Resumed: the same writes reach their handlers again (validation, not found: anything but the switch).
    for (const f of features) expect((await putSwitch(f, { paused: false })).status).toBe(200);
    for (const f of features) expect((await configOf(paused.auth)).features[f]!.enabled).toBe(true);
    for (const [, method, path] of WRITES) {
      const res = await write(paused.auth, method, path);
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(500);
      expect(errorOf(res)?.code, `${method} ${path}`).not.toBe("FEATURE_DISABLED");
    }
  });

  it("lets a fan post again once posting is resumed (a real write)", async () => {
    const me = await fan();
    expect((await putSwitch("posting", { paused: true, userIds: [me.id] })).status).toBe(200);
    const refused = await api("POST", "/api/locker-room", { headers: me.auth, json: { content: "Paused?" } });
    expect(errorOf(refused).code).toBe("FEATURE_DISABLED");
    expect(refused.body.error.message).toMatch(/paused/i);
    expect((await putSwitch("posting", { paused: false })).status).toBe(200);
    const posted: Res = await api("POST", "/api/locker-room", { headers: me.auth, json: { content: "Back again" } });
    expect(errorOf(posted)?.code).not.toBe("FEATURE_DISABLED");
  });

  // Issue 44: the holes of the first version, on real objects. A drop entry bought packs, a post was edited and a
  // listing repriced while their feature was paused; eligibility did not say what was paused.
  it("refuses a drop entry, a post edit and a listing reprice of the paused fan; eligibility lists the paused features; resumed, each works", async () => {
    const [me, other] = await Promise.all([fan(5_000), fan()]);
    const admin = newUser({ admin: true });
    const dropRes = await api("POST", "/api/admin/drops", {
      headers: admin.auth,
      json: {
        name: "Paused drop",
        packId: await testPack("paused", 1_000),
        mode: "queue",
        price: 1_000,
        quantity: 5,
        perUserCap: 2,
        opensAt: new Date(Date.now() - 60_000).toISOString(),
        closesAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(dropRes.status, dropRes.text).toBe(201);
    const dropId = dropRes.body.data.drop.id as string;
    const item = await testCard("Paused market card", "common", 100).give(me.id);
    const listed = await api("POST", "/api/v1/marketplace/listings", { headers: me.auth, json: { kind: "fixed", collectibleId: item, price: 500 } });
    expect(listed.status, listed.text).toBe(201);
    const listingId = listed.body.data.listing.id as string;
    const terms = (await api("GET", "/api/user/terms")).body.data.currentVersion as string;
    expect((await api("POST", "/api/user/terms", { headers: me.auth, json: { version: terms } })).status).toBe(200);
    const posted = await api("POST", "/api/locker-room", { headers: me.auth, json: { content: "Before the pause" } });
    expect(posted.status, posted.text).toBe(201);
    const postId = posted.body.data.id as string;

    for (const f of ["packs", "marketplace", "posting"]) {
      expect((await putSwitch(f, { paused: true, userIds: [me.id], message: `Hole test: ${f}.` })).status).toBe(200);
    }
    const enter = () => api("POST", `/api/v1/drops/${dropId}/entry`, { headers: { ...me.auth, "idempotency-key": randomUUID() }, json: { quantity: 1 } });
    const reprice = () => api("PATCH", `/api/v1/marketplace/listings/${listingId}`, { headers: me.auth, json: { price: 700 } });
    const edit = () => api("PATCH", `/api/locker-room/${postId}`, { headers: me.auth, json: { content: "Edited during the pause" } });

    const refusedEntry = await enter();
    expect([refusedEntry.status, errorOf(refusedEntry)]).toEqual([
      409,
      { code: "FEATURE_DISABLED", message: "Hole test: packs.", details: [{ path: "feature", message: "packs" }] },
    ]);
    expect(await db().packPurchase.count({ where: { userId: me.id } })).toBe(0);
    const refusedReprice = await reprice();
    expect([refusedReprice.status, errorOf(refusedReprice).code]).toEqual([409, "FEATURE_DISABLED"]);
    expect((await api("GET", `/api/v1/marketplace/listings/${listingId}`)).body.data.listing.price).toBe(500);
    const refusedEdit = await edit();
    expect([refusedEdit.status, errorOf(refusedEdit).code]).toEqual([409, "FEATURE_DISABLED"]);
    expect((await api("GET", `/api/locker-room/${postId}`, { headers: me.auth })).body.data.content).toBe("Before the pause");

    const eligibility = await api("GET", "/api/v1/me/eligibility", { headers: me.auth });
    expect(eligibility.status, eligibility.text).toBe(200);
    expect(eligibility.body.data.paused).toEqual([
      { feature: "marketplace", message: "Hole test: marketplace." },
      { feature: "packs", message: "Hole test: packs." },
      { feature: "posting", message: "Hole test: posting." },
    ]);
    expect(eligibility.body.data.packs.allowed).toBe(false);
    expect(eligibility.body.data.packs.reasons).toContainEqual({ code: "FEATURE_DISABLED", message: "Hole test: packs." });
    expect(eligibility.body.data.coins.reasons.map((r: { code: string }) => r.code)).not.toContain("FEATURE_DISABLED");
    const others = await api("GET", "/api/v1/me/eligibility", { headers: other.auth });
    expect(others.body.data.paused).toEqual([]);

    for (const f of ["packs", "marketplace", "posting"]) expect((await putSwitch(f, { paused: false })).status).toBe(200);
    const entered = await enter();
    expect(entered.status, entered.text).toBe(201);
    expect(entered.body.data.entry.won).toBe(1);
    expect((await reprice()).status).toBe(200);
    expect((await edit()).status).toBe(200);
    expect((await api("GET", "/api/v1/me/eligibility", { headers: me.auth })).body.data.paused).toEqual([]);
  });

  it("passes over a drawn fan for whom packs are paused (FEATURE_DISABLED, hold refunded once); the others win", async () => {
    const admin = newUser({ admin: true });
    const [paused, winner] = await Promise.all([fan(1_000), fan(1_000)]);
    const dropRes = await api("POST", "/api/admin/drops", {
      headers: admin.auth,
      json: {
        name: "Paused draw",
        packId: await testPack("paused_draw", 1_000),
        mode: "draw",
        price: 1_000,
        quantity: 2,
        perUserCap: 1,
        opensAt: new Date(Date.now() - 60_000).toISOString(),
        closesAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(dropRes.status, dropRes.text).toBe(201);
    const dropId = dropRes.body.data.drop.id as string;
    for (const f of [paused, winner]) {
      const res = await api("POST", `/api/v1/drops/${dropId}/entry`, { headers: { ...f.auth, "idempotency-key": randomUUID() }, json: { quantity: 1 } });
      expect(res.status, res.text).toBe(201);
    }
    expect((await putSwitch("packs", { paused: true, userIds: [paused.id] })).status).toBe(200);
    try {
      await db().$executeRaw`UPDATE drops SET opens_at = now() - interval '2 hours', closes_at = now() - interval '1 second' WHERE id = ${dropId}::uuid`;
      const cron = await api("GET", "/api/cron/drops", {
        headers: { authorization: `Bearer ${(inject("fixtures").sync as { cronSecret: string }).cronSecret}` },
      });
      expect(cron.status, cron.text).toBe(200);
      expect(cron.body.data.packsPaused).toBe(false); // a scoped pause: the draw runs
      const order = (await api("GET", `/api/v1/drops/${dropId}`)).body.data.order as { userId: string; won: number; outcome: string }[];
      expect(order.find((o) => o.userId === paused.id)).toMatchObject({ won: 0, outcome: "ineligible:FEATURE_DISABLED" });
      expect(order.find((o) => o.userId === winner.id)).toMatchObject({ won: 1, outcome: "won" });
      const entry = (await api("GET", `/api/v1/drops/${dropId}/entry`, { headers: paused.auth })).body.data.entry;
      expect(entry).toMatchObject({ status: "lost", ineligibleCode: "FEATURE_DISABLED" });
      expect(await db().walletTransaction.count({ where: { referenceType: "drop_entry", referenceId: entry.id, reason: "refund" } })).toBe(1);
      expect(await db().packPurchase.count({ where: { userId: paused.id } })).toBe(0);
    } finally {
      await putSwitch("packs", { paused: false });
    }
  });

  it("documents FEATURE_DISABLED on the marked routes and 304 on the config", async () => {
    const doc = (await api("GET", "/api/openapi.json")).body;
    expect(doc.paths["/api/v1/marketplace/listings"].post.responses["409"].description).toMatch(/FEATURE_DISABLED/);
    expect(doc.paths["/api/v1/marketplace/listings"].get.responses["409"]).toBeUndefined();
    const config = doc.paths["/api/v1/config"].get;
    expect(config.responses["304"]).toBeDefined();
    expect(config.parameters.map((p: { name: string }) => p.name)).toContain("If-None-Match");
  });
});
