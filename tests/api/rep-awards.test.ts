import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { balanceOf, completeProfile, earn, expectNothingWritten, ISO, key, LEDGER, rowsOf, signedUp, UUID } from "./rep-fixtures";

// Rep: profile_completed and notifications_enabled awarded by the profile and settings writes themselves, and how
// those awards meet the claims through POST /api/v1/engage/rep/earn.

describe("profile_completed and notifications_enabled awarded by the profile and settings writes", () => {
  const PROFILE = "/api/user/profile";
  const SETTINGS = "/api/user/settings";
  const handleFor = (userId: string) => `aw_${userId.slice(-12).replace(/-/g, "")}`;
  /** The avatar as an upload or POST /api/user/sync-idp sets it: the profile route itself cannot. */
  const giveAvatar = (userId: string) => db().user.update({ where: { id: userId }, data: { avatarUrl: "https://img.example.com/aw.png" } });
  const ledgerOf = async (auth: Record<string, string>) => {
    const res = await api("GET", LEDGER, { headers: auth });
    expect(res.status).toBe(200);
    return res.body.entries as { id: string; source: string; amount: number; timestamp: string; reason: string }[];
  };
  const kindsOf = async (userId: string) => (await rowsOf(userId)).map((r) => r.earnKind);

  it("a profile write that completes the profile awards one profile_completed entry; later writes do not; a claim is 409 ALREADY_EARNED", async () => {
    const { auth, userId } = await signedUp();
    await giveAvatar(userId);
    const res = await api("PATCH", PROFILE, { headers: auth, json: { handle: handleFor(userId), displayName: "Award Fan" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ handle: handleFor(userId), displayName: "Award Fan", avatarUrl: "https://img.example.com/aw.png" });

    const ledger = await ledgerOf(auth);
    expect(ledger).toEqual([
      { id: expect.stringMatching(UUID), source: "serviceDirect", amount: 50, timestamp: expect.stringMatching(ISO), reason: "Completed your profile" },
    ]);
    const rows = await rowsOf(userId);
    expect(rows[0]).toMatchObject({ earnKind: "profile_completed", grantKey: "profile_completed", idempotencyKey: null, requestHash: null, targetId: null });
    expect(await balanceOf(userId)).toBe(50);

    // Still complete after another write: nothing more.
    expect((await api("PATCH", PROFILE, { headers: auth, json: { bio: "Second write" } })).status).toBe(200);
    expect((await api("PATCH", PROFILE, { headers: auth, json: { displayName: "Award Fan Again" } })).status).toBe(200);
    expect(await ledgerOf(auth)).toEqual(ledger);

    const claim = await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() });
    expect(claim.status).toBe(409);
    expect(claim.body).toEqual({ success: false, error: { code: "ALREADY_EARNED", message: expect.any(String) } });
    expect(await ledgerOf(auth)).toEqual(ledger);
    await expectNothingWritten(userId, 50, 1);
  });

  it("a profile write that leaves the profile incomplete awards nothing; the write that completes it does", async () => {
    const { auth, userId } = await signedUp();
    expect((await api("PATCH", PROFILE, { headers: auth, json: { handle: handleFor(userId), displayName: "Half Fan" } })).status).toBe(200);
    expect(await ledgerOf(auth)).toEqual([]);
    await expectNothingWritten(userId);
    await giveAvatar(userId);
    expect((await api("PATCH", PROFILE, { headers: auth, json: { bio: "Now complete" } })).status).toBe(200);
    expect((await ledgerOf(auth)).map((e) => e.reason)).toEqual(["Completed your profile"]);
    await expectNothingWritten(userId, 50, 1);
  });

  it("a profile write refused (409 USERNAME_TAKEN) awards nothing", async () => {
    const other = await signedUp();
    await completeProfile(other.userId);
    const taken = (await db().user.findUniqueOrThrow({ where: { id: other.userId } })).handle!;
    const { auth, userId } = await signedUp();
    await giveAvatar(userId);
    const res = await api("PATCH", PROFILE, { headers: auth, json: { handle: taken, displayName: "Copy Cat" } });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("USERNAME_TAKEN");
    await expectNothingWritten(userId);
  });

  it("after a claim through the earn route, a profile write does not award again", async () => {
    const { auth, userId } = await signedUp();
    await completeProfile(userId);
    expect((await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() })).status).toBe(200);
    expect((await api("PATCH", PROFILE, { headers: auth, json: { bio: "After the claim" } })).status).toBe(200);
    await expectNothingWritten(userId, 50, 1);
  });

  it("10 concurrent profile writes completing the profile award once", async () => {
    const { auth, userId } = await signedUp();
    await giveAvatar(userId);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api("PATCH", PROFILE, { headers: auth, json: { handle: handleFor(userId), displayName: `Racer ${i}` } })),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect((await ledgerOf(auth)).map((e) => e.reason)).toEqual(["Completed your profile"]);
    await expectNothingWritten(userId, 50, 1);
  });

  it("concurrent profile writes and claims grant profile_completed once in all", async () => {
    const { auth, userId } = await signedUp();
    await giveAvatar(userId);
    const writes = Array.from({ length: 10 }, (_, i) =>
      api("PATCH", PROFILE, { headers: auth, json: { handle: handleFor(userId), displayName: `Mixed ${i}` } }),
    );
    const claims = Array.from({ length: 10 }, () => earn(auth, { earnKind: "profile_completed", idempotencyKey: key() }));
    const [w, c] = await Promise.all([Promise.all(writes), Promise.all(claims)]);
    for (const r of w) expect(r.status).toBe(200);
    // A claim before the profile was complete is EARN_CONDITION_NOT_MET, after the award ALREADY_EARNED; at most one wins.
    for (const r of c) {
      if (r.status !== 200) {
        expect(r.status).toBe(409);
        expect(["ALREADY_EARNED", "EARN_CONDITION_NOT_MET"]).toContain(errorOf(r).code);
      }
    }
    expect(c.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(await kindsOf(userId)).toEqual(["profile_completed"]);
    expect(await balanceOf(userId)).toBe(50);
  });

  it("a settings write turning a notification setting on awards one notifications_enabled entry; later writes and a claim do not", async () => {
    const { auth, userId } = await signedUp();
    const off = await api("PATCH", SETTINGS, { headers: auth, json: { notifyTeams: false, notifyMilestones: false, notifyCommunity: false } });
    expect(off.status).toBe(200);
    await expectNothingWritten(userId);

    const on = await api("PATCH", SETTINGS, { headers: auth, json: { notifyCommunity: true } });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ notifyTeams: false, notifyMilestones: false, notifyCommunity: true });
    const ledger = await ledgerOf(auth);
    expect(ledger).toEqual([
      { id: expect.stringMatching(UUID), source: "serviceDirect", amount: 20, timestamp: expect.stringMatching(ISO), reason: "Turned on notifications" },
    ]);
    expect((await rowsOf(userId))[0]).toMatchObject({ earnKind: "notifications_enabled", grantKey: "notifications_enabled", idempotencyKey: null });

    expect((await api("PATCH", SETTINGS, { headers: auth, json: { notifyTeams: true } })).status).toBe(200);
    expect((await api("PATCH", SETTINGS, { headers: auth, json: { notifyTeams: false, notifyMilestones: false, notifyCommunity: false } })).status).toBe(200);
    expect((await api("PATCH", SETTINGS, { headers: auth, json: { notifyMilestones: true } })).status).toBe(200);
    expect(await ledgerOf(auth)).toEqual(ledger);

    const claim = await earn(auth, { earnKind: "notifications_enabled", idempotencyKey: key() });
    expect(claim.status).toBe(409);
    expect(errorOf(claim).code).toBe("ALREADY_EARNED");
    await expectNothingWritten(userId, 20, 1);
  });

  it("a settings write that turns no notification setting on awards nothing", async () => {
    const { auth, userId } = await signedUp();
    expect((await api("PATCH", SETTINGS, { headers: auth, json: { privateProfile: true } })).status).toBe(200);
    expect((await api("PATCH", SETTINGS, { headers: auth, json: { analyticsPersonalization: false, notifyTeams: false } })).status).toBe(200);
    expect(await ledgerOf(auth)).toEqual([]);
    await expectNothingWritten(userId);
  });

  it("after a claim through the earn route, turning notifications on does not award again", async () => {
    const { auth, userId } = await signedUp();
    expect((await earn(auth, { earnKind: "notifications_enabled", idempotencyKey: key() })).status).toBe(200);
    expect((await api("PATCH", SETTINGS, { headers: auth, json: { notifyTeams: true } })).status).toBe(200);
    await expectNothingWritten(userId, 20, 1);
  });

  it("concurrent settings writes turning notifications on and claims grant notifications_enabled once in all", async () => {
    const { auth, userId } = await signedUp();
    const writes = Array.from({ length: 10 }, (_, i) => api("PATCH", SETTINGS, { headers: auth, json: { notifyTeams: true, privateProfile: i % 2 === 0 } }));
    const claims = Array.from({ length: 10 }, () => earn(auth, { earnKind: "notifications_enabled", idempotencyKey: key() }));
    const [w, c] = await Promise.all([Promise.all(writes), Promise.all(claims)]);
    for (const r of w) expect(r.status).toBe(200);
    for (const r of c) if (r.status !== 200) expect(errorOf(r).code).toBe("ALREADY_EARNED");
    expect(c.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(await kindsOf(userId)).toEqual(["notifications_enabled"]);
    expect(await balanceOf(userId)).toBe(20);
  });
});
