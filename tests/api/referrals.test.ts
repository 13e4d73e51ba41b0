import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { MONTHLY_CAP, REFEREE_REP, REFERRER_REP } from "../../lib/features/referrals/rules";

// Referrals: GET /api/invites/me/referrals, the qualification hook (onboarding complete + a first quest completed,
// settled once after the qualifying write), the referrer's monthly cap, the claw-back at account erasure.

const REFERRALS = "/api/invites/me/referrals";
type Auth = Record<string, string>;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const erasure = () => api("GET", "/api/cron/account-erasure", { headers: { authorization: `Bearer ${cronSecret()}` } });
const onboard = (auth: Auth) => api("POST", "/api/user/onboarding", { headers: auth, json: {} });
const dailyVisit = (auth: Auth) => api("POST", "/api/quests/daily-visit", { headers: auth });

async function signedUp() {
  const user = newUser();
  expect((await api("GET", "/api/invites/me", { headers: user.auth })).status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}
type Fan = Awaited<ReturnType<typeof signedUp>>;

/** A referrer with an invite code. */
async function referrer() {
  const fan = await signedUp();
  const res = await api("POST", "/api/invites/me", { headers: fan.auth });
  expect(res.status).toBe(200);
  return { ...fan, code: res.body.data.code as string };
}

/** A fan who joined with the referrer's code (through the API), `daysAgo` moved back by the database when asked. */
async function referee(r: { code: string }, daysAgo = 0) {
  const fan = await signedUp();
  expect((await api("POST", `/api/invites/${r.code}/redeem`, { headers: fan.auth })).status).toBe(200);
  if (daysAgo)
    await db().$executeRaw`UPDATE invite_redemptions SET created_at = now() - make_interval(days => ${daysAgo}) WHERE invitee_id = ${fan.userId}::uuid`;
  return fan;
}

/** Arranged straight in the database: a completed quest (the seed's daily check-in), without going through the hook. */
async function questDone(userId: string) {
  await db().$executeRaw`
    INSERT INTO quest_progress (user_id, quest_id, period_key, started_at, completed_at, rep_awarded)
    VALUES (${userId}::uuid, 'q_daily_checkin', '2000-01-01', now(), now(), 0)`;
}

const grants = (userId: string, grantKey: string) => db().repEntry.findMany({ where: { userId, grantKey } });
const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
const list = (f: Fan, query = "") => api("GET", `${REFERRALS}${query}`, { headers: f.auth });

describe("GET /api/invites/me/referrals", () => {
  it("lists referees newest first with their state, keyset paged, with totals and the cap", async () => {
    const r = await referrer();
    const empty = await list(r);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({
      referrals: [],
      totals: { total: 0, joined: 0, qualified: 0, rewarded: 0, clawedBack: 0, expired: 0, repEarned: 0 },
      cap: { limit: MONTHLY_CAP, used: 0, remaining: MONTHLY_CAP, month: new Date().toISOString().slice(0, 7) },
    });
    const a = await referee(r, 40); // joined 40 days ago, never qualified: expired
    const b = await referee(r);
    const c = await referee(r);
    const first = await list(r, "?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.data.referrals.map((x: { referee: { id: string } }) => x.referee.id)).toEqual([c.userId, b.userId]);
    expect(first.body.data.referrals[0]).toMatchObject({ state: "joined", qualifiedAt: null, referrerRep: 0, clawedBackAt: null });
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const second = await list(r, `?limit=2&cursor=${encodeURIComponent(first.body.data.nextCursor)}`);
    expect(second.body.data.referrals.map((x: { referee: { id: string } }) => x.referee.id)).toEqual([a.userId]);
    expect(second.body.data.referrals[0].state).toBe("expired");
    expect(second.body.data.nextCursor).toBeUndefined();
    expect(second.body.data.totals).toMatchObject({ total: 3, joined: 2, expired: 1 });

    // Someone else's referrals are never listed; bad paging is a 400.
    expect((await list(await referrer())).body.data.referrals).toEqual([]);
    expect(errorOf(await list(r, "?cursor=nonsense")).code).toBe("VALIDATION_ERROR");
    expect((await list(r, "?limit=0")).status).toBe(400);
    expect((await api("GET", REFERRALS)).status).toBe(401);
  });
});

describe("qualifying", () => {
  it("rewards both sides once when onboarding and a first quest are done, under concurrent qualifying actions", async () => {
    const r = await referrer();
    const f = await referee(r);
    // Onboarding alone does not qualify.
    expect((await onboard(f.auth)).status).toBe(200);
    expect((await list(r)).body.data.referrals[0].state).toBe("joined");
    const before = await balanceOf(r.userId);

    // The first quest completes through the real quest path while onboarding repeats, all at once.
    const results = await Promise.all([...Array.from({ length: 6 }, () => dailyVisit(f.auth)), ...Array.from({ length: 6 }, () => onboard(f.auth))]);
    expect(results.map((x) => x.status)).toEqual(Array(12).fill(200));

    expect(await grants(f.userId, "referral:referee")).toHaveLength(1);
    expect((await grants(f.userId, "referral:referee"))[0]).toMatchObject({ amount: BigInt(REFEREE_REP), earnKind: "referral_referee" });
    expect(await grants(r.userId, `referral:${f.userId}`)).toHaveLength(1);
    expect(await balanceOf(r.userId)).toBe(before + REFERRER_REP);
    expect(await db().referralReward.count({ where: { refereeId: f.userId } })).toBe(1);

    const after = await list(r);
    expect(after.body.data.referrals[0]).toMatchObject({ state: "rewarded", referrerRep: REFERRER_REP, qualifiedAt: expect.any(String) });
    expect(after.body.data.totals).toMatchObject({ total: 1, rewarded: 1, repEarned: REFERRER_REP });
    expect(after.body.data.cap).toMatchObject({ used: 1, remaining: MONTHLY_CAP - 1 });

    // More qualifying actions later change nothing.
    await onboard(f.auth);
    expect(await grants(r.userId, `referral:${f.userId}`)).toHaveLength(1);
    expect(await grants(f.userId, "referral:referee")).toHaveLength(1);
  });

  it("holds the referrer's monthly cap under concurrency; past it the referee still gets theirs", async () => {
    const r = await referrer();
    const fans: Fan[] = [];
    for (let i = 0; i < MONTHLY_CAP + 3; i++) {
      const f = await referee(r);
      await questDone(f.userId);
      fans.push(f);
    }
    const before = await balanceOf(r.userId);
    const results = await Promise.all(fans.flatMap((f) => [onboard(f.auth), onboard(f.auth)]));
    expect(results.every((x) => x.status === 200)).toBe(true);

    const rows = await db().referralReward.findMany({ where: { referrerId: r.userId } });
    expect(rows).toHaveLength(MONTHLY_CAP + 3);
    expect(rows.filter((x) => x.state === "rewarded")).toHaveLength(MONTHLY_CAP);
    expect(rows.filter((x) => x.state === "qualified")).toHaveLength(3);
    expect(await db().repEntry.count({ where: { userId: r.userId, earnKind: "referral_referrer" } })).toBe(MONTHLY_CAP);
    expect(await balanceOf(r.userId)).toBe(before + MONTHLY_CAP * REFERRER_REP);
    for (const f of fans) expect(await grants(f.userId, "referral:referee")).toHaveLength(1);

    const view = (await list(r, "?limit=50")).body.data;
    expect(view.totals).toMatchObject({ total: MONTHLY_CAP + 3, rewarded: MONTHLY_CAP, qualified: 3, repEarned: MONTHLY_CAP * REFERRER_REP });
    expect(view.cap).toMatchObject({ used: MONTHLY_CAP, remaining: 0 });
    expect(view.referrals.filter((x: { state: string; referrerRep: number }) => x.state === "qualified" && x.referrerRep === 0)).toHaveLength(3);
  });

  it("does not reward a referee who qualifies after the 30-day window", async () => {
    const r = await referrer();
    const f = await referee(r, 31);
    await questDone(f.userId);
    expect((await onboard(f.auth)).status).toBe(200);
    expect(await grants(f.userId, "referral:referee")).toHaveLength(0);
    expect(await grants(r.userId, `referral:${f.userId}`)).toHaveLength(0);
    expect((await list(r)).body.data.referrals[0].state).toBe("expired");
  });
});

describe("claw-back at account erasure", () => {
  /** A rewarded referral of a fresh referrer. */
  async function rewarded() {
    const r = await referrer();
    const f = await referee(r);
    await questDone(f.userId);
    expect((await onboard(f.auth)).status).toBe(200);
    expect((await list(r)).body.data.referrals[0].state).toBe("rewarded");
    return { r, f };
  }
  async function deleteAccount(f: Fan) {
    expect((await api("POST", "/api/v1/me/deletion", { headers: f.auth, json: { confirm: true } })).status).toBe(202);
    await db().$executeRaw`
      UPDATE account_deletions SET requested_at = now() - interval '1 minute', due_at = now() - interval '1 second', not_before = now() - interval '1 second'
      WHERE user_id = ${f.userId}::uuid`;
    for (let i = 0; i < 5 && (await db().accountDeletion.findUnique({ where: { userId: f.userId } }))?.state !== "erased"; i++) {
      expect((await erasure()).status).toBe(200);
    }
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: f.userId } })).state).toBe("erased");
  }

  it("reverses the referrer's reward once with a compensating entry when the referee is deleted within 30 days", async () => {
    const { r, f } = await rewarded();
    const credit = (await grants(r.userId, `referral:${f.userId}`))[0]!;
    // The referee's shipping address and its copy on a physical claim go with the account.
    const address = { name: "Ada Fan", line1: "1 Harbour Road", city: "Leeds", postalCode: "LS1 4AB", country: "GB" };
    expect((await api("PUT", "/api/v1/me/shipping-address", { headers: f.auth, json: address })).status).toBe(200);
    const rewardId = `rw_ref_${f.userId.slice(-12)}`;
    await db().reward.create({ data: { id: rewardId, slug: rewardId.replace(/_/g, "-"), title: "Scarf", costRep: 0, fulfilment: "physical" } });
    const redeemed = await api("POST", "/api/rewards/redeem", { headers: f.auth, json: { rewardId, idempotencyKey: `k-${rewardId}` } });
    expect(redeemed.body.data.claim.fulfilment.shippingAddress).toMatchObject({ line1: "1 Harbour Road" });
    const before = await balanceOf(r.userId);
    await deleteAccount(f);
    await erasure();
    expect(await db().shippingAddress.count({ where: { userId: f.userId } })).toBe(0);
    expect((await db().rewardClaim.findUniqueOrThrow({ where: { id: redeemed.body.data.claim.id } })).shippingAddress).toBeNull();

    const reversal = await grants(r.userId, `reversal:${credit.id}`);
    expect(reversal).toHaveLength(1);
    expect(reversal[0]).toMatchObject({ amount: BigInt(-REFERRER_REP), earnKind: "reversal", targetId: credit.id });
    // The original credit is untouched.
    expect(await db().repEntry.findUniqueOrThrow({ where: { id: credit.id } })).toEqual(credit);
    expect(await balanceOf(r.userId)).toBe(before - REFERRER_REP);
    const view = (await list(r)).body.data;
    expect(view.referrals[0]).toMatchObject({ state: "clawed_back", clawedBackRep: REFERRER_REP, clawedBackAt: expect.any(String) });
    expect(view.totals).toMatchObject({ clawedBack: 1, repEarned: 0 });
  });

  it("keeps the reward when the referee is deleted more than 30 days after joining", async () => {
    const { r, f } = await rewarded();
    await db().$executeRaw`UPDATE invite_redemptions SET created_at = now() - interval '40 days' WHERE invitee_id = ${f.userId}::uuid`;
    const before = await balanceOf(r.userId);
    await deleteAccount(f);
    const credit = (await grants(r.userId, `referral:${f.userId}`))[0]!;
    expect(await grants(r.userId, `reversal:${credit.id}`)).toHaveLength(0);
    expect(await balanceOf(r.userId)).toBe(before);
    expect((await list(r)).body.data.referrals[0].state).toBe("rewarded");
  });
});

