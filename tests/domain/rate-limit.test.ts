import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import { z } from "zod";

// Tight default policies for the pipeline tests below (the named policies the limiter tests use keep their numbers).
vi.hoisted(() => {
  process.env.RATE_LIMIT_PREFIX = `t:defaults:${Date.now()}:${Math.random()}`;
  process.env.RATE_LIMIT_OVERRIDES = JSON.stringify({ anonymous: { tokens: 3, window: "60 s" }, user: { tokens: 2, window: "60 s" } });
});

import { signSessionToken } from "../../lib/auth/sign";
import { DEFAULT_REDIS_URL } from "../../lib/env";
import { createLimiter, createMemoryLimiter } from "../../lib/http/rate-limit";
import { route } from "../../lib/http/route";
import { createTcpRedis, redisAnswers, TcpScriptRedis } from "../../lib/redis/client";
import { awayFromWindowEdge } from "../rate-window";
import { limiterBehaviour } from "../redis-behaviours";

// The Redis tests need a Redis (REDIS_URL, or the local one); without one they are skipped, saying so, and the
// same assertions run on the in-process store the server then uses.
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const redisUp = await redisAnswers(redisUrl, 1_000);
if (!redisUp) console.warn(`rate-limit.test.ts: no Redis answers at ${redisUrl}; skipping the Redis limiter tests (the in-process store's run)`);
const live = createTcpRedis(redisUrl);
const dead = createTcpRedis("redis://127.0.0.1:1");
const deadRedis = new TcpScriptRedis(dead); // wrapped as it is created, like the server's: it sees every failed attempt
afterAll(() => {
  live.disconnect();
  dead.disconnect();
});

describe.skipIf(!redisUp)(
  `rate limiter over real Redis (@upstash/ratelimit through the TCP adapter)${redisUp ? "" : `: skipped, no Redis answers at ${redisUrl}`}`,
  () => {
    limiterBehaviour((policy) => createLimiter(policy, new TcpScriptRedis(live), { timeoutMs: 2_000, prefix: `t:${randomUUID()}` }));
  },
);

describe("rate limiter, in-process store (no Redis configured or reachable)", () => {
  limiterBehaviour((policy) => createMemoryLimiter(policy));

  it("slides like @upstash/ratelimit's window: the previous window counts by the share of it still inside", async () => {
    let t = 120_000 + 30_000; // half-way through a 60 s window
    const limit = createMemoryLimiter("earn", { now: () => t }); // 30 per 60 s
    for (let i = 0; i < 30; i++) expect((await limit("u:1")).allowed).toBe(true);
    expect(await limit("u:1")).toMatchObject({ allowed: false, remaining: 0, reset: 180_000, windowSeconds: 60, degraded: false });
    t = 180_000 + 45_000; // next window, 3/4 in: the previous 30 weigh floor(30 × 1/4) = 7
    const r = await limit("u:1");
    expect(r).toMatchObject({ allowed: true, limit: 30, remaining: 30 - 8, reset: 240_000 });
    t = 300_000; // two windows later: nothing left of the old counts
    expect(await limit("u:1")).toMatchObject({ allowed: true, remaining: 29 });
  });
});

