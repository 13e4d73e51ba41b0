import { createHash, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { purgeMobileTokens } from "../../lib/features/mobile/service";
import { api, db, errorOf, newUser, token } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";
import { APP, control, raw } from "./mobile-fixtures";

// The mobile sign-in: GET /api/mobile/start and /callback, POST /api/mobile/exchange, and the cron that purges its
// one-time tokens. The purge counts every token past its 10 minutes, so it runs here, just after the only tests that
// make tokens. The session routes, the version check and the wallet callback are in mobile-session.test.ts.

const { cronSecret } = inject("fixtures").sync as { cronSecret: string };
const ip = () => ({ "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250)}, ${randomUUID()}`.split(",")[1]!.trim() });

const sha256hex = (t: string) => createHash("sha256").update(t).digest("hex");

/** A PKCE pair (RFC 7636): a 43-character verifier and its S256 challenge. */
function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Resolves once the stand-in has received a sign-in-token call for `sub` (answered or held). */
async function providerCalled(sub: string) {
  for (let i = 0; i < 200; i++) {
    const calls = (await control("calls", undefined, "GET")) as { path: string; body: { user_id?: string } }[];
    if (calls.some((c) => c.path === "/v1/sign_in_tokens" && c.body?.user_id === sub)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the identity provider was never called for ${sub}`);
}

/** Runs start, then callback with the session of `sub`; returns the callback's Location. */
async function signIn(sub: string, opts: { redirect?: string; nonce?: string; session?: string | null; challenge?: string } = {}) {
  const pkce = opts.challenge ? `&code_challenge=${opts.challenge}&code_challenge_method=S256` : "";
  const start = await raw(`/api/mobile/start?provider=google&redirect_uri=${encodeURIComponent(opts.redirect ?? APP)}${pkce}`, ip());
  expect(start.status).toBe(302);
  const signInUrl = new URL(start.headers.get("location")!);
  const callback = new URL(signInUrl.searchParams.get("redirect_url")!);
  const nonce = /mobile_oauth_nonce=([^;]+)/.exec(start.headers.get("set-cookie") ?? "")![1]!;
  const cookies = [`mobile_oauth_nonce=${opts.nonce ?? nonce}`];
  const session = opts.session === undefined ? token(sub) : opts.session;
  if (session) cookies.push(`__session=${session}`);
  const res = await raw(`${callback.pathname}${callback.search}`, { cookie: cookies.join("; ") });
  return { res, location: res.headers.get("location") ?? "", state: callback.searchParams.get("state")! };
}

async function mobileToken(sub: string, challenge?: string): Promise<string> {
  const { location } = await signIn(sub, { challenge });
  const m = /#token=([0-9a-f]{128})$/.exec(location);
  expect(m, location).not.toBeNull();
  return m![1]!;
}

const exchange = (t: unknown, headers: Record<string, string> = ip(), extra: Record<string, unknown> = {}) =>
  api("POST", "/api/mobile/exchange", { headers, json: { token: t, ...extra } });
const exchangeWithVerifier = (t: string, verifier: unknown) => exchange(t, ip(), { code_verifier: verifier });

describe("GET /api/mobile/start", () => {
  it("redirects to the provider's sign-in with a signed state and sets a nonce cookie", async () => {
    const res = await raw(`/api/mobile/start?provider=apple&redirect_uri=${encodeURIComponent(APP)}`, ip());
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("https://accounts.example.com/sign-in");
    expect(location.searchParams.get("strategy")).toBe("oauth_apple");
    const callback = new URL(location.searchParams.get("redirect_url")!);
    expect(`${callback.origin}${callback.pathname}`).toBe("https://api.example.com/api/mobile/callback");
    expect(callback.searchParams.get("state")).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(res.headers.get("set-cookie")).toMatch(/^mobile_oauth_nonce=[\w-]+; Path=\/api\/mobile; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
  });

  it.each([
    ["not in the allow-list", "https://evil.example.com/cb"],
    ["a prefix of an allowed URI", "fanapp://auth/callback.evil"],
    ["an allowed URI with extra path", "fanapp://auth/callback/x"],
    ["an allowed URI with a query", "fanapp://auth/callback?x=1"],
  ])("refuses a redirect_uri %s with a 400 JSON error, never a redirect", async (_label, uri) => {
    const res = await api("GET", `/api/mobile/start?provider=google&redirect_uri=${encodeURIComponent(uri)}`, { headers: ip() });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(res.body.error).toEqual({
      code: "VALIDATION_ERROR",
      message: expect.any(String),
      details: [{ path: "query.redirect_uri", message: "Not in the allow-list" }],
    });
  });

  it("accepts a PKCE S256 code_challenge and carries it to the minted token", async () => {
    const { sub } = newUser();
    const { challenge } = pkcePair();
    await mobileToken(sub, challenge);
    const user = await db().user.findUniqueOrThrow({ where: { externalId: sub } });
    const rows = await db().mobileSessionToken.findMany({ where: { userId: user.id } });
    expect(rows.map((r) => r.codeChallenge)).toEqual([challenge]);
  });

  it.each([
    ["method plain", (c: string) => `code_challenge=${c}&code_challenge_method=plain`, "query.code_challenge_method"],
    ["an unknown method", (c: string) => `code_challenge=${c}&code_challenge_method=S512`, "query.code_challenge_method"],
    ["no method (RFC 7636 would mean plain)", (c: string) => `code_challenge=${c}`, "query.code_challenge_method"],
    ["a method without a challenge", () => "code_challenge_method=S256", "query.code_challenge"],
    ["a challenge of 42 characters", (c: string) => `code_challenge=${c.slice(1)}&code_challenge_method=S256`, "query.code_challenge"],
    ["a challenge that is not base64url", (c: string) => `code_challenge=${c.slice(1)}%2B&code_challenge_method=S256`, "query.code_challenge"],
  ])("refuses PKCE with %s: 400, never a redirect", async (_label, params, path) => {
    const res = await api("GET", `/api/mobile/start?provider=google&redirect_uri=${encodeURIComponent(APP)}&${params(pkcePair().challenge)}`, {
      headers: ip(),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details!.map((d) => d.path)).toContain(path);
  });

  it("refuses an unknown provider and missing parameters", async () => {
    const res = await api("GET", `/api/mobile/start?provider=myspace&redirect_uri=${encodeURIComponent(APP)}`, { headers: ip() });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toEqual([{ path: "query.provider", message: "Not a configured provider" }]);
    const missing = await api("GET", "/api/mobile/start", { headers: ip() });
    expect(missing.status).toBe(400);
    expect(
      errorOf(missing)
        .details!.map((d) => d.path)
        .sort(),
    ).toEqual(["query.provider", "query.redirect_uri"]);
  });
});

describe("GET /api/mobile/callback", () => {
  it("mints a one-time token into the URL fragment and stores only its hash", async () => {
    const { sub } = newUser();
    const { res, location } = await signIn(sub);
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("set-cookie")).toContain("mobile_oauth_nonce=; Path=/api/mobile; Max-Age=0");
    const t = /^fanapp:\/\/auth\/callback#token=([0-9a-f]{128})$/.exec(location)![1]!;
    const user = await db().user.findUniqueOrThrow({ where: { externalId: sub } });
    const rows = await db().mobileSessionToken.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash("sha256").update(t).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(t);
    expect(rows[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(rows[0]!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
  });

  it("answers the other allowed redirect URI it was started with", async () => {
    const { location } = await signIn(newUser().sub, { redirect: "https://app.example.com/mobile/callback" });
    expect(location).toMatch(/^https:\/\/app\.example\.com\/mobile\/callback#token=[0-9a-f]{128}$/);
  });

  it("redirects with #error for a nonce mismatch, no session or an invalid session", async () => {
    expect((await signIn(newUser().sub, { nonce: "other" })).location).toBe(`${APP}#error=state_mismatch`);
    expect((await signIn(newUser().sub, { session: null })).location).toBe(`${APP}#error=not_signed_in`);
    expect((await signIn(newUser().sub, { session: "not.a.jwt" })).location).toBe(`${APP}#error=not_signed_in`);
    expect((await signIn(newUser().sub, { session: token("user_expired", { ttlSeconds: -60 }) })).location).toBe(`${APP}#error=not_signed_in`);
  });

  it("passes a provider error back to the app", async () => {
    const { state } = await signIn(newUser().sub);
    const res = await raw(`/api/mobile/callback?state=${encodeURIComponent(state)}&error=access_denied`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${APP}#error=access_denied`);
  });

  it("is rate-limited per user: past the limit the app gets #error=rate_limited and no token; other users are unaffected", async () => {
    const { sub } = newUser();
    await awayFromWindowEdge();
    for (let i = 0; i < 10; i++) expect((await signIn(sub)).location).toMatch(/#token=[0-9a-f]{128}$/);
    const refused = await signIn(sub);
    expect(refused.res.status).toBe(302);
    expect(refused.location).toBe(`${APP}#error=rate_limited`);
    const user = await db().user.findUniqueOrThrow({ where: { externalId: sub } });
    expect(await db().mobileSessionToken.count({ where: { userId: user.id } })).toBe(10);
    expect((await signIn(newUser().sub)).location).toMatch(/#token=[0-9a-f]{128}$/);
  });

  it("answers 400 JSON for a missing or forged state (no trusted redirect)", async () => {
    const missing = await api("GET", "/api/mobile/callback");
    expect(missing.status).toBe(400);
    expect(errorOf(missing).details).toEqual([{ path: "query.state", message: "Invalid or expired state" }]);
    const { state } = await signIn(newUser().sub);
    const [body] = state.split(".");
    const payload = JSON.parse(Buffer.from(body!, "base64url").toString());
    const forgedBody = Buffer.from(JSON.stringify({ ...payload, redirectUri: "https://evil.example.com" })).toString("base64url");
    const forged = await api("GET", `/api/mobile/callback?state=${forgedBody}.${state.split(".")[1]}`);
    expect(forged.status).toBe(400);
    expect(forged.headers.get("location")).toBeNull();
  });
});

describe("POST /api/mobile/exchange", () => {
  it("returns a sign-in ticket once; a second exchange of the same token is 401", async () => {
    const { sub } = newUser();
    const t = await mobileToken(sub);
    const first = await exchange(t);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: { ticket: expect.stringMatching(/^ticket_/), expiresAt: expect.any(String) } });
    const ttl = Date.parse(first.body.data.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    const calls = (await control("calls", undefined, "GET")) as { path: string; body: { user_id: string; expires_in_seconds: number } }[];
    expect(calls.filter((c) => c.path === "/v1/sign_in_tokens" && c.body.user_id === sub)).toEqual([
      { method: "POST", path: "/v1/sign_in_tokens", body: { user_id: sub, expires_in_seconds: 600 } },
    ]);
    const second = await exchange(t);
    expect(second.status).toBe(401);
    expect(second.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });

  it("accepts the token as a Bearer credential, in either letter case", async () => {
    const t = await mobileToken(newUser().sub);
    const res = await api("POST", "/api/mobile/exchange", { headers: { ...ip(), authorization: `Bearer ${t.toUpperCase()}` } });
    expect(res.status).toBe(200);
  });

  it.each([
    ["too short", "ab".repeat(63)],
    ["too long", "ab".repeat(65)],
    ["not hex", "zz".repeat(64)],
    ["a number", 12345],
    ["empty", ""],
  ])("a token that is %s is 400 VALIDATION_ERROR", async (_label, t) => {
    const res = await exchange(t);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details![0]!.path).toBe("body.token");
  });

  it("a malformed Bearer token, or none at all, is 400", async () => {
    const bad = await api("POST", "/api/mobile/exchange", { headers: { ...ip(), authorization: "Bearer xyz" } });
    expect(bad.status).toBe(400);
    const none = await api("POST", "/api/mobile/exchange", { headers: ip() });
    expect(none.status).toBe(400);
    expect(errorOf(none).code).toBe("VALIDATION_ERROR");
  });

  it("an unknown or expired token is 401", async () => {
    expect((await exchange(randomBytes(64).toString("hex"))).status).toBe(401);
    const { sub } = newUser();
    const t = await mobileToken(sub);
    await db().mobileSessionToken.updateMany({
      where: { tokenHash: createHash("sha256").update(t).digest("hex") },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await exchange(t)).status).toBe(401);
  });

  it("a provider failure is 502 UPSTREAM_ERROR and does not burn the token", async () => {
    const { sub } = newUser();
    const t = await mobileToken(sub);
    await control("fail", { userId: sub });
    const failed = await exchange(t);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ success: false, error: { code: "UPSTREAM_ERROR", message: expect.any(String) } });
    await control("recover", { userId: sub });
    const retry = await exchange(t);
    expect(retry.status).toBe(200);
  });

  it("holds no transaction or row lock while the identity provider answers", async () => {
    const { sub } = newUser();
    const t = await mobileToken(sub);
    await control("hold", { userId: sub });
    const pending = exchange(t);
    try {
      await providerCalled(sub);
      // Another connection locks the token row at once: the exchange keeps no transaction open across the call.
      const locked = await db().$queryRaw<{ consumed: boolean }[]>`
        SELECT consumed_at IS NOT NULL AS consumed FROM mobile_session_tokens WHERE token_hash = ${sha256hex(t)} FOR UPDATE NOWAIT`;
      expect(locked).toEqual([{ consumed: true }]);
      // The token is already spent (committed): a second exchange is refused at once instead of waiting.
      expect((await exchange(t)).status).toBe(401);
    } finally {
      await control("release", { userId: sub });
    }
    expect((await pending).status).toBe(200);
  });

  it("a provider that does not answer in time is 504 UPSTREAM_TIMEOUT and gives the token back", async () => {
    const { sub } = newUser();
    const t = await mobileToken(sub);
    await control("hold", { userId: sub });
    const started = Date.now();
    let timedOut;
    try {
      timedOut = await exchange(t);
    } finally {
      await control("release", { userId: sub });
    }
    expect(timedOut.status).toBe(504);
    expect(timedOut.body).toEqual({ success: false, error: { code: "UPSTREAM_TIMEOUT", message: expect.any(String) } });
    expect(Date.now() - started).toBeLessThan(9_000);
    expect((await exchange(t)).status).toBe(200);
  });

  it("a token that expires while the provider fails is not given back", async () => {
    const { sub } = newUser();
    const t = await mobileToken(sub);
    await control("hold", { userId: sub });
    const pending = exchange(t);
    let failed;
    try {
      await providerCalled(sub);
      await db().mobileSessionToken.update({ where: { tokenHash: sha256hex(t) }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await control("fail", { userId: sub });
    } finally {
      await control("release", { userId: sub });
      failed = await pending;
      await control("recover", { userId: sub });
    }
    expect(failed.status).toBe(502);
    const row = await db().mobileSessionToken.findUniqueOrThrow({ where: { tokenHash: sha256hex(t) } });
    expect(row.consumedAt).not.toBeNull();
  });

  it("20 concurrent exchanges of one token: exactly one succeeds", async () => {
    const t = await mobileToken(newUser().sub);
    const headers = ip();
    const results = await Promise.all(Array.from({ length: 20 }, () => exchange(t, headers)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(19);
  });

  it("PKCE: the right code_verifier redeems the token, in the body or beside a Bearer token", async () => {
    const { sub } = newUser();
    const { verifier, challenge } = pkcePair();
    const t = await mobileToken(sub, challenge);
    const ok = await exchangeWithVerifier(t, verifier);
    expect(ok.status).toBe(200);
    expect(ok.body.data.ticket).toMatch(/^ticket_/);
    expect((await exchangeWithVerifier(t, verifier)).status).toBe(401);

    const second = pkcePair();
    const t2 = await mobileToken(newUser().sub, second.challenge);
    const bearer = await api("POST", "/api/mobile/exchange", { headers: { ...ip(), authorization: `Bearer ${t2}` }, json: { code_verifier: second.verifier } });
    expect(bearer.status).toBe(200);
  });

  it("PKCE: a missing or wrong code_verifier is 401 and does not burn the token", async () => {
    const { sub } = newUser();
    const { verifier, challenge } = pkcePair();
    const t = await mobileToken(sub, challenge);
    const missing = await exchange(t);
    expect(missing.status).toBe(401);
    expect(errorOf(missing)).toEqual({ code: "UNAUTHORIZED", message: expect.stringMatching(/code_verifier/) });
    const wrong = await exchangeWithVerifier(t, pkcePair().verifier);
    expect(wrong.status).toBe(401);
    const challengeItself = await exchangeWithVerifier(t, challenge); // what a `plain` client would send
    expect(challengeItself.status).toBe(401);
    const row = await db().mobileSessionToken.findUniqueOrThrow({ where: { tokenHash: sha256hex(t) } });
    expect(row.consumedAt).toBeNull();
    expect((await exchangeWithVerifier(t, verifier)).status).toBe(200);
  });

  it("PKCE: 20 concurrent exchanges with the right verifier: exactly one succeeds", async () => {
    const { verifier, challenge } = pkcePair();
    const t = await mobileToken(newUser().sub, challenge);
    const headers = ip();
    const results = await Promise.all(Array.from({ length: 20 }, () => exchange(t, headers, { code_verifier: verifier })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(19);
  });

  it("legacy tokens (no challenge) redeem without a verifier, but refuse one (no PKCE downgrade)", async () => {
    const t = await mobileToken(newUser().sub);
    const withVerifier = await exchangeWithVerifier(t, pkcePair().verifier);
    expect(withVerifier.status).toBe(401);
    expect((await exchange(t)).status).toBe(200);
  });

  it.each([
    ["too short", "a".repeat(42)],
    ["too long", "a".repeat(129)],
    ["not of the unreserved characters", "a".repeat(42) + "+"],
    ["a number", 123],
  ])("a code_verifier that is %s is 400 VALIDATION_ERROR", async (_label, verifier) => {
    const res = await exchangeWithVerifier(randomBytes(64).toString("hex"), verifier);
    expect(res.status).toBe(400);
    expect(errorOf(res).details![0]!.path).toBe("body.code_verifier");
  });

  it("is rate-limited per client address", async () => {
    const headers = ip();
    await awayFromWindowEdge();
    const results = [];
    for (let i = 0; i < 21; i++) results.push(await exchange(randomBytes(64).toString("hex"), headers));
    expect(results.slice(0, 20).every((r) => r.status === 401)).toBe(true);
    expect(results[20]!.status).toBe(429);
    expect(errorOf(results[20]!).code).toBe("RATE_LIMITED");
    expect(Number(results[20]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("GET /api/cron/mobile-tokens", () => {
  const cron = (authorization?: string) => api("GET", "/api/cron/mobile-tokens", { headers: authorization === undefined ? {} : { authorization } });
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

  async function arrange() {
    const { sub } = newUser();
    const user = await db().user.create({ data: { externalId: sub } });
    const row = (name: string, expiresAt: Date, consumedAt: Date | null = null) => ({
      tokenHash: sha256hex(`${sub}:${name}`),
      userId: user.id,
      redirectUri: APP,
      expiresAt,
      consumedAt,
    });
    const rows = {
      expiredLongAgo: row("expiredLongAgo", minutesAgo(60)),
      consumedLongAgo: row("consumedLongAgo", minutesAgo(20), minutesAgo(24)),
      justExpired: row("justExpired", minutesAgo(1)),
      justConsumed: row("justConsumed", minutesAgo(-4), minutesAgo(1)),
      live: row("live", minutesAgo(-5)),
    };
    await db().mobileSessionToken.createMany({ data: Object.values(rows) });
    const left = async () =>
      (await db().mobileSessionToken.findMany({ where: { userId: user.id } }))
        .map((r) => Object.entries(rows).find(([, v]) => v.tokenHash === r.tokenHash)![0])
        .sort();
    return { left };
  }

  it.each([
    ["no header", undefined],
    ["another secret", "Bearer not-the-cron-secret-000"],
    ["the bare secret", cronSecret],
    ["a session token", newUser().auth.authorization],
  ])("401 with %s, and nothing is deleted", async (_label, authorization) => {
    const { left } = await arrange();
    const res = await cron(authorization);
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
    expect(await left()).toHaveLength(5);
  });

  it("deletes tokens that expired or were consumed more than 10 minutes ago and answers { deleted }", async () => {
    const { left } = await arrange();
    const res = await cron(`Bearer ${cronSecret}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { deleted: expect.any(Number) } });
    expect(res.body.data.deleted).toBeGreaterThanOrEqual(2);
    expect(await left()).toEqual(["justConsumed", "justExpired", "live"]);
    expect((await cron(`Bearer ${cronSecret}`)).body.data).toEqual({ deleted: 0 });
  });

  it("works in bounded batches", async () => {
    const a = await arrange();
    const b = await arrange();
    const c = await arrange();
    expect(await purgeMobileTokens(db(), { batchSize: 2, maxBatches: 2 })).toBe(4);
    expect(await purgeMobileTokens(db(), { batchSize: 2, maxBatches: 2 })).toBe(2);
    expect(await purgeMobileTokens(db(), { batchSize: 2, maxBatches: 2 })).toBe(0);
    for (const { left } of [a, b, c]) expect(await left()).toEqual(["justConsumed", "justExpired", "live"]);
  });

  it("is scheduled in vercel.json and documented only in the internal document", async () => {
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string; schedule: string }[] };
    expect(crons).toContainEqual({ path: "/api/cron/mobile-tokens", schedule: expect.any(String) });
    expect((await api("GET", "/api/openapi.json")).body.paths["/api/cron/mobile-tokens"]).toBeUndefined();
    const internal = await api("GET", "/api/admin/openapi.json", { headers: newUser({ admin: true }).auth });
    expect(internal.body.paths["/api/cron/mobile-tokens"].get.description).toMatch(/Bearer <CRON_SECRET>/);
  });
});
