import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan } from "../helpers";
import { award } from "../../lib/core/rep/grants";
import { completeQuest } from "../../lib/features/quests/engine";

// Streaks with freezes and the fan's time zone: the once-per-24-hours time zone (concurrently), the streak answer,
// buying freezes (cap under concurrency, idempotency, Rep spent not earned), freezes saving a missed day only when
// held before it, and the streak-at-risk notification in the fan's local evening, once per UTC day.

type Fan = Awaited<ReturnType<typeof fan>>;
const DAY = 86_400_000;
const SETTINGS = "/api/user/settings";
const STREAK = "/api/v1/engage/streak";
const FREEZES = "/api/v1/engage/streak/freezes";
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = (at?: string, authorization: string | null = `Bearer ${cronSecret()}`) =>
  api("GET", `/api/cron/streaks-at-risk${at ? `?at=${encodeURIComponent(at)}` : ""}`, { headers: authorization === null ? {} : { authorization } });

const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const today = () => utcDay(Date.now());
const dayOffset = (days: number) => utcDay(Date.now() + days * DAY);
const setTimezone = (f: Fan, timezone: string | null) => api("PATCH", SETTINGS, { headers: f.auth, json: { timezone } });

async function seedStreak(userId: string, current: number, lastDay: string, longest = current) {
  await db().$executeRaw`
    INSERT INTO user_streaks (user_id, current, longest, last_day, updated_at) VALUES (${userId}::uuid, ${current}, ${longest}, ${lastDay}::date, now())
    ON CONFLICT (user_id) DO UPDATE SET current = EXCLUDED.current, longest = EXCLUDED.longest, last_day = EXCLUDED.last_day`;
}
const seedFreeze = (userId: string, acquiredAt: Date) =>
  db().$executeRaw`INSERT INTO streak_freezes (id, user_id, acquired_at) VALUES (${randomUUID()}::uuid, ${userId}::uuid, ${acquiredAt})`;
const giveRep = (userId: string, amount: number) =>
  db().$transaction((tx) => award(tx, userId, { earnKind: "test_grant", amount, source: "club", reason: "Test grant", grantKey: `test:${randomUUID()}` }));
const userRow = (id: string) => db().user.findUniqueOrThrow({ where: { id } });

describe("the fan's time zone (PATCH /api/user/settings)", () => {
  it("an unknown zone is 400 naming the field; GET settings shows none at first", async () => {
    const f = await fan();
    expect((await api("GET", SETTINGS, { headers: f.auth })).body.data).toMatchObject({ timezone: null, timezoneChangeableAt: null });
    for (const tz of ["Mars/Olympus_Mons", "Europe/Londonn", "", "../etc/passwd"]) {
      const res = await setTimezone(f, tz);
      expect(res.status, tz).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.[0]?.path).toBe("body.timezone");
    }
    expect((await userRow(f.id)).timezone).toBeNull();
  });

  it("changes once per 24 hours: the same value is no change, another is 409 naming when; 24 hours later it may", async () => {
    const f = await fan();
    const first = await setTimezone(f, "europe/london");
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.timezone).toBe("Europe/London");
    const next = Date.parse(first.body.data.timezoneChangeableAt);
    expect(Math.abs(next - (Date.now() + DAY))).toBeLessThan(60_000);

    const same = await setTimezone(f, "Europe/London");
    expect(same.status).toBe(200);
    expect(same.body.data.timezoneChangeableAt).toBe(first.body.data.timezoneChangeableAt);

    const other = await setTimezone(f, "Asia/Tokyo");
    expect(other.status).toBe(409);
    expect(errorOf(other).code).toBe("TIMEZONE_CHANGE_TOO_SOON");
    expect(errorOf(other).message).toContain(first.body.data.timezoneChangeableAt);
    // Other settings in the same PATCH are not written either.
    const mixed = await api("PATCH", SETTINGS, { headers: f.auth, json: { timezone: "Asia/Tokyo", notifyTeams: false } });
    expect(mixed.status).toBe(409);
    expect((await userRow(f.id)).notifyTeams).toBe(true);
    // Other settings alone still change.
    expect((await api("PATCH", SETTINGS, { headers: f.auth, json: { analyticsPersonalization: false } })).status).toBe(200);

    await db().$executeRaw`UPDATE users SET timezone_changed_at = now() - interval '24 hours 1 minute' WHERE id = ${f.id}::uuid`;
    const later = await setTimezone(f, "Asia/Tokyo");
    expect(later.status, later.text).toBe(200);
    expect(later.body.data.timezone).toBe("Asia/Tokyo");
    expect((await api("GET", SETTINGS, { headers: f.auth })).body.data.timezone).toBe("Asia/Tokyo");
  });

  it("concurrent changes: exactly one wins, the others are 409", async () => {
    const f = await fan();
    const zones = ["Europe/Paris", "Europe/Berlin", "America/Chicago", "Asia/Kolkata", "Australia/Sydney", "Africa/Lagos"];
    const results = await Promise.all(zones.map((tz) => setTimezone(f, tz)));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => errorOf(r).code)).toEqual(Array(zones.length - 1).fill("TIMEZONE_CHANGE_TOO_SOON"));
    expect((await userRow(f.id)).timezone).toBe(won[0]!.body.data.timezone);
  });
});