/** A TCP relay to Redis that holds each new connection `delayMs` before passing it on: a connection being made. */
async function slowRelay(target: URL, delayMs: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("error", () => {});
    setTimeout(() => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      sockets.add(upstream);
      upstream.on("error", () => client.destroy());
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

describe.skipIf(!redisUp)(`rate limiter timeout${redisUp ? "" : `: skipped, no Redis answers at ${redisUrl}`}`, () => {
  it("counts from a ready connection: a burst on a client still connecting (300 ms) gets exactly the budget, none failing open", async () => {
    const relay = await slowRelay(new URL(redisUrl), 300);
    const client = createTcpRedis(relay.url);
    try {
      const limit = createLimiter("ugc", new TcpScriptRedis(client), { timeoutMs: 200, prefix: `t:${randomUUID()}` }); // 20 / 60 s
      await awayFromWindowEdge();
      const results = await Promise.all(Array.from({ length: 40 }, () => limit("u:cold")));
      expect(results.filter((r) => r.degraded)).toHaveLength(0);
      expect(results.filter((r) => r.allowed)).toHaveLength(20);
    } finally {
      client.disconnect();
      relay.close();
    }
  });

  it("counts only time the process waits: an answer that came while it was busy (as at a cold start) is taken", async () => {
    const limit = createLimiter("earn", new TcpScriptRedis(live), { timeoutMs: 100, prefix: `t:${randomUUID()}` });
    await awayFromWindowEdge();
    await limit("u:busy"); // a ready connection, the script loaded
    const pending = limit("u:busy");
    await new Promise((r) => setImmediate(r)); // the call is under way
    const until = performance.now() + 300;
    while (performance.now() < until); // the process is busy (a new process loading a route's code)
    expect(await pending).toMatchObject({ allowed: true, degraded: false, remaining: 28 });
  });
});

describe("rate limiter failing open", () => {
  it("fails open, quickly, when Redis is unreachable", async () => {
    const limit = createLimiter("write", deadRedis, { timeoutMs: 200, prefix: `t:${randomUUID()}` });
    const started = Date.now();
    const r = await limit("u:anyone");
    expect(r).toMatchObject({ allowed: true, degraded: true });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("does not wait for a Redis that is down: neither for its connection (1 s) nor for the timeout", async () => {
    const limit = createLimiter("write", deadRedis, { timeoutMs: 5_000, prefix: `t:${randomUUID()}` });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 10 }, () => limit("u:anyone")));
    expect(results.every((r) => r.allowed && r.degraded)).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe("default policies in the pipeline (on unless a route opts out)", () => {
  const noParams = { params: Promise.resolve({}) };
  const from = (ip: string, headers: Record<string, string> = {}) => new Request("http://x/api/thing", { headers: { "x-forwarded-for": ip, ...headers } });
  const open = route({ summary: "open", tags: ["t"], auth: "public", response: z.object({}) }, async () => ({}));
  const maybe = route({ summary: "maybe", tags: ["t"], auth: "optional", response: z.object({}) }, async () => ({}));

  it("a public route that names no policy is limited per client address (anonymous), with RateLimit headers and Retry-After", async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
    await awayFromWindowEdge();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await open(from(ip), noParams));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    expect(answers[0]!.headers.get("ratelimit-limit")).toBe("3");
    expect(answers[0]!.headers.get("ratelimit-policy")).toBe("3;w=60");
    expect(Number(answers[0]!.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    expect(answers[0]!.headers.get("x-ratelimit-limit")).toBe("3"); // the older headers stay for existing clients
    expect(Number(answers[0]!.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    const limited = answers[3]!;
    expect((await limited.json()).error.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await open(from("198.51.100.77"), noParams)).status).toBe(200); // another address has its own bucket
  });

  it("a signed-in caller of an optional route spends the user policy, keyed by user, not the address", async () => {
    const ip = `192.0.2.${Math.floor(Math.random() * 250)}`;
    const sub = `user_rl_${randomUUID().slice(0, 8)}`;
    const auth = { authorization: `Bearer ${signSessionToken(inject("privateKey"), sub)}` };
    await awayFromWindowEdge();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await maybe(from(ip, auth), noParams)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await maybe(from(ip), noParams)).status).toBe(200); // the address's anonymous bucket is untouched
  });

  it("rateLimit: false opts a route out: no limit, no headers", async () => {
    const probe = route({ summary: "probe", tags: ["t"], auth: "public", rateLimit: false, response: z.object({}) }, async () => ({}));
    const ip = `198.18.0.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 5; i++) {
      const res = await probe(from(ip), noParams);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBeNull();
    }
  });
});
