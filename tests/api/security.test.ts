import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { api, baseUrl, errorOf, newUser, startProductionServer, token } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";

// Regression tests of the security review's findings on the pipeline, session tokens and start-up.

const nested = (depth: number) => `{"token":${"[".repeat(depth)}${"]".repeat(depth)}}`;

describe("deeply nested JSON", () => {
  it("a body nested 8,000 deep (16 KiB) on a public route is a 400 that names the limit, quickly", async () => {
    const body = nested(8_000);
    expect(body.length).toBeLessThan(16 * 1024);
    const started = performance.now();
    const res = await api("POST", "/api/mobile/exchange", {
      body,
      headers: { "content-type": "application/json", "x-forwarded-for": `198.18.0.${Math.floor(Math.random() * 250)}` },
    });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details).toEqual([{ path: expect.stringMatching(/^body\.token(\.0)+$/), message: "Nested more than 32 levels deep" }]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("nesting up to the limit is still read (and then validated as usual)", async () => {
    const { auth } = newUser();
    const res = await api("PATCH", "/api/user/settings", {
      headers: { ...auth, "content-type": "application/json" },
      body: `{"a":${"[".repeat(31)}${"]".repeat(31)}}`,
    });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toContainEqual({ path: "body.a", message: "Unknown field" });
    expect(JSON.stringify(errorOf(res).details)).not.toMatch(/Nested/);
  });
});

describe("client address for IP rate limits (TRUSTED_PROXY_HOPS=2 here)", () => {
  it("a client rotating the left of X-Forwarded-For does not get fresh buckets", async () => {
    const client = `2001:db8::${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`; // no other test uses this range
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await api("GET", `/api/user/check-username?username=rot_${randomUUID().slice(0, 8)}`, {
        headers: { "x-forwarded-for": `10.${i}.${i}.${i}, 203.0.113.${i + 1}, ${client}, 192.0.2.1` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});

describe("session token claims", () => {
  const sub = () => `user_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const get = (t: string) => api("GET", "/api/user", { headers: { authorization: `Bearer ${t}` } });

  it("a token without sid is not a session token: 401", async () => {
    const res = await get(token(sub(), { extra: { sid: undefined } }));
    expect(res.status).toBe(401);
    expect(errorOf(res).message).toMatch(/sid/);
    expect((await get(token(sub(), { extra: { sid: "" } }))).status).toBe(401);
  });

  it("a NUL in any string claim (sub, sid, metadata) or a subject past 255 characters is 401, to the API and the console", async () => {
    const nul = `user_${randomUUID().slice(0, 8)}\u0000x`;
    const tokens = [
      token(nul),
      token(sub(), { extra: { sid: "sess_\u0000" } }),
      token(sub(), { extra: { azp: "https://app.example.com\u0000" } }),
      token(sub(), { extra: { metadata: { role: "admin\u0000", note: ["\u0000"] } } }),
      token(`user_${"x".repeat(3_000)}`),
    ];
    for (const t of tokens) {
      const res = await get(t);
      expect(res.status, res.text).toBe(401);
      expect(errorOf(res).code).toBe("UNAUTHORIZED");
      // The console reads the same token from its session cookie: a sign-in bounce, never a 500.
      const page = await fetch(`${baseUrl}/admin`, { redirect: "manual", headers: { cookie: `__session=${t}` } });
      expect([303, 307, 308]).toContain(page.status);
    }
    expect((await get(token(sub()))).status).toBe(200);
  });

  it("a token from another issuer is 401, even signed with our key", async () => {
    for (const iss of ["https://clerk.evil.example.com", undefined, "https://clerk.local.dev/"]) {
      const res = await get(token(sub(), { extra: { iss } }));
      expect(res.status).toBe(401);
    }
    expect((await get(token(sub()))).status).toBe(200);
  });
});

describe("security headers", () => {
  it("API answers (success, error, 405, OPTIONS) say nosniff, no framing, no referrer", async () => {
    const answers = [
      await fetch(`${baseUrl}/api/health`),
      await fetch(`${baseUrl}/api/user`),
      await fetch(`${baseUrl}/api/health`, { method: "DELETE" }),
      await fetch(`${baseUrl}/api/health`, { method: "OPTIONS" }),
      await fetch(`${baseUrl}/api/no-such-path`),
    ];
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });

  it("pages (docs, console sign-in bounce) may not be framed", async () => {
    for (const path of ["/docs", "/admin"]) {
      const res = await fetch(`${baseUrl}${path}`, { redirect: "manual" });
      expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  it("the console refuses a staff session whose azp is not an authorized party", async () => {
    const staff = (extra: Record<string, unknown>) => signSessionToken(inject("privateKey"), `user_staff_${randomUUID().slice(0, 8)}`, { admin: true, extra });
    for (const extra of [{}, { azp: "https://evil.example.com" }]) {
      const res = await fetch(`${baseUrl}/admin`, { redirect: "manual", headers: { cookie: `__session=${staff(extra)}` } });
      expect([303, 307, 308]).toContain(res.status);
      expect(res.headers.get("location")).toMatch(/^https:\/\/accounts\.example\.com\/sign-in/);
    }
    const ok = await fetch(`${baseUrl}/admin`, { redirect: "manual", headers: { cookie: `__session=${staff({ azp: "https://admin.example.com" })}` } });
    expect(ok.status).toBe(200);
  });
});

describe("console and account server actions", () => {
  // A server action's POST (Next-Action names it; the body is its encoded arguments). The id need not exist: the
  // origin is checked before the action is looked up.
  const action = (path: string, headers: Record<string, string>, body: BodyInit = "[]") =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "next-action": "7f".padEnd(42, "0"), "content-type": "text/plain;charset=UTF-8", ...headers },
      body,
    });

  it("a cross-origin one (foreign, null or malformed Origin; Next-Action or a multipart form) is 403, never 500", async () => {
    for (const path of ["/admin", "/admin/users", "/account/delete"]) {
      for (const origin of ["https://evil.example.com", "null", "::not a url::", `${baseUrl}.evil.example.com`]) {
        const res = await action(path, { origin });
        expect(res.status, `${path} from ${origin}`).toBe(403);
        expect(await res.json()).toMatchObject({ success: false, error: { code: "FORBIDDEN" } });
      }
      const form = new FormData();
      form.set("reason", "x");
      const mpa = await fetch(`${baseUrl}${path}`, { method: "POST", redirect: "manual", headers: { origin: "https://evil.example.com" }, body: form });
      expect(mpa.status, `${path} multipart`).toBe(403);
    }
  });

  it("a same-origin one, or one without Origin (not a browser), still reaches Next", async () => {
    for (const headers of [{ origin: new URL(baseUrl).origin }, {}] as Record<string, string>[]) {
      const res = await action("/admin", headers);
      expect(res.status).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe("production start-up", () => {
  it("a production server missing a required secret stops at start-up, naming it", { timeout: 30_000 }, async () => {
    const { code, output } = await startProductionServer({
      DATABASE_URL: inject("databaseUrl"),
      CLERK_JWT_KEY: inject("publicKey"),
      CLERK_ISSUER: "https://clerk.example.com",
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
      MOBILE_STATE_SECRET: "x".repeat(32),
    });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(output).toMatch(/CLERK_SECRET_KEY is required in production/);
  });
});