describe("GET /api/cron/referrals-settle (the sweep)", () => {
  const sweep = (authorization = `Bearer ${cronSecret()}`) => api("GET", "/api/cron/referrals-settle", { headers: { authorization } });
  /** Qualified straight in the database: onboarding and a quest, neither through a request, so the hook never ran. */
  const qualifiedUnseen = async (f: Fan) => {
    await db().$executeRaw`UPDATE users SET onboarded_at = now() WHERE id = ${f.userId}::uuid`;
    await questDone(f.userId);
  };

  it("settles a referral whose qualifying writes the hook did not see, and only once", async () => {
    const r = await referrer();
    const f = await referee(r);
    await qualifiedUnseen(f);
    expect((await list(r)).body.data.referrals[0].state).toBe("joined");
    const before = await balanceOf(r.userId);

    const res = await sweep();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ checked: expect.any(Number), settled: expect.any(Number), failed: 0 });
    expect(res.body.data.settled).toBeGreaterThanOrEqual(1);
    expect(await grants(f.userId, "referral:referee")).toHaveLength(1);
    expect(await grants(r.userId, `referral:${f.userId}`)).toHaveLength(1);
    expect(await balanceOf(r.userId)).toBe(before + REFERRER_REP);
    expect((await list(r)).body.data.referrals[0]).toMatchObject({ state: "rewarded", referrerRep: REFERRER_REP });

    // Settled: later sweeps and qualifying writes grant nothing more.
    expect((await sweep()).status).toBe(200);
    expect((await onboard(f.auth)).status).toBe(200);
    expect(await grants(f.userId, "referral:referee")).toHaveLength(1);
    expect(await grants(r.userId, `referral:${f.userId}`)).toHaveLength(1);
  });

  it("settles once when sweeps race each other and the referee's own qualifying call", async () => {
    const r = await referrer();
    const fans = [await referee(r), await referee(r), await referee(r)];
    for (const f of fans) await qualifiedUnseen(f);
    const before = await balanceOf(r.userId);
    const results = await Promise.all([sweep(), sweep(), ...fans.map((f) => onboard(f.auth)), sweep()]);
    expect(results.map((x) => x.status)).toEqual(Array(6).fill(200));
    for (const f of fans) {
      expect(await grants(f.userId, "referral:referee")).toHaveLength(1);
      expect(await grants(r.userId, `referral:${f.userId}`)).toHaveLength(1);
    }
    expect(await balanceOf(r.userId)).toBe(before + 3 * REFERRER_REP);
    expect(await db().referralReward.count({ where: { referrerId: r.userId } })).toBe(3);
  });

  it("leaves alone referees who have not qualified or whose window passed", async () => {
    const r = await referrer();
    const questOnly = await referee(r);
    await questDone(questOnly.userId);
    const late = await referee(r, 31);
    await qualifiedUnseen(late);
    expect((await sweep()).status).toBe(200);
    for (const f of [questOnly, late]) expect(await grants(f.userId, "referral:referee")).toHaveLength(0);
    expect(await grants(r.userId, `referral:${late.userId}`)).toHaveLength(0);
    const states = (await list(r)).body.data.referrals.map((x: { state: string }) => x.state);
    expect(states).toEqual(["joined", "expired"]);
  });

  it("answers 401 without the cron secret and settles nothing", async () => {
    const r = await referrer();
    const f = await referee(r);
    await qualifiedUnseen(f);
    const res = await sweep("Bearer wrong");
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
    expect(await grants(f.userId, "referral:referee")).toHaveLength(0);
  });
});
