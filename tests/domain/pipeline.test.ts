import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { randomUUID } from "node:crypto";
import { z } from "zod";

// The pipeline reads these once: set before any lib module loads (vi.hoisted runs ahead of the imports).
vi.hoisted(() => {
  process.env.VALIDATE_RESPONSES = "1";
  process.env.LOG_LEVEL = "error";
  process.env.RATE_LIMIT_PREFIX = `t:pipeline:${Date.now()}:${Math.random()}`;
  process.env.CRON_SECRET = "cron-secret-for-pipeline-tests";
  process.env.LEAGUES_SYNC_WEBHOOK_SECRET = "whsec-for-pipeline-tests";
  process.env.CORS_ALLOWED_ORIGINS = "https://app.example.com";
});

import { DomainError, sharedErrors } from "../../lib/kernel/errors";
import { signWebhook } from "../../lib/http/machine-auth";
import { methods } from "../../lib/http/methods";
import { redirect, reply } from "../../lib/http/reply";
import { route } from "../../lib/http/route";
import { failureOf, judgeServerLog, UNDOCUMENTED_ERROR_CODE } from "../setup/server-log";
import { errors as starsErrors } from "../../lib/features/stars/errors";
import { errors as uploadsErrors } from "../../lib/core/uploads/errors";
import { errors as usersErrors } from "../../lib/core/users/errors";

const noParams = { params: Promise.resolve({}) };

describe("request pipeline", () => {
  it("answers 500 INTERNAL_ERROR for an unexpected failure, with no internals in the body and a request id header", async () => {
    const handler = route({ summary: "boom", tags: ["t"], auth: "public", response: z.object({}) }, async () => {
      throw new Error('relation "secret_table" does not exist at /srv/app/lib/x.ts:42');
    });
    const res = await handler(new Request("http://x/api/boom"), noParams);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ success: false, error: { code: "INTERNAL_ERROR", message: expect.any(String) } });
    expect(text).not.toMatch(/secret_table|\/srv\/app|at /);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("maps a domain error to its status, code, details and headers", async () => {
    const handler = route({ summary: "limit", tags: ["t"], auth: "public", response: z.object({}) }, async () => {
      throw new DomainError(starsErrors.STARRED_TEAMS_LIMIT, "full", [{ path: "x", message: "y" }], { "X-Extra": "1" });
    });
    const res = await handler(new Request("http://x/api/limit", { headers: { "x-request-id": "req-12345678" } }), noParams);
    expect(res.status).toBe(409);
    expect(res.headers.get("x-extra")).toBe("1");
    expect(res.headers.get("x-request-id")).toBe("req-12345678");
    expect(await res.json()).toEqual({ success: false, error: { code: "STARRED_TEAMS_LIMIT", message: "full", details: [{ path: "x", message: "y" }] } });
  });

  it("envelopes by default and answers the bare object when the route says so", async () => {
    const data = route({ summary: "e", tags: ["t"], auth: "public", response: z.object({ a: z.number() }) }, async () => ({ a: 1 }));
    expect(await (await data(new Request("http://x/api/e"), noParams)).json()).toEqual({ success: true, data: { a: 1 } });
    const bare = route({ summary: "b", tags: ["t"], auth: "public", envelope: false, response: z.object({ a: z.number() }) }, async () => ({ a: 1 }));
    expect(await (await bare(new Request("http://x/api/b"), noParams)).json()).toEqual({ a: 1 });
  });

  it("names every offending field in a validation error", async () => {
    const handler = route(
      {
        summary: "v",
        tags: ["t"],
        auth: "public",
        query: z.strictObject({ n: z.string().regex(/^\d+$/) }),
        body: z.strictObject({ a: z.string(), b: z.number() }),
        response: z.object({}),
      },
      async () => ({}),
    );
    const q = await handler(new Request("http://x/api/v?n=abc", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }), noParams);
    expect(q.status).toBe(400);
    expect((await q.json()).error.details.map((d: { path: string }) => d.path)).toEqual(["query.n"]);
    const b = await handler(
      new Request("http://x/api/v?n=1", { method: "POST", headers: { "content-type": "application/json" }, body: '{"b":"x","c":1}' }),
      noParams,
    );
    expect(b.status).toBe(400);
    expect((await b.json()).error.details.map((d: { path: string }) => d.path).sort()).toEqual(["body.a", "body.b", "body.c"]);
  });

  it("a body cut short by the client is a 400, not a database outage (Node's ECONNRESET 'aborted')", async () => {
    let ran = false;
    const handler = route({ summary: "cut", tags: ["t"], auth: "public", body: z.object({ a: z.string() }), response: z.object({}) }, async () => {
      ran = true;
      return {};
    });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const req = new Request("http://x/api/cut", { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as RequestInit);
    const res = await handler(req, noParams);
    expect(res.status).toBe(400);
    expect(res.headers.get("retry-after")).toBeNull();
    expect((await res.json()).error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "body", message: "Incomplete" }] });
    expect(ran).toBe(false);
  });
});

