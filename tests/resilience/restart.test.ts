import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { UNDOCUMENTED_ERROR_CODE } from "../setup/server-log";
import { startTestServer } from "../setup/test-server";
import { freePort } from "../../lib/ports";
import { startScratchPostgres, type ScratchPostgres } from "./scratch-postgres";

// PostgreSQL restarts under a running server: requests during the outage answer 503 SERVICE_UNAVAILABLE (JSON,
// Retry-After), liveness stays 200, readiness says the database is down, and once PostgreSQL is back the same
// server process answers 200 again. The server reaches Redis through a TCP relay the test can cut, which shows
// the rate limiter failing open over HTTP and readiness reporting it. A scratch PostgreSQL, never the shared one.

type Server = Awaited<ReturnType<typeof startTestServer>>;

let scratch: ScratchPostgres;
let server: Server;
let redisRelay: Relay;

/** A TCP relay to the tests' Redis that can be cut (connections closed, port refusing) and restored on the same port. */
interface Relay {
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
}

async function startRelay(target: URL): Promise<Relay> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  let listener: net.Server | null = null;
  const restore = () =>
    new Promise<void>((resolve) => {
      listener = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      listener.listen(port, "127.0.0.1", resolve);
    });
  await restore();
  return {
    url: `redis://127.0.0.1:${port}`,
    restore,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        listener!.close(() => resolve());
      }),
  };
}