describe("GET /api/v1/engage/streak", () => {
  it("401 without a session", async () => {
    expect((await api("GET", STREAK)).status).toBe(401);
  });

  it("a fan without a streak; a streak at risk with the UTC day's end in local time", async () => {
    const f = await fan();
    const none = await api("GET", STREAK, { headers: f.auth });
    expect(none.status, none.text).toBe(200);
    expect(none.body.data).toMatchObject({ current: 0, longest: 0, lastDay: null, freezesHeld: 0, atRisk: false, today: today(), timezone: "UTC" });

    expect((await setTimezone(f, "Asia/Tokyo")).status).toBe(200);
    await seedStreak(f.id, 5, dayOffset(-1), 9);
    const s = (await api("GET", STREAK, { headers: f.auth })).body.data;
    const end = `${dayOffset(1)}T00:00:00.000Z`;
    expect(s).toMatchObject({ current: 5, longest: 9, lastDay: dayOffset(-1), atRisk: true, dayEndsAt: end, timezone: "Asia/Tokyo" });
    expect(s.dayEndsLocal).toBe(`${dayOffset(1)}T09:00:00`);

    await seedStreak(f.id, 6, today(), 9);
    expect((await api("GET", STREAK, { headers: f.auth })).body.data).toMatchObject({ current: 6, atRisk: false });
  });
});