// Error lines (LOG_LEVEL=error here) go to stderr: captured, so a test can read them and the output stays quiet.
let stderr: string[] = [];
beforeEach(() => {
  stderr = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://x${path}`, { headers });

describe("handler results: reply, redirect, cache", () => {
  it("reply() sets another declared status, headers and cookies; the envelope is the pipeline's", async () => {
    const handler = route(
      {
        summary: "r",
        tags: ["t"],
        auth: "public",
        status: 201,
        response: z.object({ id: z.string() }),
        responses: { 200: { description: "already there", schema: z.object({ duplicate: z.literal(true) }) } },
      },
      async ({ req }) =>
        req.url.endsWith("dup")
          ? reply(
              { duplicate: true as const },
              {
                status: 200,
                headers: { "X-Extra": "1" },
                cookies: [{ name: "a", value: "", path: "/", maxAge: 0, httpOnly: true, sameSite: "Lax" }, "b=2; Path=/x"],
              },
            )
          : { id: "n" },
    );
    const created = await handler(get("/api/r"), noParams);
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ success: true, data: { id: "n" } });
    const dup = await handler(get("/api/r/dup"), noParams);
    expect(dup.status).toBe(200);
    expect(await dup.json()).toEqual({ success: true, data: { duplicate: true } });
    expect(dup.headers.get("x-extra")).toBe("1");
    expect(dup.headers.getSetCookie()).toEqual(["a=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax", "b=2; Path=/x"]);
    expect(dup.headers.get("x-request-id")).toBeTruthy();
    expect(dup.headers.get("cache-control")).toBe("no-store");
  });

  it("response validation covers reply(): an undeclared status or a body off its schema is a 500", async () => {
    const handler = route(
      {
        summary: "v",
        tags: ["t"],
        auth: "public",
        response: z.object({ a: z.number() }),
        responses: { 202: { description: "later", schema: z.object({ b: z.string() }) } },
      },
      async ({ req }) => {
        const which = new URL(req.url).searchParams.get("w");
        if (which === "status") return reply({ a: 1 }, { status: 203 });
        if (which === "schema") return reply({ b: 1 }, { status: 202 });
        return reply({ a: 1 });
      },
    );
    expect((await handler(get("/api/v"), noParams)).status).toBe(200);
    expect((await handler(get("/api/v?w=status"), noParams)).status).toBe(500);
    expect((await handler(get("/api/v?w=schema"), noParams)).status).toBe(500);
    expect(stderr.join("")).toMatch(/answered 203, a success status it does not declare/);
  });

  it("redirect() answers 302 with Location and cookies on a route that declares a redirect, and is refused elsewhere", async () => {
    const ok = route({ summary: "go", tags: ["t"], auth: "public", redirect: "elsewhere" }, async () =>
      redirect("fanapp://x#token=1", { cookies: ["n=; Path=/api/mobile; Max-Age=0"] }),
    );
    const res = await ok(get("/api/go"), noParams);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("fanapp://x#token=1");
    expect(res.headers.get("set-cookie")).toBe("n=; Path=/api/mobile; Max-Age=0");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await res.text()).toBe("");
    const undeclared = route({ summary: "no", tags: ["t"], auth: "public", response: z.object({}) }, async () => redirect("https://evil.example.com"));
    expect((await undeclared(get("/api/no"), noParams)).status).toBe(500);
  });

  it("cache: success answers say Cache-Control from the route; errors stay no-store", async () => {
    const handler = route(
      { summary: "c", tags: ["t"], auth: "public", query: z.object({ fail: z.string().optional() }), cache: { maxAge: 300 }, response: z.object({}) },
      async ({ query }) => {
        if (query.fail) throw new DomainError(sharedErrors.VALIDATION_ERROR, "no");
        return {};
      },
    );
    expect((await handler(get("/api/c"), noParams)).headers.get("cache-control")).toBe("public, max-age=300");
    expect((await handler(get("/api/c?fail=1"), noParams)).headers.get("cache-control")).toBe("no-store");
    const priv = route(
      { summary: "p", tags: ["t"], auth: "public", cache: { maxAge: 60, scope: "private", immutable: true }, response: z.object({}) },
      async () => ({}),
    );
    expect((await priv(get("/api/p"), noParams)).headers.get("cache-control")).toBe("private, max-age=60, immutable");
  });

  it("a handler's own Response passes only on a route that declares one (binary bodies)", async () => {
    const image = route(
      { summary: "img", tags: ["t"], auth: "public", envelope: false, response: z.instanceof(Response) },
      async () => new Response(new Uint8Array([1, 2]), { headers: { "Content-Type": "image/png" } }),
    );
    const res = await image(get("/api/img"), noParams);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const json = route({ summary: "raw", tags: ["t"], auth: "public", response: z.object({}) }, async () => Response.json({}));
    expect((await json(get("/api/raw"), noParams)).status).toBe(500);
  });
});

