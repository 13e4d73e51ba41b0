import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { debit } from "../../lib/core/rep/grants";
import {
  balanceOf,
  CATALOG,
  claim,
  debitsOf,
  expectNothingWritten,
  giveRep,
  ISO,
  key,
  makeReward,
  rand,
  redeem,
  signedUp,
  stockOf,
  UUID,
} from "./rewards-fixtures";

// Rewards: GET /api/rewards, POST /api/rewards/claim, and claimedRewardsCount on GET /api/user. POST
// /api/rewards/redeem is in rewards-redeem.test.ts.

const catalogOf = async (auth: Record<string, string>) => {
  const res = await api("GET", CATALOG, { headers: auth });
  expect(res.status).toBe(200);
  return res.body.data as { rewards: any[]; me: { balance: number; repEarned: number; questsCompleted: number; streakDays: number } };
};
const find = (c: { rewards: any[] }, id: string) => c.rewards.find((r) => r.id === id);

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
