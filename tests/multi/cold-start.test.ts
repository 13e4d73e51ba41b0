import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { awayFromWindowEdge } from "../rate-window";
import { api } from "../helpers";
import { startTestServer } from "../setup/test-server";

// A burst at a cold start: two `next start` processes fresh from start-up (no limiter call served yet) over one
// Redis, the production default RATE_LIMIT_TIMEOUT_MS (200 ms, not the 5 s of this tier's shared pair) and a
// 20-a-minute `write` budget. 40 concurrent writes by one user, half on each instance, in their first second:
// the limiter must count every one (connected and its script loaded at start-up), not fail open while it connects.
// Its own pair of servers (the tier's pair has served requests by now), on its own unseeded database.

const BUDGET = 20;
const FAILING_OPEN = /rate limiter (timed out|unavailable); failing open/;

let servers: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  servers = await startTestServer({
    dbPrefix: "fan_cold",
    seed: false,
    instances: 2,
    fixtures: ["clerk"],
    label: "cold-start servers",
    reportLine: (l) => l.includes('"unhandled error"'),
    // With Redis up, no request may be let through unlimited.
    failLine: (l) => FAILING_OPEN.test(l),
    env: ({ run }) => ({
      DB_POOL_SIZE: "4",
      RATE_LIMIT_PREFIX: `cold:${run}`,
      LEADERBOARD_PREFIX: `lb:cold:${run}`,
      RATE_LIMIT_OVERRIDES: JSON.stringify({ write: { tokens: BUDGET, window: "60 s" } }),
      RATE_LIMIT_TIMEOUT_MS: "200",
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
    }),
  });
});

afterAll(async () => {
  await servers?.stop(); // throws when either instance logged that it failed open
});

describe("rate limits at a cold start", () => {
  it("two fresh instances let exactly the budget through a burst at their first second", async () => {
    const window = await awayFromWindowEdge(60_000, 5_000);
    const sub = `user_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    const headers = { authorization: `Bearer ${signSessionToken(servers.privateKey, sub)}` };
    const results = await Promise.all(
      Array.from({ length: 2 * BUDGET }, (_, i) => api("POST", "/api/v1/binders", { base: servers.baseUrls[i % 2], headers, json: { name: `cold ${i}` } })),
    );
    expect(Math.floor(Date.now() / 60_000), "the burst crossed a rate-limit window boundary").toBe(window);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s !== 429).length, `statuses: ${statuses.join(",")}`).toBe(BUDGET);
    expect(statuses.filter((s) => s === 201).length).toBe(BUDGET);
    // Every passing answer was counted: RateLimit-Remaining 19…0, each handed out once across both instances.
    const remaining = results.filter((r) => r.status === 201).map((r) => Number(r.headers.get("ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: BUDGET }, (_, i) => i));
  });
});