describe("auth modes cron and webhook", () => {
  const cron = route({ summary: "job", tags: ["t"], auth: "cron", response: z.object({ ran: z.literal(true) }) }, async () => ({ ran: true as const }));

  it("cron: exactly Authorization: Bearer <CRON_SECRET>", async () => {
    expect((await cron(get("/api/cron/job", { authorization: "Bearer cron-secret-for-pipeline-tests" }), noParams)).status).toBe(200);
    for (const authorization of [undefined, "Bearer cron-secret-for-pipeline-test", "cron-secret-for-pipeline-tests", "Basic cron-secret-for-pipeline-tests"]) {
      const res = await cron(get("/api/cron/job", authorization ? { authorization } : {}), noParams);
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("UNAUTHORIZED");
    }
  });

  const hook = route(
    {
      summary: "hook",
      tags: ["t"],
      auth: "webhook",
      webhook: { secret: "LEAGUES_SYNC_WEBHOOK_SECRET" },
      body: z.object({ n: z.number() }),
      bodyRequired: false,
      bodyLimit: 64,
      response: z.object({ id: z.string(), n: z.number().nullable() }),
    },
    async ({ body, delivery }) => ({ id: delivery.id, n: body?.n ?? null }),
  );
  const post = (body: string, signature?: string) =>
    hook(new Request("http://x/api/webhooks/hook", { method: "POST", body, headers: signature ? { "x-signature": signature } : {} }), noParams);

  it("webhook: the signature over the raw body is checked before the body is parsed; the handler gets the delivery", async () => {
    const body = '{"n":1}';
    const signature = signWebhook("whsec-for-pipeline-tests", body);
    const ok = await post(body, signature);
    expect(ok.status).toBe(200);
    expect((await ok.json()).data).toEqual({ id: signature.split("v1=")[1], n: 1 });
    expect((await post("", signWebhook("whsec-for-pipeline-tests", ""))).status).toBe(200);
    expect((await post(body)).status).toBe(401);
    expect((await post(body, signWebhook("another-secret-0000", body))).status).toBe(401);
    expect((await post('{"n":"x"}', signWebhook("whsec-for-pipeline-tests", '{"n":"x"}'))).status).toBe(400);
    const big = JSON.stringify({ n: 1, pad: "x".repeat(100) });
    expect((await post(big, signWebhook("whsec-for-pipeline-tests", big))).status).toBe(413);
  });

  it("a webhook route must name its secret", () => {
    expect(() => route({ summary: "bad", tags: ["t"], auth: "webhook", response: z.object({}) } as never, async () => ({}))).toThrow(/webhook.secret/);
  });
});

