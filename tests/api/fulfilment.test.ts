import { randomUUID } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, db, errorOf, newUser, userIdOf } from "../helpers";
import { award } from "../../lib/core/rep/grants";

// Reward fulfilment: voucher pools, physical rewards and the shipping address, the caller's claims, staff moves and
// the once-only refund of a failed fulfilment.

type Auth = Record<string, string>;
const REDEEM = "/api/rewards/redeem";
const ADDRESS = "/api/v1/me/shipping-address";
const CLAIMS = "/api/rewards/claims";
const staff = newUser({ admin: true });
const rand = () => randomUUID().replace(/-/g, "").slice(0, 12);
const key = () => `k-${randomUUID()}`;

async function fan(rep = 0) {
  const user = newUser();
  expect((await api("GET", "/api/rewards", { headers: user.auth })).status).toBe(200);
  const userId = await userIdOf(user.sub);
  if (rep > 0) {
    await db().$transaction((tx) =>
      award(tx, userId, { earnKind: "test_grant", amount: rep, source: "club", reason: "Test grant", grantKey: `test:${randomUUID()}` }),
    );
  }
  return { ...user, userId };
}
type Fan = Awaited<ReturnType<typeof fan>>;

async function makeReward(fulfilment: "none" | "digital" | "voucher" | "physical", o: { costRep?: number; stock?: number | null } = {}) {
  const id = `rw_f_${rand()}`;
  return db().reward.create({
    data: {
      id,
      slug: id.replace(/_/g, "-"),
      title: `Reward ${id}`,
      costRep: o.costRep ?? 100,
      stock: o.stock === undefined ? null : o.stock,
      kind: "redeem",
      fulfilment,
    },
  });
}

const redeem = (f: { auth: Auth }, rewardId: string) => api("POST", REDEEM, { headers: f.auth, json: { rewardId, idempotencyKey: key() } });
const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
const stockOf = async (id: string) => (await db().reward.findUniqueOrThrow({ where: { id } })).stock;
const ADDR = { name: "Ada Fan", line1: "1 Harbour Road", city: "Leeds", postalCode: "LS1 4AB", country: "gb" };
const move = (claimId: string, json: unknown) => api("PUT", `/api/admin/rewards/claims/${claimId}`, { headers: staff.auth, json });

describe("shipping address", () => {
  it("is null until set, validated, stored per user and replaced whole", async () => {
    const f = await fan();
    expect((await api("GET", ADDRESS, { headers: f.auth })).body.data).toBeNull();
    const bad = await api("PUT", ADDRESS, { headers: f.auth, json: { ...ADDR, country: "GBR", name: "" } });
    expect(bad.status).toBe(400);
    expect(
      errorOf(bad)
        .details!.map((d) => d.path)
        .sort(),
    ).toEqual(["body.country", "body.name"]);
    expect((await api("PUT", ADDRESS, { headers: f.auth, json: { ...ADDR, phone: "not a phone!" } })).status).toBe(400);
    expect((await api("PUT", ADDRESS, { headers: f.auth, json: { ...ADDR, extra: 1 } })).status).toBe(400);
    const put = await api("PUT", ADDRESS, { headers: f.auth, json: { ...ADDR, region: "West Yorkshire", phone: "+44 113 000 0000" } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ ...ADDR, country: "GB", line2: null, region: "West Yorkshire", phone: "+44 113 000 0000" });
    const again = await api("PUT", ADDRESS, { headers: f.auth, json: ADDR });
    expect(again.body.data).toMatchObject({ region: null, phone: null });
    expect((await api("GET", ADDRESS, { headers: f.auth })).body.data).toEqual(again.body.data);
    expect((await api("GET", ADDRESS, { headers: (await fan()).auth })).body.data).toBeNull();
  });
});

