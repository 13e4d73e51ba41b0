import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";

// Every onboarding test lives in this file, so deactivating the starter pack (one test, restored in finally)
// never overlaps another onboarding: tests in one file run one after another.

const GRANT_KEY = "onboarding-free-pack";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const freshHandle = (prefix = "On") => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

async function signedIn() {
  const u = newUser();
  const res = await api("GET", "/api/user", { headers: u.auth });
  expect(res.status).toBe(200);
  return { ...u, id: await userIdOf(u.sub) };
}

const onboard = (auth: Record<string, string>, json?: unknown) => api("POST", "/api/user/onboarding", { headers: auth, json });
const currentTerms = async () => (await api("GET", "/api/user/terms")).body.data.currentVersion as string;

describe("POST /api/user/onboarding", () => {
  it("completes onboarding, grants the free starter pack once and flips isOnboarded", async () => {
    const { auth, id } = await signedIn();
    const before = await api("GET", "/api/user/isOnboarded", { headers: auth });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ success: true, data: { isOnboarded: false } });

    const res = await onboard(auth, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { completed: true, freePackId: expect.stringMatching(UUID) } });
    const purchases = await db().packPurchase.findMany({ where: { userId: id } });
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({ id: res.body.data.freePackId, packId: "pk_starter", grantKey: GRANT_KEY, source: "onboarding", openedAt: null });

    const after = await api("GET", "/api/user/isOnboarded", { headers: auth });
    expect(after.body).toEqual({ success: true, data: { isOnboarded: true } });
    expect((await api("GET", "/api/user", { headers: auth })).body.data.onboarded).toBe(true);
    expect((await db().user.findUniqueOrThrow({ where: { id } })).onboardedAt).not.toBeNull();
  });

  it("a repeat onboarding returns the same freePackId, grants nothing new and keeps the first onboardedAt", async () => {
    const { auth, id } = await signedIn();
    const first = await onboard(auth);
    expect(first.status).toBe(200);
    const onboardedAt = (await db().user.findUniqueOrThrow({ where: { id } })).onboardedAt;
    expect(onboardedAt).not.toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    const second = await onboard(auth, { displayName: "Later Name" });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ completed: true, freePackId: first.body.data.freePackId });
    expect(await db().packPurchase.count({ where: { userId: id } })).toBe(1);
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row.onboardedAt).toEqual(onboardedAt);
    // Profile input still applies on a repeat.
    expect(row.displayName).toBe("Later Name");
  });

  it("ten concurrent onboardings: all 200, one pack purchase, the same freePackId", async () => {
    const { auth, id } = await signedIn();
    const results = await Promise.all(Array.from({ length: 10 }, () => onboard(auth, {})));
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.data.completed).toBe(true);
    }
    const ids = new Set(results.map((r) => r.body.data.freePackId));
    expect(ids.size).toBe(1);
    const [packId] = [...ids];
    expect(packId).toMatch(UUID);
    const purchases = await db().packPurchase.findMany({ where: { userId: id } });
    expect(purchases.map((p) => p.id)).toEqual([packId]);
  });

  it("with no active starter pack: completed with freePackId null, profile changes kept; a later call grants", async () => {
    const { auth, id } = await signedIn();
    const handle = freshHandle();
    await db().pack.update({ where: { id: "pk_starter" }, data: { active: false } });
    try {
      const res = await onboard(auth, { handle, displayName: "No Pack", favoriteTeamIds: ["tm_gfg"] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { completed: true, freePackId: null } });
      expect(await db().packPurchase.count({ where: { userId: id } })).toBe(0);
      const row = await db().user.findUniqueOrThrow({ where: { id }, include: { favoriteTeams: true } });
      expect(row).toMatchObject({ handle, displayName: "No Pack" });
      expect(row.onboardedAt).not.toBeNull();
      expect(row.favoriteTeams.map((f) => f.teamId)).toEqual(["tm_gfg"]);
      expect((await api("GET", "/api/user/isOnboarded", { headers: auth })).body.data.isOnboarded).toBe(true);
    } finally {
      await db().pack.update({ where: { id: "pk_starter" }, data: { active: true } });
    }
    // The degraded grant is retried by the next onboarding once a starter pack is active again.
    const retry = await onboard(auth);
    expect(retry.status).toBe(200);
    expect(retry.body.data.freePackId).toMatch(UUID);
    expect(await db().packPurchase.count({ where: { userId: id, grantKey: GRANT_KEY } })).toBe(1);
  });

  it("applies handle, displayName, bio, favoriteTeamIds and acceptTermsVersion", async () => {
    const { auth, id } = await signedIn();
    const handle = freshHandle();
    const version = await currentTerms();
    const res = await onboard(auth, { handle, displayName: " Pat ", bio: "hi", favoriteTeamIds: ["tm_hch", "tm_rmr"], acceptTermsVersion: version });
    expect(res.status).toBe(200);
    const profile = (await api("GET", "/api/user/profile", { headers: auth })).body.data;
    expect(profile).toMatchObject({ handle, displayName: "Pat", bio: "hi", onboarded: true, ugcTermsVersion: version, termsAccepted: true });
    expect(profile.favoriteTeams.map((f: { id: string }) => f.id)).toEqual(["tm_hch", "tm_rmr"]);
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row.ugcTermsAcceptedAt).not.toBeNull();
  });

  it("a terms version other than the current one is 409 TERMS_VERSION_MISMATCH naming it; nothing changes", async () => {
    const { auth, id } = await signedIn();
    const version = await currentTerms();
    const res = await onboard(auth, { displayName: "Nope", acceptTermsVersion: "1999-01" });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("TERMS_VERSION_MISMATCH");
    expect(errorOf(res).message).toContain(version);
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ onboardedAt: null, displayName: null, ugcTermsVersion: null });
    expect(await db().packPurchase.count({ where: { userId: id } })).toBe(0);
  });

  it("a taken handle is 409 USERNAME_TAKEN and the user is not onboarded", async () => {
    const other = await signedIn();
    const handle = freshHandle();
    expect((await api("PATCH", "/api/user/profile", { headers: other.auth, json: { handle } })).status).toBe(200);
    const { auth, id } = await signedIn();
    const res = await onboard(auth, { handle: handle.toUpperCase(), displayName: "X" });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("USERNAME_TAKEN");
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ onboardedAt: null, displayName: null, handle: null });
    expect(await db().packPurchase.count({ where: { userId: id } })).toBe(0);
  });

  it("too many favorite teams is 409 FAVORITE_TEAMS_LIMIT and the user is not onboarded", async () => {
    const { auth, id } = await signedIn();
    const res = await onboard(auth, { favoriteTeamIds: ["tm_gfg", "tm_pap", "tm_rmr", "tm_sls", "tm_irf", "tm_kpk"] });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("FAVORITE_TEAMS_LIMIT");
    expect((await db().user.findUniqueOrThrow({ where: { id } })).onboardedAt).toBeNull();
  });

  it("invalid input is 400 naming the field, and the user is not onboarded", async () => {
    const { auth, id } = await signedIn();
    const cases: [unknown, string][] = [
      [{ handle: "x" }, "body.handle"],
      [{ displayName: "" }, "body.displayName"],
      [{ favoriteTeamIds: ["tm_unknown_team"] }, "body.favoriteTeamIds.0"],
      [{ acceptTermsVersion: "" }, "body.acceptTermsVersion"],
      [{ referralCode: "abc" }, "body.referralCode"],
    ];
    for (const [json, path] of cases) {
      const res = await onboard(auth, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.map((d) => d.path)).toEqual([path]);
    }
    expect((await db().user.findUniqueOrThrow({ where: { id } })).onboardedAt).toBeNull();
    const notJson = await onboard(auth, []);
    expect(notJson.status).toBe(400);
  });

  it("without a token is 401", async () => {
    const res = await onboard({}, {});
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
    const is = await api("GET", "/api/user/isOnboarded");
    expect(is.status).toBe(401);
    expect(errorOf(is).code).toBe("UNAUTHORIZED");
  });
});
