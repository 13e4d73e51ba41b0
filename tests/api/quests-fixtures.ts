import { expect } from "vitest";
import { api, db, newUser, userIdOf } from "../helpers";

// What the quest engine's tests share (quests.test.ts, quests-check-in.test.ts): the route, today's UTC day, a
// signed-up fan of some teams and their Rep balance.

export const QUESTS = "/api/v1/engage/quests";

export const today = () => new Date().toISOString().slice(0, 10);
export const dayStart = (offset = 0) => new Date(Date.parse(`${today()}T00:00:00.000Z`) + offset * 86_400_000);

export async function signedUp() {
  const user = newUser();
  const res = await api("GET", QUESTS, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

export const follow = (userId: string, ...teamIds: string[]) => db().teamFollow.createMany({ data: teamIds.map((teamId) => ({ userId, teamId })) });
export const join = (userId: string, ...teamIds: string[]) => db().teamMember.createMany({ data: teamIds.map((teamId) => ({ userId, teamId })) });
export const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);

export async function fan(...teams: string[]) {
  const u = await signedUp();
  if (teams.length) await follow(u.userId, ...teams);
  return u;
}
