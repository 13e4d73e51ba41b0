import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { api, db, newUser, userIdOf } from "../helpers";

// What the Rep tests share (rep.test.ts, rep-awards.test.ts, rep-ledger.test.ts): the routes, a signed-up user, a
// profile the server sees as complete, and the balance and ledger rows as the database holds them.

export const EARN = "/api/v1/engage/rep/earn";
export const LEDGER = "/api/v1/engage/rep/ledger";
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const key = () => `k-${randomUUID()}`;

export async function signedUp() {
  const user = newUser();
  const res = await api("GET", LEDGER, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

/** What profile_completed needs on the server: handle, display name and avatar. */
export async function completeProfile(userId: string) {
  await db().user.update({
    where: { id: userId },
    data: {
      handle: `fan_${userId.slice(-12).replace(/-/g, "")}`,
      handleKey: `fan_${userId.slice(-12).replace(/-/g, "")}`,
      displayName: "Pat Fan",
      avatarUrl: "https://img.example.com/a.png",
    },
  });
}

export const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
export const rowsOf = (userId: string) => db().repEntry.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
export const earn = (auth: Record<string, string>, json: unknown) => api("POST", EARN, { headers: auth, json });

/** Asserts a write was refused and left no trace. */
export async function expectNothingWritten(userId: string, balance = 0, rows = 0) {
  expect(await balanceOf(userId)).toBe(balance);
  expect(await db().repEntry.count({ where: { userId } })).toBe(rows);
}
