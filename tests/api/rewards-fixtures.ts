import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { api, db, newUser, userIdOf } from "../helpers";
import { award } from "../../lib/core/rep/grants";

// What the rewards tests share (rewards.test.ts, rewards-redeem.test.ts): the routes, a signed-up user given Rep,
// rewards of a test's own, and the balance, stock and debits as the database holds them.

export const CATALOG = "/api/rewards";
export const REDEEM = "/api/rewards/redeem";
export const CLAIM = "/api/rewards/claim";
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const key = () => `k-${randomUUID()}`;
export const rand = () => randomUUID().replace(/-/g, "").slice(0, 12);

/** A new user whose row exists (GET /api/rewards creates the user row just in time). */
export async function signedUp() {
  const user = newUser();
  const res = await api("GET", CATALOG, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

/** Credits Rep through the one real award path. */
export async function giveRep(userId: string, amount: number) {
  await db().$transaction((tx) =>
    award(tx, userId, { earnKind: "test_grant", amount, source: "club", reason: "Test grant", grantKey: `test:${randomUUID()}` }),
  );
}

export interface RewardOpts {
  costRep?: number;
  stock?: number | null;
  kind?: "redeem" | "milestone";
  milestone?: "rep_earned" | "quests_completed" | "streak_days" | null;
  milestoneValue?: number | null;
  perUserLimit?: number | null;
  active?: boolean;
}

/** A reward of this test only, so stock and limits are never shared with another test. */
export async function makeReward(o: RewardOpts = {}) {
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

export const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
export const stockOf = async (id: string) => (await db().reward.findUniqueOrThrow({ where: { id } })).stock;
export const debitsOf = (userId: string) => db().repEntry.findMany({ where: { userId, amount: { lt: 0 } } });
export const redeem = (auth: Record<string, string>, json: unknown) => api("POST", REDEEM, { headers: auth, json });
export const claim = (auth: Record<string, string>, json: unknown) => api("POST", CLAIM, { headers: auth, json });

/** Asserts a write was refused and left no trace. */
export async function expectNothingWritten(userId: string, balance: number, rewardId?: string, stock?: number | null) {
  expect(await balanceOf(userId)).toBe(balance);
  expect(await debitsOf(userId)).toHaveLength(0);
  expect(await db().rewardClaim.count({ where: { userId } })).toBe(0);
  if (rewardId !== undefined) expect(await stockOf(rewardId)).toBe(stock);
}
