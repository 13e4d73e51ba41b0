import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { alternately, baseUrls, concurrently, errorOf, on, PUBLIC_LIMIT } from "./helpers";
import { awayFromWindowEdge } from "../rate-window";

// Rate limits live in Redis, not in the instance: a budget spent on one instance is spent on the other.
// The tier's `public` policy is PUBLIC_LIMIT (6 / 60 s per client address, tests/multi/setup.ts), keyed by the last
// X-Forwarded-For entry (TRUSTED_PROXY_HOPS=1), so every test names an address of its own.

const { tokens, windowMs } = PUBLIC_LIMIT;
const CHECK = () => `/api/user/check-username?username=multi_${randomBytes(6).toString("hex")}`;
let ipSeq = 0;
const freshIp = () => `10.${(process.pid % 200) + 1}.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

describe("a rate limit across instances", () => {
  it("requests alternating between instances count down one budget, and the 429 arrives on schedule on both", async () => {
    const window = await awayFromWindowEdge(windowMs);
    const ip = freshIp();
    const results = await alternately(tokens + 2, () => ({ method: "GET", path: CHECK(), headers: { "x-forwarded-for": ip } }));
    expect(Math.floor(Date.now() / windowMs), "the sequence crossed a rate-limit window boundary").toBe(window);

    // A, B, A, B, …: each answer's RateLimit-Remaining counts every earlier request, whichever instance served it.
    expect(new Set(results.map((r) => r.instance)).size).toBe(baseUrls.length);
    results.slice(0, tokens).forEach((r, i) => {
      expect(r.status, `request ${i + 1} (instance ${r.instance})`).toBe(200);
      expect(r.headers.get("ratelimit-limit")).toBe(String(tokens));
      expect(r.headers.get("ratelimit-remaining"), `request ${i + 1} (instance ${r.instance})`).toBe(String(tokens - 1 - i));
      expect(r.headers.get("ratelimit-policy")).toBe(`${tokens};w=${windowMs / 1000}`);
    });
    // The budget is gone on every instance: the next request on each is refused.
    const limited = results.slice(tokens);
    expect(limited.map((r) => r.instance).sort()).toEqual([0, 1]);
    for (const r of limited) {
      expect(r.status, `instance ${r.instance}`).toBe(429);
      expect(r.body).toEqual({ success: false, error: { code: "RATE_LIMITED", message: expect.any(String) } });
      expect(r.headers.get("ratelimit-remaining")).toBe("0");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(windowMs / 1000);
    }
    // One window, one reset time, whichever instance answered.
    expect(new Set(results.map((r) => r.headers.get("x-ratelimit-reset"))).size).toBe(1);

    // Another address is unaffected on either instance.
    const other = freshIp();
    for (let i = 0; i < baseUrls.length; i++) {
      const res = await on(i).api("GET", CHECK(), { headers: { "x-forwarded-for": other } });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-remaining")).toBe(String(tokens - 1 - i));
    }
  });

  it("a burst split across instances gets exactly the budget, no more", async () => {
    const window = await awayFromWindowEdge(windowMs);
    const ip = freshIp();
    const results = await concurrently(tokens * 3, () => ({ method: "GET", path: CHECK(), headers: { "x-forwarded-for": ip } }));
    expect(Math.floor(Date.now() / windowMs), "the burst crossed a rate-limit window boundary").toBe(window);
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(tokens);
    expect(refused).toHaveLength(tokens * 2);
    for (const r of refused) expect(errorOf(r).code).toBe("RATE_LIMITED");
    // Each remaining count from 0 to tokens - 1 was handed out exactly once, across both instances.
    expect(ok.map((r) => Number(r.headers.get("ratelimit-remaining"))).sort((a, b) => a - b)).toEqual(Array.from({ length: tokens }, (_, i) => i));
  });
});
