import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, baseUrl, newUser, token } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";

// The pipeline as clients see it: CORS (CORS_ALLOWED_ORIGINS in tests/setup/global.ts), rate-limit headers, and
// the OpenAPI description of auth modes, limits and caching.

const ALLOWED = "https://app.example.com";
const corsOf = (headers: Headers) => Object.fromEntries([...headers].filter(([k]) => k.startsWith("access-control-")));
const freshIp = () => `2001:db8:cafe::${randomUUID().slice(0, 4)}`;

describe("CORS", () => {
  it("an allowed origin's answers carry Access-Control-Allow-Origin and expose the request id and rate-limit headers", async () => {
    for (const origin of [ALLOWED, "https://fans.example.org:8443"]) {
      const res = await api("GET", "/api/teams", { headers: { origin } });
      expect(res.status).toBe(200);
      expect(corsOf(res.headers)).toEqual({
        "access-control-allow-origin": origin,
        "access-control-expose-headers":
          "X-Request-Id, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Deprecation, Link",
      });
      expect(res.headers.get("vary")).toContain("Origin");
    }
    const unauthorized = await api("GET", "/api/user", { headers: { origin: ALLOWED } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  it("a disallowed origin gets no CORS headers at all", async () => {
    for (const origin of ["https://evil.example.com", "https://app.example.com.evil.example", "http://app.example.com", "null"]) {
      const res = await api("GET", "/api/teams", { headers: { origin } });
      expect(res.status).toBe(200);
      expect(corsOf(res.headers)).toEqual({});
      const pre = await fetch(`${baseUrl}/api/user`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "GET" } });
      expect(corsOf(pre.headers)).toEqual({});
    }
  });

  it("a preflight is answered with the path's real methods, the headers clients send, a max age and Vary: Origin", async () => {
    const res = await fetch(`${baseUrl}/api/me/starred-teams/tm_hch`, {
      method: "OPTIONS",
      headers: { origin: ALLOWED, "access-control-request-method": "PUT", "access-control-request-headers": "authorization, idempotency-key" },
    });
    expect(res.status).toBe(204);
    expect(corsOf(res.headers)).toEqual({
      "access-control-allow-origin": ALLOWED,
      "access-control-allow-methods": "PUT, DELETE, OPTIONS",
      "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key, X-Request-Id",
      "access-control-max-age": "600",
    });
    expect(res.headers.get("vary")).toContain("Origin");
    expect(res.headers.get("allow")).toBe("PUT, DELETE, OPTIONS");
    const get = await fetch(`${baseUrl}/api/teams`, { method: "OPTIONS", headers: { origin: ALLOWED, "access-control-request-method": "GET" } });
    expect(get.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
  });

  it("a 429 from an allowed origin is readable: origin, Retry-After and the rate-limit headers exposed", async () => {
    const ip = freshIp();
    await awayFromWindowEdge();
    let last: Awaited<ReturnType<typeof api>> | undefined;
    for (let i = 0; i < 6; i++)
      last = await api("GET", `/api/user/check-username?username=cors_${randomUUID().slice(0, 8)}`, {
        headers: { origin: ALLOWED, "x-forwarded-for": `${ip}, 192.0.2.1` },
      });
    expect(last!.status).toBe(429);
    expect(last!.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect(last!.headers.get("ratelimit-limit")).toBe("5");
  });
});

describe("rate limits by default", () => {
  it("routes naming no policy get their auth mode's default, with RateLimit headers; /api/health opts out", async () => {
    const anon = await api("GET", "/api/teams");
    expect(anon.headers.get("ratelimit-limit")).toBe("1000000"); // the anonymous default, as overridden for the tests
    expect(anon.headers.get("ratelimit-policy")).toBe("1000000;w=60");
    expect(Number(anon.headers.get("ratelimit-remaining"))).toBeLessThan(1_000_000);
    const signedIn = await api("GET", "/api/user", { headers: newUser().auth });
    expect(signedIn.headers.get("ratelimit-limit")).toBe("1000000");
    const named = await api("GET", `/api/user/check-username?username=rl_${randomUUID().slice(0, 8)}`, {
      headers: { "x-forwarded-for": `${freshIp()}, 192.0.2.1` },
    });
    expect(named.headers.get("ratelimit-policy")).toBe("5;w=60");
    const health = await api("GET", "/api/health");
    expect(health.headers.get("ratelimit-limit")).toBeNull();
  });
});

describe("OpenAPI: auth modes, limits, caching", () => {
  const staff = () => ({ authorization: `Bearer ${token("user_doc_reader_pipeline", { admin: true })}` });

  it("cron and webhook operations use their security schemes", async () => {
    const pub = (await api("GET", "/api/openapi.json")).body;
    const internal = (await api("GET", "/api/admin/openapi.json", { headers: staff() })).body;
    // Each document lists the schemes its operations use: the sync and live events webhooks are public contract, the crons and Stripe's
    // webhook (its own Stripe-Signature scheme) are internal.
    expect(pub.components.securitySchemes.webhookSignature).toMatchObject({ type: "apiKey", in: "header", name: "X-Signature" });
    expect(internal.components.securitySchemes.cronSecret).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(pub.components.securitySchemes).sort()).toEqual(["bearerAuth", "liveEventsSignature", "webhookSignature"]);
    // The live events webhook signs as the sync does, with its own secret: its own scheme names that secret.
    expect(pub.components.securitySchemes.liveEventsSignature).toMatchObject({ type: "apiKey", in: "header", name: "X-Signature" });
    expect(pub.paths["/api/webhooks/live-events"].post).toMatchObject({ "x-auth": "webhook", security: [{ liveEventsSignature: [] }] });
    expect(Object.keys(internal.components.securitySchemes).sort()).toEqual(["bearerAuth", "cronSecret", "pubSubOidc", "stripeSignature"]);
    expect(internal.paths["/api/webhooks/google-play"].post).toMatchObject({ "x-auth": "webhook", security: [{ pubSubOidc: [] }] });
    expect(internal.components.securitySchemes.stripeSignature).toMatchObject({ type: "apiKey", in: "header", name: "Stripe-Signature" });
    const stripe = internal.paths["/api/webhooks/stripe"].post;
    expect(stripe).toMatchObject({ "x-auth": "webhook", security: [{ stripeSignature: [] }] });
    expect(Object.keys(stripe.responses).sort()).toEqual(["200", "400", "409", "413", "500", "503"]);
    const hook = pub.paths["/api/webhooks/leagues-sync"].post;
    expect(hook).toMatchObject({ "x-auth": "webhook", security: [{ webhookSignature: [] }] });
    expect(Object.keys(hook.responses)).toEqual(expect.arrayContaining(["200", "201", "400", "401", "413", "429", "500"]));
    for (const p of ["/api/cron/leagues-sync", "/api/cron/mobile-tokens", "/api/cron/uploads-sweep"]) {
      expect(internal.paths[p].get, p).toMatchObject({ "x-auth": "cron", security: [{ cronSecret: [] }] });
      expect(internal.paths[p].get.responses["401"], p).toBeDefined();
    }
  });

  it("limited operations document the RateLimit headers and the 429 with Retry-After; opted-out ones do not", async () => {
    const doc = (await api("GET", "/api/openapi.json")).body;
    const teams = doc.paths["/api/teams"].get;
    expect(Object.keys(teams.responses["200"].headers)).toEqual(["RateLimit-Policy", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]);
    expect(Object.keys(teams.responses["429"].headers)).toEqual([
      "Retry-After",
      "RateLimit-Policy",
      "RateLimit-Limit",
      "RateLimit-Remaining",
      "RateLimit-Reset",
    ]);
    expect(teams.responses["429"].description).toMatch(/RATE_LIMITED/);
    expect(teams["x-rate-limit"]).toEqual([expect.objectContaining({ policy: "anonymous", per: "client address", default: true })]);
    expect(doc.paths["/api/teams/{id}"].get["x-rate-limit"]).toEqual([
      expect.objectContaining({ policy: "anonymous", per: "client address" }),
      expect.objectContaining({ policy: "user", per: "user" }),
    ]);
    expect(doc.paths["/api/user/check-username"].get["x-rate-limit"]).toEqual([{ policy: "public", limit: 5, window: "60 s", per: "client address" }]);
    const health = doc.paths["/api/health"].get;
    expect(health.responses["429"]).toBeUndefined();
    expect(health["x-rate-limit"]).toBeUndefined();
    expect(doc.paths["/api/config/sports"].get.responses["200"].headers["Cache-Control"].schema.const).toBe("public, max-age=300");
  });

  it("the document itself goes through the pipeline: cacheable, with a request id and the security headers", async () => {
    const res = await api("GET", "/api/openapi.json", { headers: { origin: ALLOWED } });
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.body.paths["/api/openapi.json"].get.operationId).toBe("getOpenApiDocument");
  });
});
