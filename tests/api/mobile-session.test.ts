import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, errorOf, newUser, token } from "../helpers";
import { APP, control, raw } from "./mobile-fixtures";

// The session routes (verify, the deprecated native-token, validate, logout), the app's version check and the wallet
// callback.

describe("session routes", () => {
  it("GET /api/mobile/verify describes the session; 401 without one", async () => {
    const { sub, auth } = newUser();
    const res = await api("GET", "/api/mobile/verify", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true,
      userId: expect.any(String),
      externalId: sub,
      sessionId: `sess_${sub}`,
      role: "fan",
      expiresAt: expect.any(String),
    });
    expect((await api("GET", "/api/mobile/verify")).status).toBe(401);
  });

  it("POST /api/auth/native-token mints a ticket for the caller (deprecated path)", async () => {
    const { sub, auth } = newUser();
    const res = await api("POST", "/api/auth/native-token", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data.ticket).toMatch(/^ticket_/);
    // RFC 9745: the date it was deprecated (2026-06-01) and where to go instead, on successes and errors alike.
    expect(res.headers.get("deprecation")).toBe(`@${Date.parse("2026-06-01") / 1000}`);
    expect(res.headers.get("link")).toBe('</api/mobile/exchange>; rel="successor-version"');
    const calls = (await control("calls", undefined, "GET")) as { path: string; body: { user_id: string } }[];
    expect(calls.some((c) => c.path === "/v1/sign_in_tokens" && c.body.user_id === sub)).toBe(true);
    const unauthorized = await api("POST", "/api/auth/native-token");
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("deprecation")).toBe(res.headers.get("deprecation"));
    const doc = await api("GET", "/api/openapi.json");
    expect(doc.body.paths["/api/auth/native-token"].post.deprecated).toBe(true);
  });

  it("POST /api/auth/native-token refuses a session token issued more than 60 s ago", async () => {
    const { sub } = newUser();
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const stale = token(sub, { ttlSeconds: 3600, extra: { iat: tenMinutesAgo, nbf: tenMinutesAgo } });
    const res = await api("POST", "/api/auth/native-token", { headers: { authorization: `Bearer ${stale}` } });
    expect(res.status).toBe(401);
    expect(errorOf(res)).toEqual({ code: "UNAUTHORIZED", message: expect.stringMatching(/60 s/) });
    const noIat = token(sub, { extra: { iat: undefined } });
    expect((await api("POST", "/api/auth/native-token", { headers: { authorization: `Bearer ${noIat}` } })).status).toBe(401);
    const calls = (await control("calls", undefined, "GET")) as { path: string; body: { user_id: string } }[];
    expect(calls.some((c) => c.path === "/v1/sign_in_tokens" && c.body.user_id === sub)).toBe(false);
    expect((await api("POST", "/api/auth/native-token", { headers: { authorization: `Bearer ${token(sub)}` } })).status).toBe(200);
  });

  it("POST /api/auth/native-token: a provider failure is 502 UPSTREAM_ERROR", async () => {
    const { sub, auth } = newUser();
    await control("fail", { userId: sub });
    try {
      const res = await api("POST", "/api/auth/native-token", { headers: auth });
      expect(res.status).toBe(502);
      expect(errorOf(res).code).toBe("UPSTREAM_ERROR");
    } finally {
      await control("recover", { userId: sub });
    }
  });

  it("GET /api/auth/validate: anonymous, signed in, invalid", async () => {
    expect((await api("GET", "/api/auth/validate")).body).toEqual({ success: true, data: { authenticated: false } });
    const { auth } = newUser();
    const ok = await api("GET", "/api/auth/validate", { headers: auth });
    expect(ok.body.data).toEqual({ authenticated: true, userId: expect.any(String), expiresAt: expect.any(String) });
    expect((await api("GET", "/api/auth/validate", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
  });

  it("POST /api/logout revokes the provider session and clears the cookie", async () => {
    const { sub, auth } = newUser();
    const res = await api("POST", "/api/logout", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { loggedOut: true, sessionRevoked: true } });
    expect(res.headers.get("set-cookie")).toContain("__session=; Path=/; Max-Age=0");
    const calls = (await control("calls", undefined, "GET")) as { method: string; path: string }[];
    expect(calls).toContainEqual(expect.objectContaining({ method: "POST", path: `/v1/sessions/sess_${sub}/revoke` }));
    expect((await api("POST", "/api/logout")).status).toBe(401);
  });
});

describe("GET /api/mobile/version", () => {
  it("reports the configured versions and whether an update is needed", async () => {
    expect((await api("GET", "/api/mobile/version")).body.data).toEqual({ minimumVersion: "2.1.0", latestVersion: "2.4.1", updateUrl: null });
    expect((await api("GET", "/api/mobile/version?platform=ios&currentVersion=2.0.9")).body.data).toEqual({
      minimumVersion: "2.1.0",
      latestVersion: "2.4.1",
      updateUrl: "https://apps.apple.com/app/id000000",
      updateRequired: true,
      updateAvailable: true,
    });
    expect((await api("GET", "/api/mobile/version?currentVersion=2.10.0")).body.data).toMatchObject({ updateRequired: false, updateAvailable: false });
    expect((await api("GET", "/api/mobile/version?currentVersion=2.2.0")).body.data).toMatchObject({ updateRequired: false, updateAvailable: true });
    expect((await api("GET", "/api/mobile/version?currentVersion=v2")).status).toBe(400);
    expect((await api("GET", "/api/mobile/version?platform=windows")).status).toBe(400);
  });
});

describe("GET /api/mobile/wallet-callback", () => {
  const state = "st_" + randomBytes(12).toString("base64url");
  const wallet = (q: string) => raw(`/api/mobile/wallet-callback?redirect_uri=${encodeURIComponent(APP)}&${q}`);

  it("returns to the app with the address or an error and the app's state; refuses other redirects", async () => {
    const addr = "0x" + "ab".repeat(20);
    const ok = await wallet(`address=${addr}&state=${state}`);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`${APP}#wallet=${addr}&state=${state}`);
    const bad = await wallet(`address=0x123&state=${state}`);
    expect(bad.headers.get("location")).toBe(`${APP}#error=invalid_address&state=${state}`);
    const declined = await wallet(`error=user_rejected&state=${state}`);
    expect(declined.headers.get("location")).toBe(`${APP}#error=user_rejected&state=${state}`);
    const evil = await api("GET", `/api/mobile/wallet-callback?redirect_uri=${encodeURIComponent("https://evil.example.com")}&address=${addr}&state=${state}`);
    expect(evil.status).toBe(400);
    expect(evil.headers.get("location")).toBeNull();
  });

  it.each([
    ["missing", ""],
    ["too short", "&state=abcdefghijklmno"],
    ["too long", `&state=${"a".repeat(257)}`],
    ["with a character outside [A-Za-z0-9._~-]", `&state=${"a".repeat(20)}%26wallet%3D0x`],
  ])("a state that is %s is a 400 JSON error, never a redirect", async (_label, q) => {
    const res = await api("GET", `/api/mobile/wallet-callback?redirect_uri=${encodeURIComponent(APP)}&address=0x${"ab".repeat(20)}${q}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(errorOf(res).details!.map((d) => d.path)).toEqual(["query.state"]);
  });
});