describe("physical rewards", () => {
  it("needs the shipping address at redeem time, then staff ship and deliver it and the fan sees it", async () => {
    const f = await fan(500);
    const reward = await makeReward("physical", { stock: 5 });
    const refused = await redeem(f, reward.id);
    expect(refused.status).toBe(409);
    expect(errorOf(refused).code).toBe("SHIPPING_ADDRESS_REQUIRED");
    expect(await balanceOf(f.userId)).toBe(500);
    expect(await stockOf(reward.id)).toBe(5);
    expect(await db().rewardClaim.count({ where: { userId: f.userId } })).toBe(0);

    expect((await api("PUT", ADDRESS, { headers: f.auth, json: ADDR })).status).toBe(200);
    const ok = await redeem(f, reward.id);
    expect(ok.status).toBe(200);
    const claim = ok.body.data.claim;
    expect(claim.fulfilment).toMatchObject({ kind: "physical", status: "pending", voucherCode: null, trackingCode: null });
    expect(claim.fulfilment.shippingAddress).toMatchObject({ name: "Ada Fan", country: "GB" });

    const queue = await api("GET", "/api/admin/rewards/claims?status=pending&limit=100", { headers: staff.auth });
    expect(queue.status).toBe(200);
    expect(queue.body.data.claims.find((c: { id: string }) => c.id === claim.id)).toMatchObject({ userId: f.userId, fulfilment: { status: "pending" } });
    expect((await api("GET", "/api/admin/rewards/claims", { headers: f.auth })).status).toBe(403);

    const shipped = await move(claim.id, { status: "shipped", trackingCode: "TRK123" });
    expect(shipped.status).toBe(200);
    expect(shipped.body.data).toMatchObject({ changed: true, claim: { fulfilment: { status: "shipped", trackingCode: "TRK123" } } });
    const mine = await api("GET", `${CLAIMS}/${claim.id}`, { headers: f.auth });
    expect(mine.status).toBe(200);
    expect(mine.body.data.fulfilment).toMatchObject({ status: "shipped", trackingCode: "TRK123" });
    // Another fan's claim is a 404, as is an unknown one.
    expect((await api("GET", `${CLAIMS}/${claim.id}`, { headers: (await fan()).auth })).status).toBe(404);
    expect((await api("GET", `${CLAIMS}/${randomUUID()}`, { headers: f.auth })).status).toBe(404);
    expect((await api("GET", `${CLAIMS}/not-a-uuid`, { headers: f.auth })).status).toBe(400);

    expect((await move(claim.id, { status: "delivered" })).body.data.claim.fulfilment.status).toBe("delivered");
    const late = await move(claim.id, { status: "failed" });
    expect(late.status).toBe(409);
    expect(errorOf(late).code).toBe("FULFILMENT_TRANSITION_INVALID");
    expect((await move(randomUUID(), { status: "shipped" })).status).toBe(404);
    expect(await db().auditEntry.count({ where: { targetId: claim.id } })).toBe(2);
  });

  it("a failed fulfilment gives back the Rep and the stock once, whatever the number of concurrent fail actions", async () => {
    const f = await fan(300);
    const reward = await makeReward("physical", { costRep: 120, stock: 3 });
    await api("PUT", ADDRESS, { headers: f.auth, json: ADDR });
    const claim = (await redeem(f, reward.id)).body.data.claim;
    expect(await balanceOf(f.userId)).toBe(180);
    expect(await stockOf(reward.id)).toBe(2);

    const results = await Promise.all(Array.from({ length: 10 }, () => move(claim.id, { status: "failed", note: "Lost in transit" })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.body.data.changed)).toHaveLength(1);
    expect(await balanceOf(f.userId)).toBe(300);
    expect(await stockOf(reward.id)).toBe(3);
    const refunds = await db().repEntry.findMany({ where: { userId: f.userId, grantKey: `reward_refund:${claim.id}` } });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 120n, earnKind: "reward_refund" });
    // The debit stays; the refund is a compensating entry.
    expect(await db().repEntry.count({ where: { userId: f.userId, grantKey: `reward_redemption:${claim.id}` } })).toBe(1);
    const spent = (await db().user.findUniqueOrThrow({ where: { id: f.userId } })).repSpent;
    expect(Number(spent)).toBe(0);
    const mine = (await api("GET", `${CLAIMS}/${claim.id}`, { headers: f.auth })).body.data;
    expect(mine.fulfilment).toMatchObject({ status: "failed", refundEntryId: refunds[0]!.id, refundedAt: expect.any(String) });
    expect(await db().auditEntry.count({ where: { targetId: claim.id, action: "reward_claim.failed" } })).toBe(1);
  });
});