describe("streak freezes", () => {
  it("bought with Rep: spending, not earning; 409 without enough Rep", async () => {
    const poor = await fan();
    const refused = await api("POST", FREEZES, { headers: poor.auth });
    expect(refused.status).toBe(409);
    expect(errorOf(refused).code).toBe("INSUFFICIENT_REP");
    expect(await db().streakFreeze.count({ where: { userId: poor.id } })).toBe(0);

    const f = await fan();
    await giveRep(f.id, 500);
    const earnedBefore = Number((await userRow(f.id)).repEarnedClub);
    const res = await api("POST", FREEZES, { headers: f.auth });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ repSpent: 200, balance: 300, streak: { freezesHeld: 1 } });
    const u = await userRow(f.id);
    expect(Number(u.repBalance)).toBe(300);
    expect(Number(u.repEarnedClub)).toBe(earnedBefore);
    const entry = await db().repEntry.findFirstOrThrow({ where: { userId: f.id, earnKind: "streak_freeze" } });
    expect(Number(entry.amount)).toBe(-200);
    expect((await db().streakFreeze.findUniqueOrThrow({ where: { id: res.body.data.freeze.id } })).repEntryId).toBe(entry.id);
  });

  it("at most 2 held, under concurrency", async () => {
    const f = await fan();
    await giveRep(f.id, 2000);
    const results = await Promise.all(Array.from({ length: 6 }, () => api("POST", FREEZES, { headers: f.auth })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(4);
    expect(refused.every((r) => errorOf(r).code === "FREEZE_LIMIT_REACHED")).toBe(true);
    expect(await db().streakFreeze.count({ where: { userId: f.id } })).toBe(2);
    expect(Number((await userRow(f.id)).repBalance)).toBe(1600);
  });

  it("an Idempotency-Key buys once: the retry answers the first purchase", async () => {
    const f = await fan();
    await giveRep(f.id, 1000);
    const headers = { ...f.auth, "Idempotency-Key": `k-${randomUUID()}` };
    const [a, b] = await Promise.all([api("POST", FREEZES, { headers }), api("POST", FREEZES, { headers })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.freeze.id).toBe(b.body.data.freeze.id);
    expect([a.headers.get("idempotent-replayed"), b.headers.get("idempotent-replayed")].sort()).toEqual(["true", null].sort());
    expect(await db().streakFreeze.count({ where: { userId: f.id } })).toBe(1);
    expect(Number((await userRow(f.id)).repBalance)).toBe(800);
  });

  it("a malformed Idempotency-Key is 400 VALIDATION_ERROR naming the header, as documented; nothing is bought", async () => {
    const f = await fan();
    await giveRep(f.id, 1000);
    for (const key of ["two words", "k".repeat(256), "clé"]) {
      const res = await api("POST", FREEZES, { headers: { ...f.auth, "Idempotency-Key": key } });
      expect(res.status, key).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "headers.idempotency-key" }] });
    }
    expect(await db().streakFreeze.count({ where: { userId: f.id } })).toBe(0);
    const op = (await api("GET", "/api/openapi.json")).body.paths[FREEZES].post;
    expect(op.responses["400"]?.description).toMatch(/VALIDATION_ERROR/);
    expect(op.parameters).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header", required: false }));
  });

  it("a freeze held before the missed day saves it (read or cron); one bought after it does not", async () => {
    const saved = await fan();
    await seedStreak(saved.id, 4, dayOffset(-2), 4);
    await seedFreeze(saved.id, new Date(Date.now() - 3 * DAY));
    const s = (await api("GET", STREAK, { headers: saved.auth })).body.data;
    expect(s).toMatchObject({ current: 4, lastDay: dayOffset(-1), freezesHeld: 0, atRisk: true });
    expect((await db().streakFreeze.findFirstOrThrow({ where: { userId: saved.id } })).usedForDay?.toISOString().slice(0, 10)).toBe(dayOffset(-1));

    // Two missed days, two freezes held before each: both used, by the cron this time.
    const twice = await fan();
    await seedStreak(twice.id, 8, dayOffset(-3), 8);
    await seedFreeze(twice.id, new Date(Date.now() - 5 * DAY));
    await seedFreeze(twice.id, new Date(Date.now() - 4 * DAY));
    expect((await cron()).status).toBe(200);
    expect((await api("GET", STREAK, { headers: twice.auth })).body.data).toMatchObject({ current: 8, lastDay: dayOffset(-1), freezesHeld: 0 });

    const late = await fan();
    await giveRep(late.id, 500);
    await seedStreak(late.id, 4, dayOffset(-2), 4);
    expect((await api("POST", FREEZES, { headers: late.auth })).status).toBe(201);
    expect((await cron()).status).toBe(200);
    const l = (await api("GET", STREAK, { headers: late.auth })).body.data;
    expect(l).toMatchObject({ current: 0, longest: 4, freezesHeld: 1, atRisk: false });
  });

  it("when the streak moves over a missed day, a freeze held before it keeps the streak going", async () => {
    const quest = await db().quest.findFirstOrThrow({ where: { cadence: "daily" }, select: { id: true, title: true, cadence: true, repSource: true } });
    const complete = (userId: string) => db().$transaction((tx) => completeQuest(tx, userId, quest, today(), 0, new Date()));

    const kept = await fan();
    await seedStreak(kept.id, 4, dayOffset(-2), 4);
    await seedFreeze(kept.id, new Date(Date.now() - 3 * DAY));
    expect(await complete(kept.id)).toBe(true);
    expect((await api("GET", STREAK, { headers: kept.auth })).body.data).toMatchObject({ current: 5, longest: 5, lastDay: today(), freezesHeld: 0 });

    const restarted = await fan();
    await seedStreak(restarted.id, 4, dayOffset(-2), 4);
    await seedFreeze(restarted.id, new Date());
    expect(await complete(restarted.id)).toBe(true);
    expect((await api("GET", STREAK, { headers: restarted.auth })).body.data).toMatchObject({ current: 1, longest: 4, freezesHeld: 1 });
  });
});