async function call(s: Server, path: string, sub?: string) {
  const headers: Record<string, string> = sub ? { authorization: `Bearer ${signSessionToken(s.privateKey, sub)}` } : {};
  const res = await fetch(`${s.baseUrl}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
}

const boot = (adminUrl: string, label: string, env: Record<string, string> = {}) =>
  startTestServer({
    adminUrl,
    dbPrefix: "fan_resilience",
    seed: false,
    fixtures: ["clerk"],
    label,
    reportLine: (l) => l.includes('"unhandled error"'),
    // An outage must be a logged warning and a documented 503, never an unhandled error.
    failLine: (l) => l.includes(UNDOCUMENTED_ERROR_CODE) || l.includes('"unhandled error"'),
    env: ({ run }) => ({
      DB_POOL_SIZE: "4",
      RATE_LIMIT_PREFIX: `resilience:${run}`,
      LEADERBOARD_PREFIX: `lb:resilience:${run}`,
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
      VALIDATE_RESPONSES: "1",
      ...env,
    }),
  });

beforeAll(async () => {
  redisRelay = await startRelay(new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"));
  scratch = await startScratchPostgres();
  server = await boot(scratch.adminUrl, "resilience server", { REDIS_URL: redisRelay.url });
});

afterAll(async () => {
  await server?.stop(); // drops its database: PostgreSQL must be up
  await scratch?.destroy();
  await redisRelay?.cut();
});

const fan = `user_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
/** Authenticated reads through Prisma (the caller's user row) and through the pool's prepared statements. */
const DB_ROUTES = ["/api/user", "/api/me/starred-teams", "/api/v1/engage/rep/ledger"];

describe("resilience", () => {
  it("answers 503 SERVICE_UNAVAILABLE while PostgreSQL is down and recovers by itself once it is back", async () => {
    for (const path of DB_ROUTES) expect((await call(server, path, fan)).status, path).toBe(200);
    const ready = await call(server, "/api/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      success: true,
      data: {
        status: "ok",
        checks: {
          database: { status: "ok", latencyMs: expect.any(Number) },
          rateLimiter: { status: "ok", latencyMs: expect.any(Number), backend: "redis" },
          replica: { status: "none", lagMs: null, replicas: [] },
        },
        providers: {
          stripe: { status: "unavailable", mode: "unconfigured" },
          appStore: { status: "unavailable", mode: "unconfigured" },
          googlePlay: { status: "unavailable", mode: "unconfigured" },
        },
      },
    });

    await scratch.stop();
    for (const path of DB_ROUTES) {
      const res = await call(server, path, fan);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(res.body).toEqual({ success: false, error: { code: "SERVICE_UNAVAILABLE", message: "The database is unavailable. Retry in 5 s." } });
    }
    // A new user (the user row cannot be created) and a public read are 503 too.
    expect((await call(server, "/api/user", `${fan}_new`)).status).toBe(503);
    expect((await call(server, "/api/teams")).status).toBe(503);
    // Liveness touches nothing: still 200. Readiness: 503, naming the database.
    const live = await call(server, "/api/health");
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ success: true, data: { status: "ok" } });
    const notReady = await call(server, "/api/health/ready");
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get("retry-after")).toBe("5");
    expect(notReady.body).toEqual({
      success: false,
      error: {
        code: "SERVICE_UNAVAILABLE",
        message: "Not ready: the database is unavailable.",
        details: [
          { path: "checks.database", message: expect.stringMatching(/^unavailable \([\d.]+ ms\)$/) },
          { path: "checks.rateLimiter", message: expect.stringMatching(/^ok \([\d.]+ ms\)$/) },
        ],
      },
    });

    const restarted = Date.now();
    await scratch.start();
    let res = await call(server, "/api/user", fan);
    while (res.status !== 200 && Date.now() - restarted < 15_000) {
      expect(res.status).toBe(503);
      await new Promise((r) => setTimeout(r, 250));
      res = await call(server, "/api/user", fan);
    }
    expect(res.status).toBe(200);
    for (const path of DB_ROUTES) expect((await call(server, path, fan)).status, path).toBe(200);
    expect((await call(server, "/api/health/ready")).status).toBe(200);
  });

  it("hands out no connection killed by a restart: every request after it succeeds", async () => {
    // Fill the pool with idle connections, restart PostgreSQL with no request in between, then call again.
    await Promise.all(Array.from({ length: 8 }, (_, i) => call(server, DB_ROUTES[i % DB_ROUTES.length]!, fan)));
    await scratch.stop();
    await scratch.start();
    const statuses = [];
    for (let round = 0; round < 3; round++) {
      statuses.push(...(await Promise.all(Array.from({ length: 8 }, (_, i) => call(server, DB_ROUTES[i % DB_ROUTES.length]!, fan)))).map((r) => r.status));
    }
    expect(
      statuses.every((s) => s === 200),
      String(statuses),
    ).toBe(true);
  });

  it("with Redis down, requests proceed without rate-limit headers and readiness says degraded (200), or 503 when the database is down too", async () => {
    await redisRelay.cut();
    try {
      const res = await call(server, "/api/user", fan);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBeNull(); // the limiter failed open
      const ready = await call(server, "/api/health/ready");
      expect(ready.status).toBe(200);
      expect(ready.body.data).toEqual({
        status: "degraded",
        checks: {
          database: { status: "ok", latencyMs: expect.any(Number) },
          rateLimiter: { status: "unavailable", latencyMs: expect.any(Number), backend: "redis" },
          replica: { status: "none", lagMs: null, replicas: [] },
        },
        providers: expect.any(Object),
      });
      expect(ready.body.data.checks.rateLimiter.latencyMs).toBeLessThanOrEqual(1_500);

      await scratch.stop();
      try {
        const down = await call(server, "/api/health/ready");
        expect(down.status).toBe(503);
        expect(down.body.error.details).toEqual([
          { path: "checks.database", message: expect.stringMatching(/^unavailable/) },
          { path: "checks.rateLimiter", message: expect.stringMatching(/^unavailable/) },
        ]);
        expect((await call(server, "/api/health")).status).toBe(200);
      } finally {
        await scratch.start();
      }
    } finally {
      await redisRelay.restore();
    }
    // Redis back: the client reconnects by itself (backoff up to 2 s) and limits apply again.
    const restored = Date.now();
    let ready = await call(server, "/api/health/ready");
    while (ready.body.data?.status !== "ok" && Date.now() - restored < 10_000) {
      await new Promise((r) => setTimeout(r, 250));
      ready = await call(server, "/api/health/ready");
    }
    expect(ready.body.data?.status).toBe("ok");
    expect((await call(server, "/api/user", fan)).headers.get("ratelimit-limit")).not.toBeNull();
  });
});