describe("voucher rewards", () => {
  it("gives each code exactly once under concurrency; the rest are refused with nothing spent", async () => {
    const reward = await makeReward("voucher", { costRep: 50, stock: 20 });
    const codes = Array.from({ length: 10 }, (_, i) => `CODE-${rand()}-${i}`);
    const added = await api("POST", `/api/admin/rewards/${reward.id}/voucher-codes`, { headers: staff.auth, json: { codes: [...codes, codes[0]] } });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ added: 10, skipped: 1, available: 10 });

    const fans: Fan[] = await Promise.all(Array.from({ length: 20 }, () => fan(100)));
    const results = await Promise.all(fans.map((f) => redeem(f, reward.id)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(10);
    expect(refused.map((r) => errorOf(r).code)).toEqual(Array(10).fill("VOUCHER_POOL_EMPTY"));
    const given = ok.map((r) => r.body.data.claim.fulfilment.voucherCode as string);
    expect(new Set(given).size).toBe(10);
    expect([...given].sort()).toEqual([...codes].sort());
    expect(await stockOf(reward.id)).toBe(10);
    const balances = await Promise.all(fans.map((f) => balanceOf(f.userId)));
    expect(balances.filter((b) => b === 50)).toHaveLength(10);
    expect(balances.filter((b) => b === 100)).toHaveLength(10);
    expect(await db().rewardVoucherCode.count({ where: { rewardId: reward.id, claimId: null } })).toBe(0);

    // The owner sees the code in the list; staff never do.
    const winner = fans[results.findIndex((r) => r.status === 200)]!;
    const mine = await api("GET", `${CLAIMS}?limit=1`, { headers: winner.auth });
    expect(mine.body.data.claims[0].fulfilment).toMatchObject({ kind: "voucher", status: "fulfilled", voucherAssigned: true });
    expect(given).toContain(mine.body.data.claims[0].fulfilment.voucherCode);
    const staffView = await api("GET", "/api/admin/rewards/claims?status=fulfilled&limit=100", { headers: staff.auth });
    expect(staffView.body.data.claims.every((c: { fulfilment: { voucherCode: string | null } }) => c.fulfilment.voucherCode === null)).toBe(true);

    expect(
      errorOf(await api("POST", `/api/admin/rewards/${(await makeReward("physical")).id}/voucher-codes`, { headers: staff.auth, json: { codes: ["X"] } })).code,
    ).toBe("FULFILMENT_TRANSITION_INVALID");
  });

  it("the catalog shows a voucher reward out of stock while its pool has no free code, whatever its stock", async () => {
    const reward = await makeReward("voucher", { costRep: 10, stock: 5 });
    const f = await fan(100);
    const listed = async () => (await api("GET", "/api/rewards", { headers: f.auth })).body.data.rewards.find((r: { id: string }) => r.id === reward.id);
    expect(await listed()).toMatchObject({ stock: 5, canRedeem: false, reason: "out_of_stock" });

    const added = await api("POST", `/api/admin/rewards/${reward.id}/voucher-codes`, { headers: staff.auth, json: { codes: [`ONLY-${rand()}`] } });
    expect(added.status).toBe(200);
    expect(await listed()).toMatchObject({ canRedeem: true, reason: null });
    expect((await redeem(f, reward.id)).status).toBe(200);
    // The one code is taken: out of stock again, though 4 items are left.
    expect(await listed()).toMatchObject({ stock: 4, canRedeem: false, reason: "out_of_stock" });
  });

  it("a replayed redeem answers the same code and takes no other", async () => {
    const reward = await makeReward("voucher", { costRep: 10 });
    await db().rewardVoucherCode.createMany({ data: [`A-${rand()}`, `B-${rand()}`].map((code) => ({ rewardId: reward.id, code })) });
    const f = await fan(100);
    const k = key();
    const [one, two] = await Promise.all([0, 1].map(() => api("POST", REDEEM, { headers: f.auth, json: { rewardId: reward.id, idempotencyKey: k } })));
    expect([one!.status, two!.status]).toEqual([200, 200]);
    expect(one!.body.data.claim.fulfilment.voucherCode).toBe(two!.body.data.claim.fulfilment.voucherCode);
    expect([one!.body.data.replayed, two!.body.data.replayed].sort()).toEqual([false, true]);
    expect(await db().rewardVoucherCode.count({ where: { rewardId: reward.id, claimId: null } })).toBe(1);
    expect(await balanceOf(f.userId)).toBe(90);
  });

  it("lists the caller's claims newest first, keyset paged", async () => {
    const f = await fan(1000);
    const reward = await makeReward("digital", { costRep: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await redeem(f, reward.id)).body.data.claim.id);
    const first = await api("GET", `${CLAIMS}?limit=2`, { headers: f.auth });
    expect(first.body.data.claims.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.data.claims[0].fulfilment).toMatchObject({ kind: "digital", status: "fulfilled" });
    const second = await api("GET", `${CLAIMS}?limit=2&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, { headers: f.auth });
    expect(second.body.data.claims.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(second.body.data.nextCursor).toBeUndefined();
    expect((await api("GET", `${CLAIMS}?cursor=bad`, { headers: f.auth })).status).toBe(400);
  });
});

describe("data export", () => {
  it("holds the shipping address, and each claim with its fulfilment", async () => {
    const f = await fan(200);
    const reward = await makeReward("physical", { costRep: 100 });
    expect((await api("PUT", ADDRESS, { headers: f.auth, json: ADDR })).status).toBe(200);
    const claim = (await redeem(f, reward.id)).body.data.claim;
    const requested = await api("POST", "/api/v1/me/exports", { headers: f.auth });
    expect(requested.status).toBe(202);
    const cronSecret = (inject("fixtures").sync as { cronSecret: string }).cronSecret;
    let url: string | null = null;
    for (let i = 0; i < 20 && !url; i++) {
      expect((await api("GET", "/api/cron/exports", { headers: { authorization: `Bearer ${cronSecret}` } })).status).toBe(200);
      url = (await api("GET", `/api/v1/me/exports/${requested.body.data.export.id}`, { headers: f.auth })).body.data.export.downloadUrl;
    }
    const u = new URL(url!);
    const zip = unzipSync(new Uint8Array(await (await fetch(`${baseUrl}${u.pathname}${u.search}`)).arrayBuffer()));
    const orders = JSON.parse(strFromU8(zip["orders.json"]!));
    expect(orders.shippingAddress).toMatchObject({ name: "Ada Fan", country: "GB", postalCode: "LS1 4AB" });
    expect(orders.rewardClaims).toEqual([
      expect.objectContaining({ id: claim.id, fulfilmentStatus: "pending", shippingAddress: expect.objectContaining({ line1: "1 Harbour Road" }) }),
    ]);
  });
});