describe("undocumented error codes", () => {
  it("a DomainError whose code the route does not document logs one error line naming route, method and code; a documented one does not", async () => {
    const handler = route(
      { summary: "quota", tags: ["t"], auth: "public", query: z.object({ which: z.string() }), response: z.object({}), errors: [sharedErrors.NOT_FOUND] },
      async ({ query }) => {
        if (query.which === "documented") throw new DomainError(sharedErrors.NOT_FOUND, "gone");
        if (query.which === "implied") throw new DomainError(sharedErrors.VALIDATION_ERROR, "bad");
        throw new DomainError(uploadsErrors.UPLOAD_QUOTA_EXCEEDED, "full");
      },
    );
    expect((await handler(get("/api/quota?which=documented"), noParams)).status).toBe(404);
    expect((await handler(get("/api/quota?which=implied"), noParams)).status).toBe(400);
    expect(stderr.join("")).not.toContain(UNDOCUMENTED_ERROR_CODE);
    expect((await handler(get("/api/quota?which=other"), noParams)).status).toBe(429);
    const lines = stderr
      .join("")
      .split("\n")
      .filter((l) => l.includes(UNDOCUMENTED_ERROR_CODE));
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: "error", msg: "undocumented error code", route: "/api/quota", method: "GET", code: "UPLOAD_QUOTA_EXCEEDED" }),
    ]);
  });

  it("the test harness fails the run on such a line (and only reports other errors)", async () => {
    const handler = route({ summary: "s", tags: ["t"], auth: "public", response: z.object({}) }, async () => {
      throw new DomainError(usersErrors.USERNAME_TAKEN, "taken");
    });
    await handler(get("/api/s"), noParams);
    const logs = ['{"level":"error","msg":"unhandled error"}', ...stderr].join("\n");
    const verdict = judgeServerLog(logs, { reportLine: (l) => l.includes('"unhandled error"'), failLine: (l) => l.includes(UNDOCUMENTED_ERROR_CODE) });
    expect(verdict.reported).toHaveLength(1);
    expect(verdict.failures).toHaveLength(1);
    expect(failureOf("server", verdict.failures)?.message).toMatch(/GET \/api\/s \(s\): USERNAME_TAKEN/);
    expect(failureOf("server", [])).toBeNull();
  });
});

describe("CORS", () => {
  const handlers = methods({
    GET: route({ summary: "g", tags: ["t"], auth: "bearer", response: z.object({}) }, async () => ({})),
    DELETE: route({ summary: "d", tags: ["t"], auth: "bearer", response: z.object({}) }, async () => ({})),
  });
  const preflight = (origin: string) =>
    handlers.OPTIONS(
      new Request("http://x/api/c", {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "DELETE", "access-control-request-headers": "authorization" },
      }),
      noParams,
    );

  it("a preflight from an allowed origin gets the path's methods, the client headers and a max age", async () => {
    const res = await preflight("https://app.example.com");
    expect(res.status).toBe(204);
    expect(Object.fromEntries([...res.headers].filter(([k]) => k.startsWith("access-control-") || k === "vary" || k === "allow"))).toEqual({
      allow: "GET, DELETE, HEAD, OPTIONS",
      vary: "Origin",
      "access-control-allow-origin": "https://app.example.com",
      "access-control-allow-methods": "GET, DELETE, HEAD, OPTIONS",
      "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key, X-Request-Id",
      "access-control-max-age": "600",
    });
  });

  it("another origin gets no CORS headers, on preflight, answer and error alike", async () => {
    const pre = await preflight("https://evil.example.com");
    expect([...pre.headers.keys()].filter((k) => k.startsWith("access-control-"))).toEqual([]);
    const res = await handlers.GET(get("/api/c", { origin: "https://evil.example.com" }), noParams);
    expect(res.status).toBe(401);
    expect([...res.headers.keys()].filter((k) => k.startsWith("access-control-"))).toEqual([]);
    expect(res.headers.get("vary")).toBe("Origin");
  });

  it("an allowed origin's errors and 405s carry the origin and expose the request id and rate-limit headers", async () => {
    const res = await handlers.GET(get("/api/c", { origin: "https://app.example.com" }), noParams);
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(res.headers.get("access-control-expose-headers")).toBe(
      "X-Request-Id, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Deprecation, Link",
    );
    const notAllowed = await handlers.POST(new Request("http://x/api/c", { method: "POST", headers: { origin: "https://app.example.com" } }), noParams);
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
  });
});

