import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createLimiter } from "../../lib/http/rate-limit";
import { createTcpRedis, TcpScriptRedis } from "../../lib/redis/client";

const live = createTcpRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const dead = createTcpRedis("redis://127.0.0.1:1");
afterAll(() => {
  live.disconnect();
  dead.disconnect();
});

describe("rate limiter over real Redis (@upstash/ratelimit through the TCP adapter)", () => {
  it("allows the policy's tokens, then blocks with a reset in the future", async () => {
    const limit = createLimiter("public", new TcpScriptRedis(live), { timeoutMs: 2_000, prefix: `t:${randomUUID()}` });
    const id = "ip:203.0.113.7";
    const results = [];
    for (let i = 0; i < 301; i++) results.push(await limit(id));
    expect(results.slice(0, 300).every((r) => r.allowed)).toBe(true);
    expect(results[300]).toMatchObject({ allowed: false, limit: 300, remaining: 0, degraded: false });
    expect(results[300]!.reset).toBeGreaterThan(Date.now());
    expect((await limit("ip:198.51.100.1")).allowed).toBe(true); // other identifiers are unaffected
  });

  it("concurrent requests never pass more than the limit", async () => {
    const limit = createLimiter("earn", new TcpScriptRedis(live), { timeoutMs: 2_000, prefix: `t:${randomUUID()}` });
    const results = await Promise.all(Array.from({ length: 80 }, () => limit("u:concurrent")));
    expect(results.filter((r) => r.allowed).length).toBe(30);
  });

  it("fails open, quickly, when Redis is unreachable", async () => {
    const limit = createLimiter("write", new TcpScriptRedis(dead), { timeoutMs: 200, prefix: `t:${randomUUID()}` });
    const started = Date.now();
    const r = await limit("u:anyone");
    expect(r).toMatchObject({ allowed: true, degraded: true });
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
