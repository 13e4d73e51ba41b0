import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";

const DEFAULT_SETTINGS = {
  privateProfile: false,
  notifyTeams: true,
  notifyMilestones: true,
  notifyCommunity: true,
  analyticsPersonalization: true,
  country: null,
  timezone: null,
  timezoneChangeableAt: null,
};

let ipSeq = 0;
/** A client address no other test uses (the public rate limit is 5 requests / 60 s per address). */
const freshIp = () => `10.${(process.pid % 200) + 1}.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
const fromIp = (ip = freshIp()) => ({ "x-forwarded-for": ip });

/** A unique, well-formed handle (letters, digits, underscore; 3..30). */
const freshHandle = (prefix = "Fan") => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

async function ensureUser(auth: Record<string, string>, sub: string) {
  const res = await api("GET", "/api/user", { headers: auth });
  expect(res.status).toBe(200);
  return userIdOf(sub);
}

describe("GET /api/user", () => {
  it("answers the enveloped current user with defaults and claimedRewardsCount 0", async () => {
    const { sub, auth } = newUser();
    const res = await api("GET", "/api/user", { headers: auth });
    expect(res.status).toBe(200);
    const userId = await userIdOf(sub);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: userId,
        handle: null,
        displayName: null,
        avatarUrl: null,
        bio: null,
        isPrivate: false,
        role: "fan",
        onboarded: false,
        ugcTermsVersion: null,
        repBalance: 0,
        claimedRewardsCount: 0,
        settings: DEFAULT_SETTINGS,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    });
  });

  it("claimedRewardsCount counts the caller's reward claims only", async () => {
    const { sub, auth } = newUser();
    const userId = await ensureUser(auth, sub);
    const other = newUser();
    const otherId = await ensureUser(other.auth, other.sub);
    await db().rewardClaim.createMany({
      data: [
        { userId, rewardId: "rw_profile_badge" },
        { userId, rewardId: "rw_profile_badge" },
        { userId, rewardId: "rw_profile_badge" },
        { userId: otherId, rewardId: "rw_profile_badge" },
      ],
    });
    const res = await api("GET", "/api/user", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data.claimedRewardsCount).toBe(3);
    expect(await db().rewardClaim.count({ where: { userId } })).toBe(3);
    const theirs = await api("GET", "/api/user", { headers: other.auth });
    expect(theirs.body.data.claimedRewardsCount).toBe(1);
  });

  it("reflects the stored profile fields", async () => {
    const { sub, auth } = newUser();
    const userId = await ensureUser(auth, sub);
    const handle = freshHandle("Prof");
    await db().user.update({
      where: { id: userId },
      data: {
        handle,
        handleKey: handle.toLowerCase(),
        displayName: "Pat Fan",
        bio: "Go Hawks",
        repBalance: 120,
        ugcTermsVersion: "2026-01",
        onboardedAt: new Date(),
      },
    });
    const res = await api("GET", "/api/user", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: userId,
      handle,
      displayName: "Pat Fan",
      bio: "Go Hawks",
      repBalance: 120,
      ugcTermsVersion: "2026-01",
      onboarded: true,
    });
  });

  it("role is the token's staff role (admin, moderator, support, economy), else fan", async () => {
    const admin = newUser({ admin: true });
    const a = await api("GET", "/api/user", { headers: admin.auth });
    expect(a.status).toBe(200);
    expect(a.body.data.role).toBe("admin");
    const fan = newUser();
    const f = await api("GET", "/api/user", { headers: fan.auth });
    expect(f.status).toBe(200);
    expect(f.body.data.role).toBe("fan");
    for (const role of ["moderator", "support", "economy"]) {
      const staff = newUser({ extra: { metadata: { role } } });
      expect((await api("GET", "/api/user", { headers: staff.auth })).body.data.role).toBe(role);
    }
    // A claim that names no role is a fan.
    const other = newUser({ extra: { metadata: { role: "owner" } } });
    expect((await api("GET", "/api/user", { headers: other.auth })).body.data.role).toBe("fan");
  });

  it("without a token is 401 UNAUTHORIZED", async () => {
    const res = await api("GET", "/api/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });
});

describe("GET/PATCH /api/user/settings", () => {
  it("GET answers the enveloped defaults", async () => {
    const { auth } = newUser();
    const res = await api("GET", "/api/user/settings", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: DEFAULT_SETTINGS });
  });

  it("PATCH changes only the sent keys and persists them", async () => {
    const { sub, auth } = newUser();
    const res = await api("PATCH", "/api/user/settings", { headers: auth, json: { notifyTeams: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...DEFAULT_SETTINGS, notifyTeams: false } });
    const res2 = await api("PATCH", "/api/user/settings", { headers: auth, json: { analyticsPersonalization: false, notifyCommunity: false } });
    expect(res2.status).toBe(200);
    expect(res2.body.data).toEqual({ ...DEFAULT_SETTINGS, notifyTeams: false, analyticsPersonalization: false, notifyCommunity: false });
    const read = await api("GET", "/api/user/settings", { headers: auth });
    expect(read.body.data).toEqual(res2.body.data);
    const row = await db().user.findUniqueOrThrow({ where: { externalId: sub } });
    expect(row).toMatchObject({ notifyTeams: false, notifyMilestones: true, notifyCommunity: false, analyticsPersonalization: false, isPrivate: false });
    const back = await api("PATCH", "/api/user/settings", { headers: auth, json: { notifyTeams: true } });
    expect(back.body.data).toEqual({ ...DEFAULT_SETTINGS, analyticsPersonalization: false, notifyCommunity: false });
  });

  it("PATCH of one user does not touch another", async () => {
    const a = newUser();
    const b = newUser();
    await api("GET", "/api/user/settings", { headers: b.auth });
    const res = await api("PATCH", "/api/user/settings", { headers: a.auth, json: { notifyMilestones: false, privateProfile: true } });
    expect(res.status).toBe(200);
    const other = await api("GET", "/api/user/settings", { headers: b.auth });
    expect(other.body.data).toEqual(DEFAULT_SETTINGS);
  });

  it("privateProfile mirrors users.is_private both ways", async () => {
    const { sub, auth } = newUser();
    const on = await api("PATCH", "/api/user/settings", { headers: auth, json: { privateProfile: true } });
    expect(on.status).toBe(200);
    expect(on.body.data).toEqual({ ...DEFAULT_SETTINGS, privateProfile: true });
    expect((await db().user.findUniqueOrThrow({ where: { externalId: sub } })).isPrivate).toBe(true);
    const me = await api("GET", "/api/user", { headers: auth });
    expect(me.body.data).toMatchObject({ isPrivate: true, settings: { privateProfile: true } });

    // Database → API.
    await db().user.update({ where: { externalId: sub }, data: { isPrivate: false } });
    const read = await api("GET", "/api/user/settings", { headers: auth });
    expect(read.body.data.privateProfile).toBe(false);
    await db().user.update({ where: { externalId: sub }, data: { isPrivate: true } });
    expect((await api("GET", "/api/user/settings", { headers: auth })).body.data.privateProfile).toBe(true);

    const off = await api("PATCH", "/api/user/settings", { headers: auth, json: { privateProfile: false } });
    expect(off.body.data.privateProfile).toBe(false);
    expect((await db().user.findUniqueOrThrow({ where: { externalId: sub } })).isPrivate).toBe(false);
  });

  it("PATCH {} is 400 VALIDATION_ERROR and changes nothing", async () => {
    const { sub, auth } = newUser();
    const res = await api("PATCH", "/api/user/settings", { headers: auth, json: {} });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", message: expect.any(String) } });
    expect(errorOf(res).details?.length).toBeGreaterThan(0);
    const row = await db().user.findUniqueOrThrow({ where: { externalId: sub } });
    expect(row).toMatchObject({ isPrivate: false, notifyTeams: true, notifyMilestones: true, notifyCommunity: true, analyticsPersonalization: true });
  });

  it("an unknown key is 400 VALIDATION_ERROR and nothing is written", async () => {
    const { sub, auth } = newUser();
    const res = await api("PATCH", "/api/user/settings", { headers: auth, json: { notifyTeams: false, darkMode: true } });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(errorOf(res).details)).toContain("darkMode");
    const row = await db().user.findUniqueOrThrow({ where: { externalId: sub } });
    expect(row.notifyTeams).toBe(true);
  });

  it("a wrong type is 400 with details path body.notifyTeams", async () => {
    const { auth } = newUser();
    for (const value of ["false", 0, null, {}]) {
      const res = await api("PATCH", "/api/user/settings", { headers: auth, json: { notifyTeams: value } });
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.map((d) => d.path)).toEqual(["body.notifyTeams"]);
    }
    const read = await api("GET", "/api/user/settings", { headers: auth });
    expect(read.body.data).toEqual(DEFAULT_SETTINGS);
  });

  it("a non-object body is 400", async () => {
    const { auth } = newUser();
    for (const json of [[], true, "x"]) {
      const res = await api("PATCH", "/api/user/settings", { headers: auth, json });
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    }
  });

  it("without a token GET and PATCH are 401", async () => {
    const get = await api("GET", "/api/user/settings");
    expect(get.status).toBe(401);
    expect(errorOf(get).code).toBe("UNAUTHORIZED");
    const patch = await api("PATCH", "/api/user/settings", { json: { notifyTeams: false } });
    expect(patch.status).toBe(401);
    expect(errorOf(patch).code).toBe("UNAUTHORIZED");
  });
});

describe("GET /api/user/check-username", () => {
  it("a free handle is available, as a bare { available: true }", async () => {
    const res = await api("GET", `/api/user/check-username?username=${freshHandle()}`, { headers: fromIp() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ available: true });
  });

  it("a taken handle is unavailable in any case", async () => {
    const { sub, auth } = newUser();
    const userId = await ensureUser(auth, sub);
    const handle = freshHandle("Taken");
    await db().user.update({ where: { id: userId }, data: { handle, handleKey: handle.toLowerCase() } });
    const ip = freshIp();
    for (const candidate of [handle, handle.toLowerCase(), handle.toUpperCase()]) {
      const res = await api("GET", `/api/user/check-username?username=${candidate}`, { headers: fromIp(ip) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ available: false });
    }
    // The same handle with one more character is free.
    const res = await api("GET", `/api/user/check-username?username=${handle}x`, { headers: fromIp(ip) });
    expect(res.body).toEqual({ available: true });
  });

  it("the check does not need a token, and a signed-in caller gets the same answer", async () => {
    const { auth } = newUser();
    const res = await api("GET", `/api/user/check-username?username=${freshHandle()}`, { headers: { ...auth, ...fromIp() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ available: true });
  });

  it.each(["admin", "Support", "ADMIN", "staff", "Moderator", "official"])("reserved handle %s is unavailable", async (name) => {
    const res = await api("GET", `/api/user/check-username?username=${name}`, { headers: fromIp() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ available: false });
  });

  it.each([
    ["a", "a"],
    ["ab", "ab"],
    ["has space", "has%20space"],
    ["31 characters", "a".repeat(31)],
    ["punctuation", "bad-name!"],
    ["empty", ""],
  ])("a malformed handle (%s) is 400 VALIDATION_ERROR at query.username", async (_label, q) => {
    const res = await api("GET", `/api/user/check-username?username=${q}`, { headers: fromIp() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
    expect(errorOf(res).details?.map((d) => d.path)).toEqual(["query.username"]);
  });

  it("30 characters is the longest well-formed handle", async () => {
    const res = await api("GET", `/api/user/check-username?username=${"b".repeat(24)}${randomUUID().slice(0, 6).replace(/-/g, "_")}`, { headers: fromIp() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ available: true });
  });

  it("a missing username is 400", async () => {
    const res = await api("GET", "/api/user/check-username", { headers: fromIp() });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.map((d) => d.path)).toEqual(["query.username"]);
  });

  it("an unknown query key is 400", async () => {
    const res = await api("GET", `/api/user/check-username?username=${freshHandle()}&x=1`, { headers: fromIp() });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
  });

  it("the 6th request from one client address within a minute is 429 RATE_LIMITED with Retry-After", async () => {
    const ip = freshIp();
    await awayFromWindowEdge();
    for (let i = 0; i < 5; i++) {
      // Two trusted proxies (TRUSTED_PROXY_HOPS=2): the client is the second entry from the right; the last one, the edge proxy's address, may vary.
      const res = await api("GET", `/api/user/check-username?username=${freshHandle()}`, { headers: { "x-forwarded-for": `${ip}, 192.0.2.${i + 1}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("5");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
    }
    const limited = await api("GET", `/api/user/check-username?username=${freshHandle()}`, { headers: fromIp(ip) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, error: { code: "RATE_LIMITED", message: expect.any(String) } });
    const retryAfter = limited.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(limited.headers.get("x-ratelimit-limit")).toBe("5");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");

    // Another client address is unaffected.
    const other = await api("GET", `/api/user/check-username?username=${freshHandle()}`, { headers: fromIp() });
    expect(other.status).toBe(200);
  });
});