describe("the streak-at-risk notification (GET /api/cron/streaks-at-risk)", () => {
  // Asia/Tokyo is UTC+9 all year: 11:30Z is 20:30 local (in the evening window), 08:00Z is 17:00.
  const at = (hhmm: string) => `${today()}T${hhmm}:00.000Z`;
  const atRiskOf = (userId: string) => db().notification.findMany({ where: { userId, type: "STREAK_AT_RISK" } });

  it("401 without the cron secret; scheduled in vercel.json", async () => {
    expect((await cron(undefined, null)).status).toBe(401);
    expect((await cron(undefined, `Bearer ${cronSecret()}x`)).status).toBe(401);
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string }[] };
    expect(crons.map((c) => c.path)).toContain("/api/cron/streaks-at-risk");
  });

  it("in the fan's local evening, once per UTC day however often and concurrently it runs", async () => {
    const f = await fan();
    expect((await setTimezone(f, "Asia/Tokyo")).status).toBe(200);
    await seedStreak(f.id, 3, dayOffset(-1));

    expect((await cron(at("08:00"))).status).toBe(200);
    expect(await atRiskOf(f.id)).toHaveLength(0);

    const runs = await Promise.all([cron(at("11:30")), cron(at("11:30")), cron(at("11:45")), cron(at("12:00"))]);
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const sent = await atRiskOf(f.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.causeKey).toBe(`streak_at_risk:${today()}`);
    expect(sent[0]!.payload).toMatchObject({ day: today(), streak: 3, endsAt: `${dayOffset(1)}T00:00:00.000Z` });
    expect((sent[0]!.payload as { body: string }).body).toContain("09:00");

    const inbox = await api("GET", "/api/notifications", { headers: f.auth });
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.body.data.notifications.filter((n: { type: string }) => n.type === "STREAK_AT_RISK")).toHaveLength(1);
  });

  it("not for a fan who completed today's quest, has no streak, or turned milestone notifications off", async () => {
    const done = await fan();
    const off = await fan();
    const utc = await fan();
    for (const f of [done, off, utc]) if (f !== utc) expect((await setTimezone(f, "Asia/Tokyo")).status).toBe(200);
    await seedStreak(done.id, 3, today());
    await seedStreak(off.id, 3, dayOffset(-1));
    expect((await api("PATCH", SETTINGS, { headers: off.auth, json: { notifyMilestones: false } })).status).toBe(200);
    // No time zone: the evening is UTC's, 19:00 to 22:00Z.
    await seedStreak(utc.id, 2, dayOffset(-1));
    expect((await cron(at("11:30"))).status).toBe(200);
    expect(await atRiskOf(done.id)).toHaveLength(0);
    expect(await atRiskOf(off.id)).toHaveLength(0);
    expect(await atRiskOf(utc.id)).toHaveLength(0);
    expect((await cron(at("19:30"))).status).toBe(200);
    expect(await atRiskOf(utc.id)).toHaveLength(1);
  });
});
