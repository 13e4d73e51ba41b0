import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { balanceOf, completeProfile, earn, EARN, expectNothingWritten, ISO, key, LEDGER, rowsOf, signedUp, UUID } from "./rep-fixtures";

// Rep: POST /api/v1/engage/rep/earn. The awards of the profile and settings writes are in rep-awards.test.ts, GET
// /api/v1/engage/rep/ledger in rep-ledger.test.ts; what they share in rep-fixtures.ts.

function yesterdayAt(hour = 12) {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - 1);
  d.setUTCHours(hour, 0, 0, 0);
  return d;
}

describe("POST /api/v1/engage/rep/earn", () => {
  it("grants daily_visit: envelope with entry, balance and replayed:false; ledger and balance follow", async () => {
    const { auth, userId } = await signedUp();
    const idempotencyKey = key();
    const before = Date.now();
    const res = await earn(auth, { earnKind: "daily_visit", idempotencyKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        entry: { id: expect.stringMatching(UUID), source: "serviceDirect", amount: 5, timestamp: expect.stringMatching(ISO), reason: "Daily visit" },
        balance: 5,
        replayed: false,
      },
    });
    const at = Date.parse(res.body.data.entry.timestamp);
    expect(at).toBeGreaterThanOrEqual(before - 5_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 5_000);

    const ledger = await api("GET", LEDGER, { headers: auth });
    expect(ledger.status).toBe(200);
    expect(ledger.body).toEqual({ entries: [res.body.data.entry] });
    expect(await balanceOf(userId)).toBe(5);
    const rows = await rowsOf(userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: res.body.data.entry.id, earnKind: "daily_visit", idempotencyKey, amount: 5n, targetId: null });
  });

  it.each([
    ["profile_completed", undefined, 50, "serviceDirect", "Completed your profile"],
    ["notifications_enabled", undefined, 20, "serviceDirect", "Turned on notifications"],
    ["article_read", "article_1", 2, "fanAmp", "Read an article"],
    ["post_shared", "post_1", 10, "fanAmp", "Shared a post"],
  ])("grants %s (target %s): amount %i, source %s", async (earnKind, targetId, amount, source, reason) => {
    const { auth, userId } = await signedUp();
    if (earnKind === "profile_completed") await completeProfile(userId);
    const res = await earn(auth, { earnKind, idempotencyKey: key(), ...(targetId ? { targetId } : {}) });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      entry: { id: expect.stringMatching(UUID), source, amount, timestamp: expect.stringMatching(ISO), reason },
      balance: amount,
      replayed: false,
    });
    expect(await balanceOf(userId)).toBe(amount);
    const rows = await rowsOf(userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ earnKind, targetId: targetId ?? null, amount: BigInt(amount) });
  });

  it("the balance accumulates across kinds and counts what was already there", async () => {
    const { auth, userId } = await signedUp();
    await db().user.update({ where: { id: userId }, data: { repBalance: 100 } });
    await completeProfile(userId);
    const a = await earn(auth, { earnKind: "daily_visit", idempotencyKey: key() });
    expect(a.body.data.balance).toBe(105);
    const b = await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() });
    expect(b.body.data.balance).toBe(155);
    const c = await earn(auth, { earnKind: "article_read", idempotencyKey: key(), targetId: "a1" });
    expect(c.body.data.balance).toBe(157);
    expect(await balanceOf(userId)).toBe(157);
    const ledger = await api("GET", LEDGER, { headers: auth });
    expect(ledger.body.entries.map((e: { id: string }) => e.id)).toEqual([c, b, a].map((r) => r.body.data.entry.id));
  });

  it("the same key replays the first result without a second grant", async () => {
    const { auth, userId } = await signedUp();
    const idempotencyKey = key();
    const first = await earn(auth, { earnKind: "article_read", idempotencyKey, targetId: "art-9" });
    expect(first.status).toBe(200);
    const second = await earn(auth, { earnKind: "article_read", idempotencyKey, targetId: "art-9" });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ success: true, data: { entry: first.body.data.entry, balance: 2, replayed: true } });
    const third = await earn(auth, { earnKind: "article_read", idempotencyKey, targetId: "art-9" });
    expect(third.body.data).toEqual({ entry: first.body.data.entry, balance: 2, replayed: true });
    await expectNothingWritten(userId, 2, 1);
  });

  it("a replay reports the current balance and still works after other grants", async () => {
    const { auth, userId } = await signedUp();
    const idempotencyKey = key();
    const first = await earn(auth, { earnKind: "daily_visit", idempotencyKey });
    await earn(auth, { earnKind: "notifications_enabled", idempotencyKey: key() });
    const replay = await earn(auth, { earnKind: "daily_visit", idempotencyKey });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual({ entry: first.body.data.entry, balance: 25, replayed: true });
    await expectNothingWritten(userId, 25, 2);
  });

  it("a key is scoped to its user", async () => {
    const a = await signedUp();
    const b = await signedUp();
    const idempotencyKey = key();
    const ra = await earn(a.auth, { earnKind: "daily_visit", idempotencyKey });
    const rb = await earn(b.auth, { earnKind: "daily_visit", idempotencyKey });
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(rb.body.data.replayed).toBe(false);
    expect(rb.body.data.entry.id).not.toBe(ra.body.data.entry.id);
    expect(await balanceOf(a.userId)).toBe(5);
    expect(await balanceOf(b.userId)).toBe(5);
  });

  it("the same key with another earnKind or targetId is 409 IDEMPOTENCY_KEY_REUSED", async () => {
    const { auth, userId } = await signedUp();
    const idempotencyKey = key();
    expect((await earn(auth, { earnKind: "article_read", idempotencyKey, targetId: "t1" })).status).toBe(200);
    for (const json of [
      { earnKind: "article_read", idempotencyKey, targetId: "t2" },
      { earnKind: "post_shared", idempotencyKey, targetId: "t1" },
      { earnKind: "daily_visit", idempotencyKey },
    ]) {
      const res = await earn(auth, json);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ success: false, error: { code: "IDEMPOTENCY_KEY_REUSED", message: expect.any(String) } });
    }
    await expectNothingWritten(userId, 2, 1);
  });

  it("daily_visit: a new key the same UTC day is 409 ALREADY_EARNED", async () => {
    const { auth, userId } = await signedUp();
    expect((await earn(auth, { earnKind: "daily_visit", idempotencyKey: key() })).status).toBe(200);
    const again = await earn(auth, { earnKind: "daily_visit", idempotencyKey: key() });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, error: { code: "ALREADY_EARNED", message: expect.any(String) } });
    await expectNothingWritten(userId, 5, 1);
  });

  it("daily_visit earned yesterday can be earned again today", async () => {
    const { auth, userId } = await signedUp();
    const y = yesterdayAt();
    await db().repEntry.create({
      data: {
        userId,
        source: "serviceDirect",
        amount: 5,
        reason: "Daily visit",
        earnKind: "daily_visit",
        grantKey: `daily_visit:${y.toISOString().slice(0, 10)}`,
        idempotencyKey: key(),
        createdAt: y,
      },
    });
    const res = await earn(auth, { earnKind: "daily_visit", idempotencyKey: key() });
    expect(res.status).toBe(200);
    expect(res.body.data.replayed).toBe(false);
    expect(await db().repEntry.count({ where: { userId } })).toBe(2);
  });

  it.each(["profile_completed", "notifications_enabled"])("%s is granted only once", async (earnKind) => {
    const { auth, userId } = await signedUp();
    await completeProfile(userId);
    const first = await earn(auth, { earnKind, idempotencyKey: key() });
    expect(first.status).toBe(200);
    const amount = first.body.data.entry.amount;
    const again = await earn(auth, { earnKind, idempotencyKey: key() });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("ALREADY_EARNED");
    await expectNothingWritten(userId, amount, 1);
  });

  it("profile_completed earned on an earlier day still cannot be earned again", async () => {
    const { auth, userId } = await signedUp();
    await db().repEntry.create({
      data: {
        userId,
        source: "serviceDirect",
        amount: 50,
        reason: "Completed your profile",
        earnKind: "profile_completed",
        grantKey: "profile_completed",
        createdAt: new Date("2026-01-01T00:00:00.000Z"),
      },
    });
    const res = await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe("ALREADY_EARNED");
    await expectNothingWritten(userId, 0, 1);
  });

  it("profile_completed is refused (409 EARN_CONDITION_NOT_MET, nothing written) until the server sees handle, display name and avatar; then granted once", async () => {
    const { auth, userId } = await signedUp();
    const refused = await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      error: { code: "EARN_CONDITION_NOT_MET", message: expect.stringMatching(/missing: handle, displayName, avatarUrl/) },
    });
    await expectNothingWritten(userId);

    const patched = await api("PATCH", "/api/user/profile", { headers: auth, json: { handle: `pf_${userId.slice(-8)}`, displayName: "Pat Fan" } });
    expect(patched.status).toBe(200);
    const partly = await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() });
    expect(partly.status).toBe(409);
    expect(errorOf(partly)).toEqual({ code: "EARN_CONDITION_NOT_MET", message: expect.stringMatching(/missing: avatarUrl\.$/) });
    await expectNothingWritten(userId);

    // The avatar as POST /api/user/sync-idp fills it from the identity provider (or an upload).
    await db().user.update({ where: { id: userId }, data: { avatarUrl: "https://img.example.com/pat.png" } });
    const granted = await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() });
    expect(granted.status).toBe(200);
    expect(granted.body.data).toMatchObject({ entry: { amount: 50, reason: "Completed your profile" }, balance: 50, replayed: false });
    const again = await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("ALREADY_EARNED");
    await expectNothingWritten(userId, 50, 1);
  });

  it("a refused claim does not use up its idempotency key: the same key succeeds once the condition holds", async () => {
    const { auth, userId } = await signedUp();
    const idempotencyKey = key();
    expect((await earn(auth, { earnKind: "profile_completed", idempotencyKey })).status).toBe(409);
    await completeProfile(userId);
    const res = await earn(auth, { earnKind: "profile_completed", idempotencyKey });
    expect(res.status).toBe(200);
    expect(res.body.data.replayed).toBe(false);
  });

  it("notifications_enabled is refused while every notification setting is off; granted once one is on", async () => {
    const { auth, userId } = await signedUp();
    const off = await api("PATCH", "/api/user/settings", { headers: auth, json: { notifyTeams: false, notifyMilestones: false, notifyCommunity: false } });
    expect(off.status).toBe(200);
    const refused = await earn(auth, { earnKind: "notifications_enabled", idempotencyKey: key() });
    expect(refused.status).toBe(409);
    expect(errorOf(refused)).toEqual({ code: "EARN_CONDITION_NOT_MET", message: expect.stringMatching(/notification setting/) });
    await expectNothingWritten(userId);

    // On again by another route than the settings write (which would award it itself: see below).
    await db().user.update({ where: { id: userId }, data: { notifyMilestones: true } });
    const granted = await earn(auth, { earnKind: "notifications_enabled", idempotencyKey: key() });
    expect(granted.status).toBe(200);
    expect(granted.body.data.balance).toBe(20);
    expect(errorOf(await earn(auth, { earnKind: "notifications_enabled", idempotencyKey: key() })).code).toBe("ALREADY_EARNED");
    await expectNothingWritten(userId, 20, 1);
  });

  it("concurrent profile_completed claims racing a profile completion grant at most once", async () => {
    const { auth, userId } = await signedUp();
    const claims = Array.from({ length: 20 }, () => earn(auth, { earnKind: "profile_completed", idempotencyKey: key() }));
    await completeProfile(userId);
    const results = await Promise.all(claims);
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(["EARN_CONDITION_NOT_MET", "ALREADY_EARNED"]).toContain(errorOf(r).code);
    const late = await earn(auth, { earnKind: "profile_completed", idempotencyKey: key() });
    const granted = results.filter((r) => r.status === 200).length + (late.status === 200 ? 1 : 0);
    expect(granted).toBe(1);
    await expectNothingWritten(userId, 50, 1);
  });

  it.each(["article_read", "post_shared"])("%s: same target with a new key is 409, a new target is 200", async (earnKind) => {
    const { auth, userId } = await signedUp();
    const first = await earn(auth, { earnKind, idempotencyKey: key(), targetId: "target-A" });
    expect(first.status).toBe(200);
    const amount = first.body.data.entry.amount;
    const same = await earn(auth, { earnKind, idempotencyKey: key(), targetId: "target-A" });
    expect(same.status).toBe(409);
    expect(errorOf(same).code).toBe("ALREADY_EARNED");
    const other = await earn(auth, { earnKind, idempotencyKey: key(), targetId: "target-B" });
    expect(other.status).toBe(200);
    expect(other.body.data.balance).toBe(2 * amount);
    await expectNothingWritten(userId, 2 * amount, 2);
  });

  it("per-target grants of different kinds do not collide", async () => {
    const { auth, userId } = await signedUp();
    expect((await earn(auth, { earnKind: "article_read", idempotencyKey: key(), targetId: "x1" })).status).toBe(200);
    expect((await earn(auth, { earnKind: "post_shared", idempotencyKey: key(), targetId: "x1" })).status).toBe(200);
    await expectNothingWritten(userId, 12, 2);
  });

  it.each([
    ["article_read", 10, 2],
    ["post_shared", 5, 10],
  ])("%s: the daily cap of %i is 409 ALREADY_EARNED past it", async (earnKind, cap, amount) => {
    const { auth, userId } = await signedUp();
    for (let i = 0; i < cap; i++) {
      const res = await earn(auth, { earnKind, idempotencyKey: key(), targetId: `t${i}` });
      expect(res.status).toBe(200);
    }
    const over = await earn(auth, { earnKind, idempotencyKey: key(), targetId: `t${cap}` });
    expect(over.status).toBe(409);
    expect(errorOf(over).code).toBe("ALREADY_EARNED");
    await expectNothingWritten(userId, cap * amount, cap);
    // Another kind is unaffected by this kind's cap.
    const otherKind = earnKind === "article_read" ? "post_shared" : "article_read";
    expect((await earn(auth, { earnKind: otherKind, idempotencyKey: key(), targetId: "fresh" })).status).toBe(200);
  });

  it("the daily cap counts only today's grants", async () => {
    const { auth, userId } = await signedUp();
    const y = yesterdayAt(23);
    await db().repEntry.createMany({
      data: Array.from({ length: 10 }, (_, i) => ({
        userId,
        source: "fanAmp" as const,
        amount: 2,
        reason: "Read an article",
        earnKind: "article_read",
        targetId: `old${i}`,
        grantKey: `article_read:target:old${i}`,
        createdAt: y,
      })),
    });
    const res = await earn(auth, { earnKind: "article_read", idempotencyKey: key(), targetId: "today" });
    expect(res.status).toBe(200);
    // ... but a target read on an earlier day stays earned.
    const old = await earn(auth, { earnKind: "article_read", idempotencyKey: key(), targetId: "old3" });
    expect(old.status).toBe(409);
    expect(errorOf(old).code).toBe("ALREADY_EARNED");
  });

  it.each(["arena_check_in", "daily_quest_completion", "game_rating"])(
    "%s is server-awarded: 403 EARN_KIND_SERVER_AWARDED, nothing written",
    async (earnKind) => {
      const { auth, userId } = await signedUp();
      const res = await earn(auth, { earnKind, idempotencyKey: key() });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, error: { code: "EARN_KIND_SERVER_AWARDED", message: expect.any(String) } });
      const withTarget = await earn(auth, { earnKind, idempotencyKey: key(), targetId: "game_1" });
      expect(withTarget.status).toBe(403);
      expect(errorOf(withTarget).code).toBe("EARN_KIND_SERVER_AWARDED");
      await expectNothingWritten(userId);
    },
  );

  it.each([
    ["unknown earnKind", { earnKind: "free_money", idempotencyKey: "key-12345678" }, "body.earnKind"],
    ["missing earnKind", { idempotencyKey: "key-12345678" }, "body.earnKind"],
    ["earnKind not a string", { earnKind: 5, idempotencyKey: "key-12345678" }, "body.earnKind"],
    ["missing idempotencyKey", { earnKind: "daily_visit" }, "body.idempotencyKey"],
    ["too-short idempotencyKey", { earnKind: "daily_visit", idempotencyKey: "1234567" }, "body.idempotencyKey"],
    ["too-long idempotencyKey", { earnKind: "daily_visit", idempotencyKey: "k".repeat(129) }, "body.idempotencyKey"],
    ["idempotencyKey with spaces", { earnKind: "daily_visit", idempotencyKey: "has spaces here" }, "body.idempotencyKey"],
    ["idempotencyKey not a string", { earnKind: "daily_visit", idempotencyKey: 12345678 }, "body.idempotencyKey"],
    ["targetId on daily_visit", { earnKind: "daily_visit", idempotencyKey: "key-12345678", targetId: "x" }, "body.targetId"],
    ["targetId on profile_completed", { earnKind: "profile_completed", idempotencyKey: "key-12345678", targetId: "x" }, "body.targetId"],
    ["missing targetId on article_read", { earnKind: "article_read", idempotencyKey: "key-12345678" }, "body.targetId"],
    ["missing targetId on post_shared", { earnKind: "post_shared", idempotencyKey: "key-12345678" }, "body.targetId"],
    ["empty targetId", { earnKind: "article_read", idempotencyKey: "key-12345678", targetId: "" }, "body.targetId"],
    ["targetId over 128", { earnKind: "article_read", idempotencyKey: "key-12345678", targetId: "t".repeat(129) }, "body.targetId"],
    ["unknown key", { earnKind: "daily_visit", idempotencyKey: "key-12345678", amount: 1000 }, "body.amount"],
  ])("%s is 400 VALIDATION_ERROR naming %s", async (_label, json, path) => {
    const { auth, userId } = await signedUp();
    const res = await earn(auth, json);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: expect.any(Array) },
    });
    expect(errorOf(res).details!.map((d) => d.path)).toContain(path);
    await expectNothingWritten(userId);
  });

  it("an idempotencyKey of exactly 8 and 128 allowed characters is accepted", async () => {
    const { auth, userId } = await signedUp();
    await completeProfile(userId);
    expect((await earn(auth, { earnKind: "daily_visit", idempotencyKey: "aZ0_.:-9" })).status).toBe(200);
    expect((await earn(auth, { earnKind: "profile_completed", idempotencyKey: "k".repeat(128) })).status).toBe(200);
  });

  it("without a token or with a bad token is 401 and writes nothing", async () => {
    const res = await api("POST", EARN, { json: { earnKind: "daily_visit", idempotencyKey: key() } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    const bad = await api("POST", EARN, { headers: { authorization: "Bearer nope" }, json: { earnKind: "daily_visit", idempotencyKey: key() } });
    expect(bad.status).toBe(401);
    expect(errorOf(bad).code).toBe("UNAUTHORIZED");
  });

  it("50 concurrent earns with one key grant once; every answer carries the same entry", async () => {
    const { auth, userId } = await signedUp();
    await completeProfile(userId);
    const idempotencyKey = key();
    const results = await Promise.all(Array.from({ length: 50 }, () => earn(auth, { earnKind: "profile_completed", idempotencyKey })));
    for (const r of results) expect(r.status).toBe(200);
    const ids = new Set(results.map((r) => r.body.data.entry.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.body.data.replayed === false)).toHaveLength(1);
    expect(results.filter((r) => r.body.data.replayed === true)).toHaveLength(49);
    for (const r of results) expect(r.body.data.balance).toBe(50);
    await expectNothingWritten(userId, 50, 1);
  });

  it("50 concurrent earns with one key by a brand-new user grant once", async () => {
    const { auth, sub } = newUser();
    const idempotencyKey = key();
    const results = await Promise.all(Array.from({ length: 50 }, () => earn(auth, { earnKind: "daily_visit", idempotencyKey })));
    for (const r of results) expect(r.status).toBe(200);
    expect(new Set(results.map((r) => r.body.data.entry.id)).size).toBe(1);
    expect(results.filter((r) => r.body.data.replayed === false)).toHaveLength(1);
    await expectNothingWritten(await userIdOf(sub), 5, 1);
  });

  it("concurrent earns of a daily kind with distinct keys grant once", async () => {
    const { auth, userId } = await signedUp();
    const results = await Promise.all(Array.from({ length: 20 }, () => earn(auth, { earnKind: "daily_visit", idempotencyKey: key() })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(errorOf(r).code).toBe("ALREADY_EARNED");
    await expectNothingWritten(userId, 5, 1);
  });

  it("concurrent per-target earns never pass the daily cap", async () => {
    const { auth, userId } = await signedUp();
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => earn(auth, { earnKind: "article_read", idempotencyKey: key(), targetId: `c${i}` })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "ALREADY_EARNED")).toHaveLength(15);
    await expectNothingWritten(userId, 20, 10);
  });
});
