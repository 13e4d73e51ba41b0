import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser } from "../helpers";
import { earn, key, LEDGER, signedUp } from "./rep-fixtures";

// Rep: GET /api/v1/engage/rep/ledger (pages, cursors, isolation between users).

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url");
/** A cursor in the server's current format (base64url of JSON [version, sortKey, id]), built by hand. */
const cur = (...parts: unknown[]) => b64(JSON.stringify(parts));

describe("GET /api/v1/engage/rep/ledger", () => {
  interface Expected {
    id: string;
    source: string;
    amount: number;
    timestamp: string;
    reason: string;
  }

  /** Inserts n entries: groups of three share a createdAt (id breaks the tie); ids are random, not insertion-ordered. */
  async function seedLedger(userId: string, n: number, tag = "seed"): Promise<Expected[]> {
    const base = Date.parse("2026-10-01T12:00:00.000Z");
    const sources = ["fanAmp", "club", "playerAmp", "serviceDirect"] as const;
    const rows = Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      userId,
      source: sources[i % 4]!,
      amount: i - 5,
      reason: `${tag} ${i}`,
      earnKind: "seeded",
      grantKey: `${tag}:${i}`,
      createdAt: new Date(base - Math.floor(i / 3) * 60_000),
    }));
    // Insert in shuffled order so physical order says nothing.
    const shuffled = [...rows].sort(() => Math.random() - 0.5);
    await db().repEntry.createMany({ data: shuffled });
    return rows
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((r) => ({ id: r.id, source: r.source, amount: r.amount, timestamp: r.createdAt.toISOString(), reason: r.reason }));
  }

  async function walk(auth: Record<string, string>, limit: number) {
    const pages: Expected[][] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 200; guard++) {
      const qs = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
      const res = await api("GET", `${LEDGER}?${qs}`, { headers: auth });
      expect(res.status).toBe(200);
      pages.push(res.body.entries);
      if (!("nextCursor" in res.body)) {
        expect(Object.keys(res.body)).toEqual(["entries"]);
        return pages;
      }
      expect(typeof res.body.nextCursor).toBe("string");
      expect(res.body.entries).toHaveLength(limit);
      cursor = res.body.nextCursor;
    }
    throw new Error("pagination did not end");
  }

  it("answers bare { entries: [] } with no nextCursor for a new user", async () => {
    const { auth } = newUser();
    const res = await api("GET", LEDGER, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ entries: [] });
    expect("nextCursor" in res.body).toBe(false);
  });

  it("walks 45 entries with limit=20 as 20, 20, 5 in createdAt desc, id desc order", async () => {
    const { auth, userId } = await signedUp();
    const expected = await seedLedger(userId, 45);
    const pages = await walk(auth, 20);
    expect(pages.map((p) => p.length)).toEqual([20, 20, 5]);
    const all = pages.flat();
    expect(new Set(all.map((e) => e.id)).size).toBe(45);
    expect(all).toEqual(expected);
  });

  it.each([1, 2, 3, 7, 44, 45])("walks the same 45 entries with limit=%i without duplicates or gaps", async (limit) => {
    const { auth, userId } = await signedUp();
    const expected = await seedLedger(userId, 45);
    const pages = await walk(auth, limit);
    const sizes = [...Array.from({ length: Math.floor(45 / limit) }, () => limit), ...(45 % limit ? [45 % limit] : [])];
    expect(pages.map((p) => p.length)).toEqual(sizes);
    expect(pages.flat()).toEqual(expected);
  });

  it("an exact multiple of the page size ends without a nextCursor on the last full page", async () => {
    const { auth, userId } = await signedUp();
    const expected = await seedLedger(userId, 40);
    const first = await api("GET", `${LEDGER}?limit=20`, { headers: auth });
    expect(first.body.entries).toEqual(expected.slice(0, 20));
    expect(typeof first.body.nextCursor).toBe("string");
    const second = await api("GET", `${LEDGER}?limit=20&cursor=${encodeURIComponent(first.body.nextCursor)}`, { headers: auth });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ entries: expected.slice(20, 40) });
  });

  it("defaults to 20 entries per page and accepts 1 and 100", async () => {
    const { auth, userId } = await signedUp();
    const expected = await seedLedger(userId, 45);
    const def = await api("GET", LEDGER, { headers: auth });
    expect(def.status).toBe(200);
    expect(def.body.entries).toEqual(expected.slice(0, 20));
    expect(typeof def.body.nextCursor).toBe("string");
    const next = await api("GET", `${LEDGER}?cursor=${encodeURIComponent(def.body.nextCursor)}`, { headers: auth });
    expect(next.body.entries).toEqual(expected.slice(20, 40));
    const one = await api("GET", `${LEDGER}?limit=1`, { headers: auth });
    expect(one.body.entries).toEqual(expected.slice(0, 1));
    expect(typeof one.body.nextCursor).toBe("string");
    const max = await api("GET", `${LEDGER}?limit=100`, { headers: auth });
    expect(max.body).toEqual({ entries: expected });
  });

  it.each(["0", "101", "abc", "1.5", "-1", "", "1e2", " 5"])("limit=%j is 400 VALIDATION_ERROR on query.limit", async (limit) => {
    const { auth } = newUser();
    const res = await api("GET", `${LEDGER}?limit=${encodeURIComponent(limit)}`, { headers: auth });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: expect.any(Array) },
    });
    expect(errorOf(res).details!.map((d) => d.path)).toEqual(["query.limit"]);
  });

  const VALID_ID = "0190f3b4-7c2e-7a51-8f00-0123456789ab";
  it.each([
    ["garbage characters", "!!!not-a-cursor!!!"],
    ["base64 of junk", b64("junk")],
    ["base64 of binary junk", Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7c, 0x7c]).toString("base64url")],
    ["bad version", cur("v2", "1760000000000", VALID_ID)],
    ["missing version", cur("1760000000000", VALID_ID)],
    ["too many parts", cur("v1", "1760000000000", VALID_ID, "x")],
    ["non-numeric time", cur("v1", "yesterday", VALID_ID)],
    ["negative time", cur("v1", "-5", VALID_ID)],
    ["fractional time", cur("v1", "1.5", VALID_ID)],
    ["time past the Date range", cur("v1", "9007199254740991", VALID_ID)],
    ["id not a uuid", cur("v1", "1760000000000", "not-a-uuid")],
    ["id with SQL", cur("v1", "1760000000000", "x' OR '1'='1")],
    ["empty id", cur("v1", "1760000000000", "")],
    ["over 1024 characters", "A".repeat(1100)],
  ])("cursor: %s is 400 VALIDATION_ERROR, never 500", async (_label, cursor) => {
    const { auth, userId } = await signedUp();
    await seedLedger(userId, 3);
    const res = await api("GET", `${LEDGER}?cursor=${encodeURIComponent(cursor)}`, { headers: auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details!.map((d) => d.path)).toEqual(["query.cursor"]);
  });

  it("a well-formed cursor made by hand pages from its position", async () => {
    const { auth, userId } = await signedUp();
    const expected = await seedLedger(userId, 6);
    const future = await api("GET", `${LEDGER}?cursor=${cur("v1", String(Date.parse("2100-01-01T00:00:00.000Z")), VALID_ID)}`, { headers: auth });
    expect(future.status).toBe(200);
    expect(future.body).toEqual({ entries: expected });
    const epoch = await api("GET", `${LEDGER}?cursor=${cur("v1", "0", VALID_ID)}`, { headers: auth });
    expect(epoch.status).toBe(200);
    expect(epoch.body).toEqual({ entries: [] });
    // Positioned on the third entry (same createdAt group, id tie-break): the rest follow.
    const third = expected[2]!;
    const mid = await api("GET", `${LEDGER}?cursor=${cur("v1", String(Date.parse(third.timestamp)), third.id)}`, { headers: auth });
    expect(mid.status).toBe(200);
    expect(mid.body).toEqual({ entries: expected.slice(3) });
  });

  it("an empty cursor parameter is 400", async () => {
    const { auth } = newUser();
    const res = await api("GET", `${LEDGER}?cursor=`, { headers: auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
  });

  it("never shows another user's entries, even through that user's cursor", async () => {
    const a = await signedUp();
    const b = await signedUp();
    const ea = await seedLedger(a.userId, 25, "a");
    const eb = await seedLedger(b.userId, 5, "b");
    const pagesA = await walk(a.auth, 20);
    expect(pagesA.flat()).toEqual(ea);
    const full = await api("GET", `${LEDGER}?limit=100`, { headers: b.auth });
    expect(full.body).toEqual({ entries: eb });
    // A's cursor in B's hands pages B's ledger only.
    const aFirst = await api("GET", `${LEDGER}?limit=3`, { headers: a.auth });
    const cross = await api("GET", `${LEDGER}?limit=100&cursor=${encodeURIComponent(aFirst.body.nextCursor)}`, { headers: b.auth });
    expect(cross.status).toBe(200);
    for (const e of cross.body.entries) expect(eb.map((x) => x.id)).toContain(e.id);
    expect(cross.body.entries.some((e: Expected) => ea.some((x) => x.id === e.id))).toBe(false);
  });

  it("earned entries come first (newest), ahead of older seeded entries", async () => {
    const { auth, userId } = await signedUp();
    const expected = await seedLedger(userId, 4);
    const earned = await earn(auth, { earnKind: "daily_visit", idempotencyKey: key() });
    const res = await api("GET", LEDGER, { headers: auth });
    expect(res.body).toEqual({ entries: [earned.body.data.entry, ...expected] });
  });

  it("without a token or with a bad token is 401", async () => {
    const res = await api("GET", LEDGER);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    const bad = await api("GET", LEDGER, { headers: { authorization: "Bearer x.y.z" } });
    expect(bad.status).toBe(401);
    expect(errorOf(bad).code).toBe("UNAUTHORIZED");
  });
});