describe("anonymousCache: callers without a session share answers", () => {
  const sharedRoute = (answer: (calls: number) => Promise<unknown>) => {
    let calls = 0;
    const handler = route(
      {
        summary: `shared ${Math.random()}`,
        tags: ["t"],
        auth: "optional",
        rateLimit: false,
        anonymousCache: true,
        query: z.object({ q: z.string().optional() }),
        response: z.object({ n: z.number() }),
        errors: [sharedErrors.NOT_FOUND],
      },
      async () => answer(++calls),
    );
    return { handler, calls: () => calls };
  };
  const get = (path: string) => new Request(`http://x${path}`);

  it("one answer per path and query within the TTL, with each request's own id; concurrent misses run the handler once", async () => {
    const path = `/api/shared-${randomUUID()}`;
    const { handler, calls } = sharedRoute(async (n) => {
      await new Promise((r) => setTimeout(r, 20));
      return { n };
    });
    const first = await Promise.all(Array.from({ length: 10 }, () => handler(get(path), noParams)));
    expect(calls()).toBe(1);
    const again = await handler(get(path), noParams);
    for (const res of [...first, again]) expect(await res.json()).toEqual({ success: true, data: { n: 1 } });
    expect(new Set([...first, again].map((r) => r.headers.get("x-request-id"))).size).toBe(11);
    expect(again.headers.get("content-type")).toMatch(/application\/json/);
    expect(again.headers.get("cache-control")).toBe("no-store");
    expect(await (await handler(get(`${path}?q=other`), noParams)).json()).toEqual({ success: true, data: { n: 2 } });
    expect(calls()).toBe(2);
  });

  it("the answer is built again after the TTL (1 s by default)", async () => {
    const path = `/api/shared-${randomUUID()}`;
    const { handler } = sharedRoute(async (n) => ({ n }));
    await handler(get(path), noParams);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 900);
      expect(await (await handler(get(path), noParams)).json()).toEqual({ success: true, data: { n: 1 } });
      vi.setSystemTime(Date.now() + 200);
      expect(await (await handler(get(path), noParams)).json()).toEqual({ success: true, data: { n: 2 } });
    } finally {
      vi.useRealTimers();
    }
  });

  it("errors are never shared: the next request runs the handler again", async () => {
    const path = `/api/shared-${randomUUID()}`;
    const { handler, calls } = sharedRoute(async (n) => {
      if (n === 1) throw new DomainError(sharedErrors.NOT_FOUND, "not yet");
      return { n };
    });
    expect((await handler(get(path), noParams)).status).toBe(404);
    expect(await (await handler(get(path), noParams)).json()).toEqual({ success: true, data: { n: 2 } });
    expect(calls()).toBe(2);
  });

  it("invalid queries are refused before the cache, and a bearer caller is verified, never served the shared answer", async () => {
    const path = `/api/shared-${randomUUID()}`;
    const { handler, calls } = sharedRoute(async (n) => ({ n }));
    await handler(get(path), noParams);
    expect((await handler(get(`${path}?q=a&q=b`), noParams)).status).toBe(400);
    const forged = await handler(new Request(`http://x${path}`, { headers: { authorization: "Bearer not-a-token" } }), noParams);
    expect(forged.status).toBe(401);
    expect(calls()).toBe(1);
  });
});
