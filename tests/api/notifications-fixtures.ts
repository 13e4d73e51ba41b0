import { expect, inject } from "vitest";
import { api, newUser, userIdOf } from "../helpers";

// What the notifications tests share (notifications.test.ts, notifications-producers.test.ts): the inbox's routes, a
// signed-up user, and the producer crons.

export const LIST = "/api/notifications";
export const COUNT = "/api/notifications/unread-count";
export const HOUR = 3_600_000;
export const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
export const cron = (name: string, authorization: string | null = `Bearer ${cronSecret()}`) =>
  api("GET", `/api/cron/notifications-${name}`, { headers: authorization === null ? {} : { authorization } });

export async function signedUp() {
  const user = newUser();
  expect((await api("GET", COUNT, { headers: user.auth })).status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}
