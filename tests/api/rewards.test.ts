import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { award, debit } from "../../lib/core/rep/grants";

// Rewards: GET /api/rewards, POST /api/rewards/redeem, POST /api/rewards/claim (and claimedRewardsCount on GET /api/user).

const CATALOG = "/api/rewards";
const REDEEM = "/api/rewards/redeem";
const CLAIM = "/api/rewards/claim";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const key = () => `k-${randomUUID()}`;
const rand = () => randomUUID().replace(/-/g, "").slice(0, 12);

/** A new user whose row exists (GET /api/rewards creates the user row just in time). */
async function signedUp() {
  const user = newUser();
  const res = await api("GET", CATALOG, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

/** Credits Rep through the one real award path. */
async function giveRep(userId: string, amount: number) {
  await db().$transaction((tx) =>
    award(tx, userId, { earnKind: "test_grant", amount, source: "club", reason: "Test grant", grantKey: `test:${randomUUID()}` }),
  );
}

interface RewardOpts {
  costRep?: number;
  stock?: number | null;
  kind?: "redeem" | "milestone";
  milestone?: "rep_earned" | "quests_completed" | "streak_days" | null;
  milestoneValue?: number | null;
  perUserLimit?: number | null;
  active?: boolean;
}

/** A reward of this test only, so stock and limits are never shared with another test. */
async function makeReward(o: RewardOpts = {}) {
  const id = `rw_t_${rand()}`;
  return db().reward.create({
    data: {
      id,
      slug: id.replace(/_/g, "-"),
      title: `Test reward ${id}`,
      description: null,
      costRep: o.costRep ?? 100,
      stock: o.stock === undefined ? null : o.stock,
      kind: o.kind ?? "redeem",
      milestone: o.milestone ?? null,
      milestoneValue: o.milestoneValue ?? null,
      perUserLimit: o.perUserLimit ?? null,
      active: o.active ?? true,
    },
  });
}

const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
const stockOf = async (id: string) => (await db().reward.findUniqueOrThrow({ where: { id } })).stock;
const debitsOf = (userId: string) => db().repEntry.findMany({ where: { userId, amount: { lt: 0 } } });
const redeem = (auth: Record<string, string>, json: unknown) => api("POST", REDEEM, { headers: auth, json });
const claim = (auth: Record<string, string>, json: unknown) => api("POST", CLAIM, { headers: auth, json });
const catalogOf = async (auth: Record<string, string>) => {
  const res = await api("GET", CATALOG, { headers: auth });
  expect(res.status).toBe(200);
  return res.body.data as { rewards: any[]; me: { balance: number; repEarned: number; questsCompleted: number; streakDays: number } };
};
const find = (c: { rewards: any[] }, id: string) => c.rewards.find((r) => r.id === id);

/** Asserts a write was refused and left no trace. */
async function expectNothingWritten(userId: string, balance: number, rewardId?: string, stock?: number | null) {
  expect(await balanceOf(userId)).toBe(balance);
  expect(await debitsOf(userId)).toHaveLength(0);
  expect(await db().rewardClaim.count({ where: { userId } })).toBe(0);
  if (rewardId !== undefined) expect(await stockOf(rewardId)).toBe(stock);
}

describe("GET /api/rewards", () => {
  it("401 without a session", async () => {
    const res = await api("GET", CATALOG);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });

  it("lists active rewards only, redeem first then milestone, with eligibility for a new fan", async () => {
    const inactive = await makeReward({ active: false });
    const { auth } = await signedUp();
    const c = await catalogOf(auth);
    expect(c.me).toEqual({ balance: 0, repEarned: 0, questsCompleted: 0, streakDays: 0 });
    expect(find(c, inactive.id)).toBeUndefined();
    const kinds = c.rewards.map((r) => r.kind);
    expect(kinds.indexOf("milestone")).toBeGreaterThan(kinds.lastIndexOf("redeem"));

    expect(find(c, "rw_profile_badge")).toEqual({
      id: "rw_profile_badge",
      slug: "profile-badge",
      title: "Founding fan badge",
      description: "A profile badge for early supporters.",
      kind: "redeem",
      fulfilment: "none",
      costRep: 50,
      stock: null,
      perUserLimit: 1,
      claimedCount: 0,
      canRedeem: false,
      canClaim: false,
      reason: "insufficient_rep",
      milestone: null,
    });
    expect(find(c, "rw_vip_meetup")).toMatchObject({ stock: 0, canRedeem: false, reason: "out_of_stock" });
    expect(find(c, "rw_first_100_rep")).toMatchObject({
      kind: "milestone",
      costRep: 0,
      canRedeem: false,
      canClaim: false,
      reason: "milestone_not_reached",
      milestone: { metric: "rep_earned", target: 100, progress: 0, reached: false, claimed: false },
    });
    expect(find(c, "rw_streak_7")).toMatchObject({ milestone: { metric: "streak_days", target: 7, progress: 0, reached: false, claimed: false } });
  });

  it("eligibility follows the caller's balance, redemptions, limits and milestone progress", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 120);
    let c = await catalogOf(auth);
    expect(c.me).toMatchObject({ balance: 120, repEarned: 120 });
    expect(find(c, "rw_profile_badge")).toMatchObject({ canRedeem: true, reason: null, claimedCount: 0 });
    expect(find(c, "rw_team_sticker_pack")).toMatchObject({ canRedeem: false, reason: "insufficient_rep" });
    expect(find(c, "rw_first_100_rep")).toMatchObject({ canClaim: true, reason: null, milestone: { progress: 120, reached: true, claimed: false } });

    expect((await redeem(auth, { rewardId: "rw_profile_badge", idempotencyKey: key() })).status).toBe(200);
    expect((await claim(auth, { rewardId: "rw_first_100_rep" })).status).toBe(200);
    c = await catalogOf(auth);
    // Spending lowers the balance, never the Rep earned.
    expect(c.me).toMatchObject({ balance: 70, repEarned: 120 });
    expect(find(c, "rw_profile_badge")).toMatchObject({ canRedeem: false, reason: "limit_reached", claimedCount: 1 });
    expect(find(c, "rw_first_100_rep")).toMatchObject({ canClaim: false, reason: "already_claimed", claimedCount: 1, milestone: { claimed: true } });
  });

  it("Rep earned counts credits net of staff reversals, never spending", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 100);
    await giveRep(userId, 30);
    const [credit] = await db().repEntry.findMany({ where: { userId, amount: 100 } });
    await db().$transaction((tx) =>
      debit(tx, userId, {
        earnKind: "reversal",
        amount: 100,
        source: "club",
        reason: "Reversed: test",
        grantKey: `reversal:${credit!.id}`,
        targetId: credit!.id,
      }),
    );
    await db().$transaction((tx) =>
      debit(tx, userId, { earnKind: "reward_redemption", amount: 10, source: "serviceDirect", reason: "Spent", grantKey: `spend:${rand()}` }),
    );
    const c = await catalogOf(auth);
    expect(c.me).toMatchObject({ balance: 20, repEarned: 30 });
    expect(find(c, "rw_first_100_rep")).toMatchObject({ canClaim: false, reason: "milestone_not_reached", milestone: { progress: 30, reached: false } });
    const res = await claim(auth, { rewardId: "rw_first_100_rep" });
    expect(errorOf(res)).toEqual({ code: "MILESTONE_NOT_REACHED", message: "This reward unlocks at 100 (rep_earned); you are at 30." });
  });

  it("quests completed and the streak count toward their milestones", async () => {
    const { auth, userId } = await signedUp();
    const quests = await makeReward({ kind: "milestone", costRep: 0, milestone: "quests_completed", milestoneValue: 2 });
    await db().questProgress.createMany({
      data: [
        { userId, questId: "q_follow_three", periodKey: "once", completedAt: new Date() },
        { userId, questId: "q_complete_profile", periodKey: "once", completedAt: null },
      ],
    });
    let c = await catalogOf(auth);
    expect(c.me.questsCompleted).toBe(1);
    expect(find(c, quests.id)).toMatchObject({ canClaim: false, reason: "milestone_not_reached", milestone: { progress: 1, target: 2, reached: false } });
    await db().questProgress.create({ data: { userId, questId: "q_daily_checkin", periodKey: "2026-11-01", completedAt: new Date() } });
    await db().userStreak.create({ data: { userId, current: 2, longest: 7, lastDay: new Date("2026-11-01") } });
    c = await catalogOf(auth);
    expect(c.me).toMatchObject({ questsCompleted: 2, streakDays: 7 });
    expect(find(c, quests.id)).toMatchObject({ canClaim: true, reason: null, milestone: { progress: 2, reached: true } });
    expect(find(c, "rw_streak_7")).toMatchObject({ canClaim: true, milestone: { progress: 7, reached: true } });
  });
});

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

