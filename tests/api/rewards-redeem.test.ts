import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { balanceOf, debitsOf, expectNothingWritten, giveRep, ISO, key, makeReward, redeem, signedUp, stockOf, UUID } from "./rewards-fixtures";

// Rewards: POST /api/rewards/redeem.

describe("POST /api/rewards/redeem", () => {
  it("spends Rep through a negative ledger entry, takes one item of stock and answers the claim", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 300);
    const credit = (await db().repEntry.findMany({ where: { userId } }))[0]!;
    const reward = await makeReward({ costRep: 120, stock: 3 });
    const idempotencyKey = key();
    const res = await redeem(auth, { rewardId: reward.id, idempotencyKey });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toEqual({
      claim: {
        id: expect.stringMatching(UUID),
        rewardId: reward.id,
        rewardTitle: reward.title,
        kind: "redeem",
        costRep: 120,
        repEntryId: expect.stringMatching(UUID),
        claimedAt: expect.stringMatching(ISO),
        fulfilment: {
          kind: "none",
          status: "fulfilled",
          voucherCode: null,
          voucherAssigned: false,
          trackingCode: null,
          shippingAddress: null,
          updatedAt: null,
          refundedAt: null,
          refundEntryId: null,
        },
      },
      balance: 180,
      stock: 2,
      replayed: false,
    });
    expect(await balanceOf(userId)).toBe(180);
    expect(await stockOf(reward.id)).toBe(2);
    const [entry, ...more] = await debitsOf(userId);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({
      id: data.claim.repEntryId,
      amount: -120n,
      earnKind: "reward_redemption",
      source: "serviceDirect",
      grantKey: `reward_redemption:${data.claim.id}`,
      targetId: reward.id,
    });
    // The credit is untouched: spending is a new entry, never an edit.
    expect(await db().repEntry.findUniqueOrThrow({ where: { id: credit.id } })).toEqual(credit);
    const row = await db().rewardClaim.findUniqueOrThrow({ where: { id: data.claim.id } });
    expect(row).toMatchObject({ userId, rewardId: reward.id, kind: "redeem", costRep: 120n, claimKey: null, idempotencyKey, repEntryId: entry!.id });
    // The ledger shows it.
    const ledger = await api("GET", "/api/v1/engage/rep/ledger", { headers: auth });
    expect(ledger.body.entries[0]).toMatchObject({ id: entry!.id, amount: -120, source: "serviceDirect" });
  });

  it("unlimited stock stays unlimited", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 10);
    const reward = await makeReward({ costRep: 10, stock: null });
    const res = await redeem(auth, { rewardId: reward.id, idempotencyKey: key() });
    expect(res.status).toBe(200);
    expect(res.body.data.stock).toBeNull();
    expect(await stockOf(reward.id)).toBeNull();
  });

  it("the same key replays the first result; the same key with another reward is 409 IDEMPOTENCY_KEY_REUSED", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 500);
    const reward = await makeReward({ costRep: 100, stock: 10 });
    const other = await makeReward({ costRep: 100 });
    const idempotencyKey = key();
    const first = await redeem(auth, { rewardId: reward.id, idempotencyKey });
    expect(first.status).toBe(200);
    const again = await redeem(auth, { rewardId: reward.id, idempotencyKey });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first.body.data, replayed: true });
    const reused = await redeem(auth, { rewardId: other.id, idempotencyKey });
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual({
      success: false,
      error: { code: "IDEMPOTENCY_KEY_REUSED", message: "This idempotency key was already used to redeem a different reward." },
    });
    expect(await balanceOf(userId)).toBe(400);
    expect(await stockOf(reward.id)).toBe(9);
    expect(await debitsOf(userId)).toHaveLength(1);
    expect(await db().rewardClaim.count({ where: { userId } })).toBe(1);
  });

  it("409 INSUFFICIENT_REP writes nothing, and the refused key may be used once the Rep is there", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 99);
    const reward = await makeReward({ costRep: 100, stock: 5 });
    const idempotencyKey = key();
    const res = await redeem(auth, { rewardId: reward.id, idempotencyKey });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: { code: "INSUFFICIENT_REP", message: "This reward costs 100 Rep; your balance is 99." } });
    await expectNothingWritten(userId, 99, reward.id, 5);
    await giveRep(userId, 1);
    const later = await redeem(auth, { rewardId: reward.id, idempotencyKey });
    expect(later.status).toBe(200);
    expect(later.body.data).toMatchObject({ balance: 0, stock: 4, replayed: false });
  });

  it("409 OUT_OF_STOCK, REWARD_LIMIT_REACHED and REWARD_NOT_REDEEMABLE write nothing", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 1000);
    const soldOut = await makeReward({ costRep: 10, stock: 0 });
    let res = await redeem(auth, { rewardId: soldOut.id, idempotencyKey: key() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: { code: "OUT_OF_STOCK", message: "This reward is out of stock." } });

    res = await redeem(auth, { rewardId: "rw_first_100_rep", idempotencyKey: key() });
    expect(res.status).toBe(409);
    expect(errorOf(res)).toEqual({
      code: "REWARD_NOT_REDEEMABLE",
      message: "This is a milestone reward: claim it free with POST /api/rewards/claim once you reach the milestone.",
    });
    await expectNothingWritten(userId, 1000, soldOut.id, 0);

    const limited = await makeReward({ costRep: 10, perUserLimit: 2 });
    expect((await redeem(auth, { rewardId: limited.id, idempotencyKey: key() })).status).toBe(200);
    expect((await redeem(auth, { rewardId: limited.id, idempotencyKey: key() })).status).toBe(200);
    res = await redeem(auth, { rewardId: limited.id, idempotencyKey: key() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      error: { code: "REWARD_LIMIT_REACHED", message: "This reward can be redeemed at most 2 time(s) per account." },
    });
    expect(await balanceOf(userId)).toBe(980);
    expect(await debitsOf(userId)).toHaveLength(2);
  });

  it("404 for an unknown or inactive reward", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 1000);
    const inactive = await makeReward({ costRep: 10, active: false });
    for (const rewardId of ["rw_nope", inactive.id]) {
      const res = await redeem(auth, { rewardId, idempotencyKey: key() });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Reward not found." } });
    }
    await expectNothingWritten(userId, 1000);
  });

  it.each([
    ["no idempotencyKey", { rewardId: "rw_profile_badge" }, "body.idempotencyKey"],
    ["a short key", { rewardId: "rw_profile_badge", idempotencyKey: "short" }, "body.idempotencyKey"],
    ["a key with spaces", { rewardId: "rw_profile_badge", idempotencyKey: "has spaces here" }, "body.idempotencyKey"],
    ["no rewardId", { idempotencyKey: "k-12345678" }, "body.rewardId"],
    ["a numeric rewardId", { rewardId: 7, idempotencyKey: "k-12345678" }, "body.rewardId"],
    ["an unknown field", { rewardId: "rw_profile_badge", idempotencyKey: "k-12345678", qty: 2 }, "body.qty"],
  ])("400 VALIDATION_ERROR for %s", async (_, json, path) => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 100);
    const res = await redeem(auth, json);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    await expectNothingWritten(userId, 100);
  });

  it("401 without a session", async () => {
    const res = await redeem({}, { rewardId: "rw_profile_badge", idempotencyKey: key() });
    expect(res.status).toBe(401);
  });

  it("50 users redeeming the last item at once: exactly one gets it, the others 409 OUT_OF_STOCK and keep their Rep", async () => {
    const reward = await makeReward({ costRep: 30, stock: 1 });
    const users = await Promise.all(Array.from({ length: 50 }, () => signedUp()));
    for (const u of users) await giveRep(u.userId, 30);
    const results = await Promise.all(users.map((u) => redeem(u.auth, { rewardId: reward.id, idempotencyKey: key() })));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(errorOf(r).code).toBe("OUT_OF_STOCK");
    }
    expect(await stockOf(reward.id)).toBe(0);
    const claims = await db().rewardClaim.findMany({ where: { rewardId: reward.id } });
    expect(claims).toHaveLength(1);
    const balances = await db().user.findMany({ where: { id: { in: users.map((u) => u.userId) } }, select: { id: true, repBalance: true } });
    expect(balances.filter((b) => b.repBalance === 0n).map((b) => b.id)).toEqual([claims[0]!.userId]);
    expect(balances.filter((b) => b.repBalance === 30n)).toHaveLength(49);
    expect(await db().repEntry.count({ where: { userId: { in: users.map((u) => u.userId) }, earnKind: "reward_redemption" } })).toBe(1);
  });

  it("five redemptions at once with Rep for one: exactly one succeeds, the balance never goes negative, one debit", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 50);
    const reward = await makeReward({ costRep: 50 });
    const results = await Promise.all(Array.from({ length: 5 }, () => redeem(auth, { rewardId: reward.id, idempotencyKey: key() })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(4);
    for (const r of refused)
      expect(r.body).toEqual({ success: false, error: { code: "INSUFFICIENT_REP", message: "This reward costs 50 Rep; your balance is 0." } });
    expect(await balanceOf(userId)).toBe(0);
    const debits = await debitsOf(userId);
    expect(debits).toHaveLength(1);
    expect(debits[0]!.amount).toBe(-50n);
    expect(await db().rewardClaim.count({ where: { userId } })).toBe(1);
  });

  it("ten concurrent requests with one key redeem once; the rest replay it", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 1000);
    const reward = await makeReward({ costRep: 40, stock: 100 });
    const idempotencyKey = key();
    const results = await Promise.all(Array.from({ length: 10 }, () => redeem(auth, { rewardId: reward.id, idempotencyKey })));
    for (const r of results) expect(r.status).toBe(200);
    expect(new Set(results.map((r) => r.body.data.claim.id)).size).toBe(1);
    expect(results.filter((r) => r.body.data.replayed === false)).toHaveLength(1);
    expect(await balanceOf(userId)).toBe(960);
    expect(await stockOf(reward.id)).toBe(99);
    expect(await debitsOf(userId)).toHaveLength(1);
  });
});
