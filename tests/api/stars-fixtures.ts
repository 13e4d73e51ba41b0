import { expect } from "vitest";
import { api, db, newUser, userIdOf } from "../helpers";

// What the starred-teams tests share (stars.test.ts, stars-merge.test.ts): the routes, a signed-up user, the star
// count in the database and the seeded team they star.

export const LIST = "/api/me/starred-teams";
export const one = (teamId: string) => `/api/me/starred-teams/${encodeURIComponent(teamId)}`;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A new user whose row already exists (the first authenticated request creates it). */
export async function signedUp() {
  const user = newUser();
  const res = await api("GET", LIST, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

export const starCount = (userId: string) => db().starredTeam.count({ where: { userId } });

export async function hawks() {
  const t = await db().team.findUniqueOrThrow({ where: { id: "tm_hch" } });
  expect(t).toMatchObject({ slug: "harbor-city-hawks", name: "Harbor City Hawks", source: "provider", providerId: "prov_101" });
  return t;
}