describe("POST /api/rewards/claim", () => {
  it("claims an unlocked milestone free and once; before the milestone it is 409 MILESTONE_NOT_REACHED", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 99);
    let res = await claim(auth, { rewardId: "rw_first_100_rep" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: { code: "MILESTONE_NOT_REACHED", message: "This reward unlocks at 100 (rep_earned); you are at 99." } });
    expect(await db().rewardClaim.count({ where: { userId } })).toBe(0);

    await giveRep(userId, 1);
    res = await claim(auth, { rewardId: "rw_first_100_rep" });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      claim: {
        id: expect.stringMatching(UUID),
        rewardId: "rw_first_100_rep",
        rewardTitle: "First 100 Rep",
        kind: "milestone",
        costRep: 0,
        repEntryId: null,
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
      stock: null,
    });
    // Free: no debit, the balance is untouched.
    expect(await balanceOf(userId)).toBe(100);
    expect(await debitsOf(userId)).toHaveLength(0);
    expect(await db().rewardClaim.findFirstOrThrow({ where: { userId } })).toMatchObject({
      claimKey: "rw_first_100_rep",
      kind: "milestone",
      idempotencyKey: null,
    });

    res = await claim(auth, { rewardId: "rw_first_100_rep" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      error: { code: "ALREADY_CLAIMED", message: "You already claimed this reward; milestone rewards are claimed once." },
    });
    expect(await db().rewardClaim.count({ where: { userId } })).toBe(1);
  });

  it("spending Rep does not undo a rep_earned milestone", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 100);
    expect((await redeem(auth, { rewardId: "rw_profile_badge", idempotencyKey: key() })).status).toBe(200);
    expect(await balanceOf(userId)).toBe(50);
    expect((await claim(auth, { rewardId: "rw_first_100_rep" })).status).toBe(200);
  });

  it("a redeem reward is 409 REWARD_NOT_CLAIMABLE; unknown and inactive are 404", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 1000);
    let res = await claim(auth, { rewardId: "rw_profile_badge" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      error: { code: "REWARD_NOT_CLAIMABLE", message: "This reward is bought with Rep: redeem it with POST /api/rewards/redeem." },
    });
    const inactive = await makeReward({ kind: "milestone", costRep: 0, milestone: "rep_earned", milestoneValue: 1, active: false });
    for (const rewardId of ["rw_nope", inactive.id]) {
      res = await claim(auth, { rewardId });
      expect(res.status).toBe(404);
      expect(errorOf(res)).toEqual({ code: "NOT_FOUND", message: "Reward not found." });
    }
    res = await claim(auth, { rewardId: "rw_first_100_rep", extra: true });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    await expectNothingWritten(userId, 1000);
  });

  it("ten concurrent claims of one milestone: one succeeds, the others 409 ALREADY_CLAIMED", async () => {
    const { auth, userId } = await signedUp();
    await giveRep(userId, 150);
    const results = await Promise.all(Array.from({ length: 10 }, () => claim(auth, { rewardId: "rw_first_100_rep" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(errorOf(r).code).toBe("ALREADY_CLAIMED");
    expect(await db().rewardClaim.count({ where: { userId } })).toBe(1);
  });

  it("stock applies to milestone rewards: the last item goes to one of many concurrent claimers", async () => {
    const reward = await makeReward({ kind: "milestone", costRep: 0, milestone: "rep_earned", milestoneValue: 10, stock: 1 });
    const users = await Promise.all(Array.from({ length: 10 }, () => signedUp()));
    for (const u of users) await giveRep(u.userId, 10);
    const results = await Promise.all(users.map((u) => claim(u.auth, { rewardId: reward.id })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(errorOf(r).code).toBe("OUT_OF_STOCK");
    expect(await stockOf(reward.id)).toBe(0);
    expect(await db().rewardClaim.count({ where: { rewardId: reward.id } })).toBe(1);
  });
});

describe("claimedRewardsCount on GET /api/user", () => {
  it("counts redemptions and milestone claims; refusals and replays add nothing", async () => {
    const { auth, userId } = await signedUp();
    const countOf = async () => (await api("GET", "/api/user", { headers: auth })).body.data.claimedRewardsCount;
    expect(await countOf()).toBe(0);
    await giveRep(userId, 200);
    const idempotencyKey = key();
    expect((await redeem(auth, { rewardId: "rw_profile_badge", idempotencyKey })).status).toBe(200);
    expect(await countOf()).toBe(1);
    expect((await redeem(auth, { rewardId: "rw_profile_badge", idempotencyKey })).body.data.replayed).toBe(true);
    expect((await redeem(auth, { rewardId: "rw_profile_badge", idempotencyKey: key() })).status).toBe(409);
    expect(await countOf()).toBe(1);
    expect((await claim(auth, { rewardId: "rw_first_100_rep" })).status).toBe(200);
    expect(await countOf()).toBe(2);
  });
});
