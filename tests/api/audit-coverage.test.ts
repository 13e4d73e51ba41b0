import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, fan, newUser, testCard, testPack, type Res } from "../helpers";

// The staff API calls audited by issue 35's second part: each writes exactly one entry with the staff id, the role
// of the session and the request's id (the X-Request-Id response header); a refused or no-op call writes none.

const entriesBy = (actorId: string) =>
  db().auditEntry.findMany({
    where: { actorId },
    orderBy: { id: "asc" },
    select: { actorRole: true, action: true, targetType: true, targetId: true, requestId: true, before: true, after: true },
  });
const requestIdOf = (res: Res) => res.headers.get("x-request-id");

const card = testCard("Audit coverage card", "common", 10_000);
beforeAll(() => card.create());

type Fan = Awaited<ReturnType<typeof fan>>;
const list = async (seller: Fan, json: Record<string, unknown>) =>
  (await api("POST", "/api/v1/marketplace/listings", { headers: seller.auth, json: { collectibleId: await card.give(seller.id), ...json } })).body.data
    .listing as { id: string };

describe("staff API audit coverage", () => {
  it("listing cancel: one entry (role economy, request id); a second cancel and a seller's own cancel write none", async () => {
    const seller = await fan();
    const listing = await list(seller, { kind: "fixed", price: 700 });
    const staff = newUser({ role: "economy" });
    const cancel = (id: string) => api("POST", `/api/admin/marketplace/listings/${id}/cancel`, { headers: staff.auth });
    const res = await cancel(listing.id);
    expect(res.status, res.text).toBe(200);
    expect(errorOf(await cancel(listing.id)).code).toBe("LISTING_UNAVAILABLE");
    expect(await entriesBy(staff.sub)).toEqual([
      expect.objectContaining({
        actorRole: "economy",
        action: "listing.cancel",
        targetType: "listing",
        targetId: listing.id,
        requestId: requestIdOf(res),
        after: { status: "cancelled" },
      }),
    ]);
    const own = await list(seller, { kind: "fixed", price: 700 });
    expect((await api("DELETE", `/api/v1/marketplace/listings/${own.id}`, { headers: seller.auth })).status).toBe(200);
    expect(await db().auditEntry.count({ where: { targetType: "listing", targetId: own.id } })).toBe(0);
  });

  it("listing refund: one entry for the refund; a second (refused) writes none", async () => {
    const seller = await fan();
    const listing = await list(seller, { kind: "fixed", price: 1_000 });
    const buyer = await fan(1_000);
    const bought = await api("POST", `/api/v1/marketplace/listings/${listing.id}/buy`, { headers: { ...buyer.auth, "idempotency-key": randomUUID() } });
    expect(bought.status, bought.text).toBe(200);
    const staff = newUser({ admin: true });
    const refund = () => api("POST", `/api/admin/marketplace/listings/${listing.id}/refund`, { headers: staff.auth });
    const res = await refund();
    expect(res.status, res.text).toBe(200);
    expect(errorOf(await refund()).code).toBe("LISTING_UNAVAILABLE");
    expect(await entriesBy(staff.sub)).toEqual([
      expect.objectContaining({
        actorRole: "admin",
        action: "listing.refund",
        targetId: listing.id,
        requestId: requestIdOf(res),
        after: expect.objectContaining({ refunded: true, buyerCredited: 1_000 }),
      }),
    ]);
  });

  it("pack stock: one entry with before and after; the same stock again and a fan write none", async () => {
    const packId = await testPack("audit", 100);
    const staff = newUser({ role: "economy" });
    const put = (stock: number | null, headers = staff.auth) => api("PUT", `/api/admin/packs/${packId}/stock`, { headers, json: { stock } });
    const res = await put(10);
    expect(res.status, res.text).toBe(200);
    expect((await put(10)).status).toBe(200);
    const f = newUser();
    expect((await put(5, f.auth)).status).toBe(403);
    expect(await entriesBy(staff.sub)).toEqual([
      {
        actorRole: "economy",
        action: "pack.stock",
        targetType: "pack",
        targetId: packId,
        requestId: requestIdOf(res),
        before: { stock: null },
        after: { stock: 10 },
      },
    ]);
    expect(await db().auditEntry.count({ where: { actorId: f.sub } })).toBe(0);
  });

  it("seed rotation: one entry naming the retired and the new seed", async () => {
    const staff = newUser({ role: "economy" });
    const res = await api("POST", "/api/admin/packs/seeds/rotate", { headers: staff.auth });
    expect(res.status, res.text).toBe(200);
    const active = res.body.data.active as { id: string; seedHash: string };
    expect(await entriesBy(staff.sub)).toEqual([
      expect.objectContaining({
        actorRole: "economy",
        action: "pack.seeds_rotate",
        targetType: "draw_seed",
        targetId: active.id,
        requestId: requestIdOf(res),
        after: { seedId: active.id, seedHash: active.seedHash },
      }),
    ]);
  });

  it("a staff sync: one entry when the run starts (its run id); a refused request writes none", async () => {
    const staff = newUser({ admin: true });
    const bad = await api("POST", "/api/admin/leagues/sync", { headers: staff.auth, json: { dryRun: "yes" } });
    expect(bad.status).toBe(400);
    expect(await entriesBy(staff.sub)).toEqual([]);
    const res = await api("POST", "/api/admin/leagues/sync", { headers: staff.auth, json: { dryRun: true } });
    expect(res.status, res.text).toBe(201);
    expect(await entriesBy(staff.sub)).toEqual([
      expect.objectContaining({
        actorRole: "admin",
        action: "sync.run",
        targetType: "sync_run",
        targetId: res.body.data.id,
        requestId: requestIdOf(res),
        after: { scope: "leagues", dryRun: true },
      }),
    ]);
  });
});
