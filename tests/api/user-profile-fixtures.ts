import { expect } from "vitest";
import { api, newUser, userIdOf } from "../helpers";

// What the profile tests share (user-profile.test.ts, user-profile-patch.test.ts): a signed-in user whose row exists,
// and PATCH /api/user/profile.

export async function signedIn() {
  const u = newUser();
  const res = await api("GET", "/api/user", { headers: u.auth });
  expect(res.status).toBe(200);
  return { ...u, id: await userIdOf(u.sub) };
}

export const patch = (auth: Record<string, string>, json: unknown) => api("PATCH", "/api/user/profile", { headers: auth, json });
