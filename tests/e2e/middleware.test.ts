import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import * as pageStaticInfo from "next/dist/build/analysis/get-page-static-info";
import { getMiddlewareRouteMatcher } from "next/dist/shared/lib/router/utils/middleware-route-matcher";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { DEV_ISSUER, signSessionToken } from "../../lib/auth/sign";
import { CONSOLE_ORIGIN } from "./setup";
import { freePort } from "../../lib/ports";
import { testRedisEnv } from "../setup/test-server";

// middleware.ts (Clerk's middleware, for the staff console only): its matcher never lets /api (nor /_next, /files,
// /docs) reach it, checked with Next's own matching rules against the matchers the build compiled; and, served with
// Clerk configured, it leaves /api untouched while it keeps a console session networkless and refreshed.

// The matcher is what is under test here, not Clerk: importing the real module would pull Next's server runtime.
vi.mock("@clerk/nextjs/server", () => ({ clerkMiddleware: () => () => undefined }));
const { config } = await import("../../middleware");

type Matcher = { regexp: string; originalSource: string };
const getMiddlewareMatchers = (pageStaticInfo as unknown as { getMiddlewareMatchers(m: unknown, c: object): Matcher[] }).getMiddlewareMatchers;

describe("matcher", () => {
  const compiled = JSON.parse(readFileSync(`${process.env.NEXT_DIST_DIR ?? ".next"}/server/functions-config-manifest.json`, "utf8")).functions[
    "/_middleware"
  ] as { runtime: string; matchers: Matcher[] };
  const matches = getMiddlewareRouteMatcher(compiled.matchers);
  const runs = (path: string) => matches(path, {} as never, {});

  it("is what the build compiled, on the Node.js runtime", () => {
    expect(compiled.runtime).toBe("nodejs");
    expect(compiled.matchers.map((m) => m.regexp)).toEqual(getMiddlewareMatchers(config.matcher, {}).map((m) => m.regexp));
  });

  it("never matches /api, /_next, /files or /docs", () => {
    for (const path of [
      "/api",
      "/api/",
      "/api/health",
      "/api/admin",
      "/api/admin/leagues/sync",
      "/api/admin/sync-runs/123",
      "/api/v1/engage/rep/ledger",
      "/api/openapi.json",
      "/api/dev/sign-in",
      "/api/__clerk/v1/client",
      "/_next/static/chunks/main.js",
      "/_next/image",
      "/_next/data/build/docs.json",
      "/files/uploads/a.webp",
      "/docs",
      "/",
      "/administrator",
      "/admins",
      "/dev",
      "/dev/sign-in/more",
    ]) {
      expect(runs(path), path).toBe(false);
    }
  });

  it("matches the console, its sign-in page and Clerk's proxy path", () => {
    for (const path of [
      "/admin",
      "/admin/",
      "/admin/teams",
      "/admin/sync/5f0e6c1a-0000-4000-8000-000000000000",
      "/admin/users/role",
      "/admin/forbidden",
      // Next's transport forms of a matched page (App Router payloads; Pages Router data routes, none here).
      "/admin.rsc",
      "/_next/data/build/admin.json",
      "/dev/sign-in",
      "/__clerk/v1/client/handshake",
    ]) {
      expect(runs(path), path).toBe(true);
    }
  });

  it("takes any other path only when a % in it does not start an ASCII escape (one that does not decode is a 400 there)", () => {
    for (const path of ["/api/teams/%ZZ", "/api/teams/%", "/api/%E", "/api/teams/%FF", "/files/%C3%A9", "/docs/%E2%82", "/%ZZ"]) {
      expect(runs(path), path).toBe(true);
    }
    for (const path of ["/api/teams/%41", "/api/v1/search/a%20b", "/files/uploads/%2F", "/api/health", "/docs/%7E"]) {
      expect(runs(path), path).toBe(false);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Served with Clerk configured: its own `next start` of the build (same database and key pair as the console tests),
// a production publishable key whose Frontend API is the tokens' issuer, and a Backend API stand-in that answers
// only the session-refresh call and records every call. `-H localhost`, not 127.0.0.1: with -H 127.0.0.1, Next 16
// network-proxies a middleware's same-URL rewrite (which Clerk's middleware makes) to localhost (vercel/next.js#94745).

const ISSUER_HOST = new URL(DEV_ISSUER).host;
const PUBLISHABLE_KEY = `pk_live_${Buffer.from(`${ISSUER_HOST}$`).toString("base64")}`;
const COOKIE_SUFFIX = createHash("sha1").update(PUBLISHABLE_KEY).digest("base64url").slice(0, 8);
const uid = () => randomBytes(6).toString("hex");
const token = (sub: string, admin: boolean, ttlSeconds = 3600) =>
  signSessionToken(inject("privateKey"), sub, { admin, ttlSeconds, extra: { azp: CONSOLE_ORIGIN } });

let server: ChildProcess | undefined;
let standIn: http.Server | undefined;
let base = "";
let logs = "";
const calls: string[] = [];
let refreshedToken = "";

beforeAll(async () => {
  standIn = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.method === "POST" && /^\/v1\/sessions\/[^/]+\/refresh/.test(req.url ?? "")) {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ object: "cookies", cookies: [`__session=${refreshedToken}; Path=/; Secure; SameSite=Lax`] }));
    }
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ errors: [{ code: "resource_not_found", message: "not found" }] }));
  });
  await new Promise<void>((resolve) => standIn!.listen(0, "127.0.0.1", resolve));
  const port = await freePort("localhost");
  base = `http://localhost:${port}`;
  server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "localhost"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: inject("databaseUrl"),
      ...(await testRedisEnv("middleware test server")), // production refuses to start without its Redis
      DB_POOL_SIZE: "2",
      LOG_LEVEL: "warn",
      RATE_LIMIT_PREFIX: `e2e-mw:${uid()}`,
      NEXT_TELEMETRY_DISABLED: "1",
      CLERK_TELEMETRY_DISABLED: "1",
      CLERK_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      CLERK_SECRET_KEY: `sk_live_standin_${uid()}`,
      CLERK_API_URL: `http://127.0.0.1:${(standIn!.address() as net.AddressInfo).port}`,
      CLERK_JWT_KEY: inject("publicKey"),
      CLERK_ISSUER: DEV_ISSUER,
      CLERK_AUTHORIZED_PARTIES: CONSOLE_ORIGIN,
      CLERK_SIGN_IN_URL: "https://accounts.example.com/sign-in",
      APP_URL: CONSOLE_ORIGIN,
      MOBILE_STATE_SECRET: randomBytes(32).toString("hex"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (logs += d));
  server.stderr!.on("data", (d) => (logs += d));
  for (const deadline = Date.now() + 90_000; ;) {
    if (server.exitCode !== null) throw new Error(`next start exited early:\n${logs}`);
    if (Date.now() > deadline) throw new Error(`next start did not become healthy:\n${logs}`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(async () => {
  server?.kill("SIGTERM");
  await new Promise<void>((resolve) => (standIn ? standIn.close(() => resolve()) : resolve()));
  if (process.env.TEST_SERVER_LOG) console.log(logs);
});

/** A browser's page request (Clerk handshakes only document requests) with the given cookies. */
const page = (path: string, cookie: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { redirect: "manual", headers: { cookie, "sec-fetch-dest": "document", accept: "text/html", ...headers } });
const middlewareHeaders = (res: Response) => [...res.headers.keys()].filter((k) => k.startsWith("x-clerk-") || k.startsWith("x-middleware-"));
/** Cookies that make Clerk's middleware act on a page: a session that expired, from a client signed in 100 s ago. */
const expiredSession = () => `__session=${token(`user_staff${uid()}`, true, -60)}; __client_uat=${Math.floor(Date.now() / 1000) - 100}`;

describe("served with a Clerk publishable key", () => {
  it("leaves /api untouched, even with cookies Clerk would act on", async () => {
    const health = await page("/api/health", expiredSession());
    expect(health.status).toBe(200);
    expect(middlewareHeaders(health)).toEqual([]);

    const user = await page("/api/user", expiredSession());
    expect(user.status).toBe(401);
    expect(((await user.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    expect(middlewareHeaders(user)).toEqual([]);

    const admin = await fetch(`${base}/api/admin/sync-runs`, { headers: { authorization: `Bearer ${token(`user_staff${uid()}`, true, -60)}` } });
    expect(admin.status).toBe(401);
    expect(middlewareHeaders(admin)).toEqual([]);
  });

  it("runs on the console: signed out, the gate still sends the visitor to sign-in", async () => {
    const res = await page("/admin/teams", "");
    expect(res.headers.get("x-clerk-auth-status")).toBe("signed-out");
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("https://accounts.example.com/sign-in?redirect_url=https%3A%2F%2Fapi.example.com%2Fadmin%2Fteams");
  });

  it("verifies a valid session without calling Clerk, and the page still checks the role", async () => {
    const before = calls.length;
    const uat = `__client_uat=${Math.floor(Date.now() / 1000) - 100}`;
    const staff = `user_staff${uid()}`;
    const ok = await page("/admin", `__session=${token(staff, true)}; ${uat}`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain(`Signed in as <code>${staff}</code>`);

    const fan = await page("/admin/teams", `__session=${token(`user_fan${uid()}`, false)}; ${uat}`);
    expect(fan.status).toBe(307);
    expect(fan.headers.get("location")).toBe("/admin/forbidden");
    // The header the gate reads the middleware's token from is the middleware's to set, not the client's.
    const spoofed = await page("/admin/teams", `__session=${token(`user_fan${uid()}`, false)}; ${uat}`, { "x-clerk-auth-token": token(staff, true) });
    expect(spoofed.headers.get("location")).toBe("/admin/forbidden");
    expect(calls.length).toBe(before);
  });

  it("sends an expired session to Clerk's handshake to be refreshed, not to the sign-in page", async () => {
    const res = await page("/admin", expiredSession());
    expect(res.status).toBe(307);
    expect(res.headers.get("x-clerk-auth-status")).toBe("handshake");
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${DEV_ISSUER}/v1/client/handshake`);
  });

  it("with Clerk's refresh cookie, refreshes an expired session in place and the page accepts the new token", async () => {
    const staff = `user_staff${uid()}`;
    refreshedToken = token(staff, true);
    const before = calls.length;
    const expired = token(staff, true, -60);
    const res = await page("/admin", `__session=${expired}; __client_uat=${Math.floor(Date.now() / 1000) - 100}; __refresh_${COOKIE_SUFFIX}=rt_${uid()}`);
    expect(calls.slice(before)).toEqual([expect.stringMatching(/^POST \/v1\/sessions\/sess_user_staff[0-9a-f]+\/refresh/)]);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toContain(`__session=${refreshedToken}`);
    expect(await res.text()).toContain(`Signed in as <code>${staff}</code>`);
  });
});
