import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { INVITE_CODE_ALPHABET } from "../../lib/features/invites/schemas";
import { ensureMyInvite, generateInviteCode } from "../../lib/features/invites/service";
import { awayFromWindowEdge } from "../rate-window";

// Invites: GET/POST /api/invites/me, GET /api/invites/{code}, POST /api/invites/{code}/redeem.

const ME = "/api/invites/me";
const lookup = (code: string) => `/api/invites/${encodeURIComponent(code)}`;
const redeem = (code: string) => `/api/invites/${encodeURIComponent(code)}/redeem`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CODE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/;

let ipSeq = 0;
/** A client address no other test uses (the public rate limit is 5 requests / 60 s per address). */
const freshIp = () => `10.${(process.pid % 200) + 1}.${100 + Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
const fromIp = (ip = freshIp()) => ({ "x-forwarded-for": ip });

/** A new user whose row exists (GET /api/invites/me creates the user row, never an invite). */
async function signedUp() {
  const user = newUser();
  const res = await api("GET", ME, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

/** A user with a public profile and an invite code. */
async function inviter(profile: { handle?: string | null; displayName?: string | null; avatarUrl?: string | null } = {}) {
  const user = await signedUp();
  const handle = profile.handle === undefined ? `Fan_${randomUUID().replace(/-/g, "").slice(0, 12)}` : profile.handle;
  const data = {
    handle,
    handleKey: handle?.toLowerCase() ?? null,
    displayName: profile.displayName === undefined ? "Harbor Fan" : profile.displayName,
    avatarUrl: profile.avatarUrl === undefined ? "https://cdn.example.com/a.png" : profile.avatarUrl,
    email: "private@example.com",
    bio: "private bio",
  };
  await db().user.update({ where: { id: user.userId }, data });
  const res = await api("POST", ME, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, code: res.body.data.code as string, profile: { handle: data.handle, displayName: data.displayName, avatarUrl: data.avatarUrl } };
}

const inviteRows = (userId: string) => db().invite.findMany({ where: { userId } });
const redemptionOf = (inviteeId: string) => db().inviteRedemption.findUnique({ where: { inviteeId } });
const unusedCode = async () => {
  for (;;) {
    const code = generateInviteCode();
    if (!(await db().invite.findUnique({ where: { code } }))) return code;
  }
};

describe("auth", () => {
  it.each([
    ["GET", ME],
    ["POST", ME],
    ["POST", redeem("ABCDEFGH")],
  ])("%s %s without a token is 401 UNAUTHORIZED", async (method, path) => {
    const res = await api(method, path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });

  it("a rejected token creates nothing", async () => {
    const res = await api("POST", ME, { headers: { authorization: "Bearer not.a.jwt" } });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });
});

describe("GET /api/invites/me", () => {
  it("answers data: null for a user without an invite, and does not create one", async () => {
    const { auth, userId } = await signedUp();
    const res = await api("GET", ME, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: null });
    expect(await inviteRows(userId)).toEqual([]);
  });

  it("answers the same invite POST created, with its redemption count", async () => {
    const { auth, code } = await inviter();
    const res = await api("GET", ME, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { code, redemptions: 0, createdAt: expect.stringMatching(ISO) } });

    for (let i = 0; i < 3; i++) {
      const fan = newUser();
      expect((await api("POST", redeem(code), { headers: fan.auth })).status).toBe(200);
    }
    const after = await api("GET", ME, { headers: auth });
    expect(after.body).toEqual({ success: true, data: { code, redemptions: 3, createdAt: res.body.data.createdAt } });
  });

  it("counts only redemptions of the caller's own code", async () => {
    const a = await inviter();
    const b = await inviter();
    expect((await api("POST", redeem(b.code), { headers: newUser().auth })).status).toBe(200);
    expect((await api("GET", ME, { headers: a.auth })).body.data.redemptions).toBe(0);
    expect((await api("GET", ME, { headers: b.auth })).body.data.redemptions).toBe(1);
  });
});

describe("POST /api/invites/me", () => {
  it("creates an 8-character code from the unambiguous alphabet and stores it", async () => {
    const { auth, userId } = await signedUp();
    const before = Date.now();
    const res = await api("POST", ME, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { code: expect.stringMatching(CODE), redemptions: 0, createdAt: expect.stringMatching(ISO) } });
    const at = Date.parse(res.body.data.createdAt);
    expect(at).toBeGreaterThanOrEqual(before - 5_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(await inviteRows(userId)).toEqual([{ code: res.body.data.code, userId, createdAt: new Date(res.body.data.createdAt) }]);
  });

  it("is idempotent: repeated POSTs answer the same code and keep one row", async () => {
    const { auth, userId } = await signedUp();
    const first = await api("POST", ME, { headers: auth });
    const second = await api("POST", ME, { headers: auth });
    const third = await api("POST", ME, { headers: auth, json: {} });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(second.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    expect(await inviteRows(userId)).toHaveLength(1);
  });

  it("20 concurrent POSTs by one new user create exactly one code", async () => {
    const { auth, sub } = newUser();
    const results = await Promise.all(Array.from({ length: 20 }, () => api("POST", ME, { headers: auth })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const codes = new Set(results.map((r) => r.body.data.code));
    expect(codes.size).toBe(1);
    const rows = await inviteRows(await userIdOf(sub));
    expect(rows.map((r) => r.code)).toEqual([...codes]);
  });

  it("gives different users different codes", async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => api("POST", ME, { headers: newUser().auth })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const codes = results.map((r) => r.body.data.code as string);
    for (const code of codes) expect(code).toMatch(CODE);
    expect(new Set(codes).size).toBe(10);
  });
});

describe("invite codes (domain)", () => {
  it("are drawn uniformly from the 32-symbol alphabet without 0, O, 1 or I", () => {
    expect(INVITE_CODE_ALPHABET).toHaveLength(32);
    expect(INVITE_CODE_ALPHABET).not.toMatch(/[0O1I]/);
    const seen = new Map<string, number>();
    const codes = Array.from({ length: 4000 }, generateInviteCode);
    for (const code of codes) {
      expect(code).toMatch(CODE);
      for (const ch of code) seen.set(ch, (seen.get(ch) ?? 0) + 1);
    }
    expect(new Set(codes).size).toBe(codes.length);
    // 32,000 symbols: about 1,000 each; a biased or partial alphabet falls well outside this band.
    expect(seen.size).toBe(32);
    for (const n of seen.values()) {
      expect(n).toBeGreaterThan(800);
      expect(n).toBeLessThan(1200);
    }
  });

  it("retry on a code that belongs to someone else, and never take it over", async () => {
    const taken = await inviter();
    const { userId } = await signedUp();
    const fresh = await unusedCode();
    const queue = [taken.code, taken.code, fresh];
    let calls = 0;
    const result = await ensureMyInvite(db(), userId, () => (calls++, queue.shift()!));
    expect(calls).toBe(3);
    expect(result).toEqual({ code: fresh, redemptions: 0, createdAt: expect.stringMatching(ISO) });
    expect((await db().invite.findUniqueOrThrow({ where: { code: taken.code } })).userId).toBe(taken.userId);
    expect((await inviteRows(userId)).map((r) => r.code)).toEqual([fresh]);
  });

  it("give up with an error, not a stolen code, when every attempt collides", async () => {
    const taken = await inviter();
    const { userId } = await signedUp();
    await expect(ensureMyInvite(db(), userId, () => taken.code)).rejects.toThrow(/No free invite code/);
    expect(await inviteRows(userId)).toEqual([]);
  });
});

describe("GET /api/invites/{code}", () => {
  it("answers the inviter's public profile only, without a token", async () => {
    const { code, profile } = await inviter({
      handle: `Hawk_${randomUUID().slice(0, 8)}`,
      displayName: "Hawks Fan",
      avatarUrl: "https://cdn.example.com/h.png",
    });
    const res = await api("GET", lookup(code), { headers: fromIp() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { code, inviter: profile, valid: true } });
    expect(res.text).not.toContain("private@example.com");
    expect(res.text).not.toContain("private bio");
  });

  it("is case-insensitive and answers the canonical upper-case code", async () => {
    const { code, profile } = await inviter();
    const ip = freshIp();
    const lower = await api("GET", lookup(code.toLowerCase()), { headers: fromIp(ip) });
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual({ success: true, data: { code, inviter: profile, valid: true } });
    const mixed = code.slice(0, 4).toLowerCase() + code.slice(4);
    expect((await api("GET", lookup(mixed), { headers: fromIp(ip) })).body).toEqual(lower.body);
  });

  it("answers null profile fields as null", async () => {
    const { code } = await inviter({ handle: null, displayName: null, avatarUrl: null });
    const res = await api("GET", lookup(code), { headers: fromIp() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { code, inviter: { handle: null, displayName: null, avatarUrl: null }, valid: true } });
  });

  it("a signed-in caller gets the same answer", async () => {
    const { code, profile } = await inviter();
    const res = await api("GET", lookup(code), { headers: { ...newUser().auth, ...fromIp() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { code, inviter: profile, valid: true } });
  });

  it("an unknown well-formed code is 404 NOT_FOUND", async () => {
    const res = await api("GET", lookup(await unusedCode()), { headers: fromIp() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Invite code not found." } });
  });

  it.each(["ABC", "ABCDEFGHJ", "ABCDEFG0", "ABCDEFG1", "ABCDEFGI", "ABCDEFGO", "abcdefgo", "ABCD-EFG", "ABCDEFG%20", "ABCDÉFGH"])(
    "a malformed code %j is 400 VALIDATION_ERROR",
    async (code) => {
      const res = await api("GET", lookup(code), { headers: fromIp() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: { code: "VALIDATION_ERROR", message: "Invalid request params.", details: [{ path: "params.code", message: expect.any(String) }] },
      });
    },
  );

  it("the 6th lookup from one address within a minute is 429 RATE_LIMITED, hits and misses alike", async () => {
    const { code } = await inviter();
    const ip = freshIp();
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (const c of [code, await unusedCode(), "bad", code, code]) statuses.push((await api("GET", lookup(c), { headers: fromIp(ip) })).status);
    expect(statuses).toEqual([200, 404, 400, 200, 200]);
    const limited = await api("GET", lookup(code), { headers: fromIp(ip) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, error: { code: "RATE_LIMITED", message: expect.any(String) } });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await api("GET", lookup(code), { headers: fromIp() })).status).toBe(200);
  });
});

describe("POST /api/invites/{code}/redeem", () => {
  it("redeems a code: 200 with the inviter's public profile, one row naming both users", async () => {
    const host = await inviter();
    const fan = await signedUp();
    const before = Date.now();
    const res = await api("POST", redeem(host.code), { headers: fan.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { code: host.code, inviter: host.profile, redeemedAt: expect.stringMatching(ISO), alreadyRedeemed: false },
    });
    const at = Date.parse(res.body.data.redeemedAt);
    expect(at).toBeGreaterThanOrEqual(before - 5_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(await redemptionOf(fan.userId)).toEqual({
      inviteeId: fan.userId,
      code: host.code,
      inviterId: host.userId,
      createdAt: new Date(res.body.data.redeemedAt),
    });
  });

  it("accepts the code in any case and stores it upper-case", async () => {
    const host = await inviter();
    const fan = await signedUp();
    const res = await api("POST", redeem(host.code.toLowerCase()), { headers: fan.auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ code: host.code, alreadyRedeemed: false });
    expect((await redemptionOf(fan.userId))?.code).toBe(host.code);
  });

  it("retrying the same code is 200 with the first result and alreadyRedeemed: true", async () => {
    const host = await inviter();
    const fan = await signedUp();
    const first = await api("POST", redeem(host.code), { headers: fan.auth });
    expect(first.status).toBe(200);
    const again = await api("POST", redeem(host.code.toLowerCase()), { headers: fan.auth });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, data: { ...first.body.data, alreadyRedeemed: true } });
    expect(await db().inviteRedemption.count({ where: { inviteeId: fan.userId } })).toBe(1);
  });

  it("one's own code is 409 INVITE_OWN_CODE and stores nothing", async () => {
    const host = await inviter();
    const res = await api("POST", redeem(host.code), { headers: host.auth });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: { code: "INVITE_OWN_CODE", message: "You cannot redeem your own invite code." } });
    expect(await redemptionOf(host.userId)).toBeNull();
  });

  it("a second, different code is 409 INVITE_ALREADY_REDEEMED and the first redemption stands", async () => {
    const a = await inviter();
    const b = await inviter();
    const fan = await signedUp();
    expect((await api("POST", redeem(a.code), { headers: fan.auth })).status).toBe(200);
    const res = await api("POST", redeem(b.code), { headers: fan.auth });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      error: { code: "INVITE_ALREADY_REDEEMED", message: "This account already redeemed another invite code; only one is allowed." },
    });
    expect(await redemptionOf(fan.userId)).toMatchObject({ code: a.code, inviterId: a.userId });
    expect(await db().inviteRedemption.count({ where: { code: b.code } })).toBe(0);
  });

  it("after redeeming, one's own code is still INVITE_OWN_CODE and an unknown code still 404", async () => {
    const a = await inviter();
    const fan = await inviter();
    expect((await api("POST", redeem(a.code), { headers: fan.auth })).status).toBe(200);
    expect(errorOf(await api("POST", redeem(fan.code), { headers: fan.auth })).code).toBe("INVITE_OWN_CODE");
    const unknown = await api("POST", redeem(await unusedCode()), { headers: fan.auth });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe("NOT_FOUND");
  });

  it("an unknown code is 404 NOT_FOUND and stores nothing", async () => {
    const fan = await signedUp();
    const res = await api("POST", redeem(await unusedCode()), { headers: fan.auth });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Invite code not found." } });
    expect(await redemptionOf(fan.userId)).toBeNull();
  });

  it.each(["abc", "ABCDEFG0", "ABCDEFGHJK", "ABCDEFGI"])("a malformed code %j is 400 VALIDATION_ERROR", async (code) => {
    const fan = await signedUp();
    const res = await api("POST", redeem(code), { headers: fan.auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details).toEqual([{ path: "params.code", message: expect.any(String) }]);
    expect(await redemptionOf(fan.userId)).toBeNull();
  });

  it("one code can be redeemed by many invitees", async () => {
    const host = await inviter();
    const fans = await Promise.all(Array.from({ length: 5 }, () => signedUp()));
    const results = await Promise.all(fans.map((f) => api("POST", redeem(host.code), { headers: f.auth })));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(results.every((r) => r.body.data.alreadyRedeemed === false)).toBe(true);
    expect(await db().inviteRedemption.count({ where: { code: host.code, inviterId: host.userId } })).toBe(5);
    expect((await api("GET", ME, { headers: host.auth })).body.data.redemptions).toBe(5);
  });

  it("GET and other methods on the redeem path are 405", async () => {
    const res = await api("GET", redeem("ABCDEFGH"), { headers: newUser().auth });
    expect(res.status).toBe(405);
    expect(errorOf(res).code).toBe("METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("20 concurrent redeems of 20 different codes by one user: exactly one succeeds, 19 are 409", async () => {
    const hosts = await Promise.all(Array.from({ length: 20 }, () => inviter()));
    const fan = await signedUp();
    const results = await Promise.all(hosts.map((h) => api("POST", redeem(h.code), { headers: fan.auth })));
    const ok = results.filter((r) => r.status === 200);
    const conflicts = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(19);
    for (const r of conflicts) expect(errorOf(r).code).toBe("INVITE_ALREADY_REDEEMED");
    expect(ok[0]!.body.data.alreadyRedeemed).toBe(false);
    const rows = await db().inviteRedemption.findMany({ where: { inviteeId: fan.userId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code).toBe(ok[0]!.body.data.code);
  });

  it("20 concurrent redeems of one code by one user: all 200, one row, one first redemption", async () => {
    const host = await inviter();
    const fan = newUser();
    const results = await Promise.all(Array.from({ length: 20 }, () => api("POST", redeem(host.code), { headers: fan.auth })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.filter((r) => r.body.data.alreadyRedeemed === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.data.redeemedAt)).size).toBe(1);
    for (const r of results) expect(r.body.data).toMatchObject({ code: host.code, inviter: host.profile });
    const rows = await db().inviteRedemption.findMany({ where: { inviteeId: await userIdOf(fan.sub) } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ code: host.code, inviterId: host.userId });
  });
});
