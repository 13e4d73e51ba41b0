import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { uuidv7 } from "../../lib/db/ids";
import { api, db, errorOf, poster } from "../helpers";

// Push delivery (lib/core/push): every notification of a user with a device gets one outbox row (a trigger, in the
// producer's statement); GET /api/cron/push-deliver and the after-request attempt claim due rows and send each at
// most once, to the local stand-ins of Expo's push API and of web push endpoints (tests/setup/server-env/push.ts).

type Auth = Record<string, string>;
type User = { id: string; auth: Auth };
const standIn = () => (inject("fixtures").push as { url: string }).url;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const deliver = () => api("GET", "/api/cron/push-deliver", { headers: { authorization: `Bearer ${cronSecret()}` } });
const sentTo = async (to: string) =>
  ((await (await fetch(`${standIn()}/__control/sent`)).json()) as { to: string; title?: string }[]).filter((s) => s.to === to);
const prefs = (auth: Auth) => api("GET", "/api/v1/me/notification-preferences", { headers: auth });
const putPrefs = (auth: Auth, json: unknown) => api("PUT", "/api/v1/me/notification-preferences", { headers: auth, json });

const expoToken = (tag = "") => `ExponentPushToken[${tag}${randomUUID().slice(0, 18)}]`;
async function expoDevice(user: User, token = expoToken()) {
  const res = await api("POST", "/api/v1/me/devices", { headers: user.auth, json: { provider: "expo", token, platform: "ios" } });
  expect(res.status).toBe(201);
  return { id: res.body.data.device.id as string, token };
}
/** A web push subscription whose endpoint is the stand-in (a local http URL, so written directly: the API takes https only). */
async function webDevice(user: User, name: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const keys = { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
  const token = `${standIn()}/webpush/${name}-${randomUUID()}`;
  const d = await db().device.create({ data: { id: uuidv7(), userId: user.id, provider: "webpush", token, webpushKeys: keys, platform: "web" } });
  return { id: d.id, token };
}
const deviceExists = async (id: string) => (await db().device.count({ where: { id } })) === 1;
const newPost = (authorId: string) => db().post.create({ data: { authorId, content: `post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000) } });
const comment = (auth: Auth, postId: string) => api("POST", `/api/locker-room/${postId}/comments`, { headers: auth, json: { content: `c ${randomUUID()}` } });
const outboxOf = (userId: string) => db().pushOutbox.findMany({ where: { userId }, orderBy: { id: "asc" } });

/** Runs the cron until none of the user's rows is due or being sent (the after-request attempt may hold one). */
async function settle(userId: string) {
  for (let i = 0; i < 40; i++) {
    const res = await deliver();
    expect(res.status).toBe(200);
    const busy = await db().pushOutbox.count({ where: { userId, OR: [{ status: "sending" }, { status: "pending", nextAttemptAt: { lte: new Date() } }] } });
    if (busy === 0) return outboxOf(userId);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("outbox never settled");
}
/** A comment by `actor` on a new post of `author`: one REPLY notification for the author, caused by `actor`. */
async function replyTo(author: User, actor: User) {
  const post = await newPost(author.id);
  expect((await comment(actor.auth, post.id)).status).toBe(201);
  return post;
}
const makeDue = (userId: string) => db().pushOutbox.updateMany({ where: { userId, status: "pending" }, data: { nextAttemptAt: new Date() } });

describe("push delivery", () => {
  it("one push per cause: concurrent producers of one cause key and concurrent delivery runs send it once", async () => {
    const user = await poster();
    const device = await expoDevice(user);
    const causeKey = `test:${randomUUID()}`;
    await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          db().$executeRaw`
          INSERT INTO notifications (id, user_id, type, cause_key, payload)
          VALUES (${uuidv7()}::uuid, ${user.id}::uuid, 'MILESTONE', ${causeKey}, '{"title":"Once","body":"only once"}'::jsonb)
          ON CONFLICT (user_id, cause_key) DO NOTHING`,
      ),
    );
    const results = await Promise.all(Array.from({ length: 4 }, deliver));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const rows = await settle(user.id);
    expect(rows.map((r) => [r.causeKey, r.status, r.attempts])).toEqual([[causeKey, "sent", 1]]);
    expect((await sentTo(device.token)).map((s) => s.title)).toEqual(["Once"]);
    expect(await db().pushDelivery.count({ where: { outboxId: rows[0]!.id } })).toBe(1);

    // An API producer (a comment: REPLY) with the after-request attempt racing concurrent cron runs: one send.
    const actor = await poster();
    await replyTo(user, actor);
    await Promise.all(Array.from({ length: 3 }, deliver));
    const after = await settle(user.id);
    expect(after.map((r) => r.status)).toEqual(["sent", "sent"]);
    expect(await sentTo(device.token)).toHaveLength(2);
  });

  it("a new follower reaches the phone right after the answer, with no cron run", async () => {
    const [followed, follower] = await Promise.all([poster(), poster()]);
    const device = await expoDevice(followed);
    expect((await api("POST", `/api/v1/users/${followed.id}/follow`, { headers: follower.auth })).status).toBe(200);
    // The after-request run sends, then records the row as sent: wait for both (the provider's stand-in sees the
    // message a moment before the outbox row's update commits).
    const delivered = async () => (await sentTo(device.token)).length > 0 && (await outboxOf(followed.id)).every((o) => o.status === "sent");
    for (let i = 0; i < 50 && !(await delivered()); i++) await new Promise((r) => setTimeout(r, 100));
    expect((await sentTo(device.token)).map((s) => s.title)).toEqual([expect.stringContaining("followed you")]);
    expect(await outboxOf(followed.id)).toMatchObject([{ type: "FOLLOW", status: "sent" }]);
  });

  it("quiet hours without a zone follow the fan's time zone, also after it changes", async () => {
    const [user, actor] = await Promise.all([poster(), poster()]);
    const device = await expoDevice(user);
    // Asia/Karachi is UTC+05:00 all year: the quiet hours are around the current hour there, not in UTC.
    await db().user.update({ where: { id: user.id }, data: { timezone: "Asia/Karachi" } });
    const local = (new Date().getUTCHours() + 5) % 24;
    const clock = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
    const set = await putPrefs(user.auth, { quietHours: { start: clock(local - 1), end: clock(local + 1) } });
    expect([set.status, set.body.data.quietHours]).toEqual([
      200,
      { start: clock(local - 1), end: clock(local + 1), timeZone: "Asia/Karachi", followsAccountTimeZone: true },
    ]);
    await replyTo(user, actor);
    expect((await settle(user.id)).map((r) => r.status)).toEqual(["pending"]);
    expect(await sentTo(device.token)).toEqual([]);

    // The fan's zone becomes UTC (unset): the same clock hours are now hours away, and the queued push goes out.
    await db().user.update({ where: { id: user.id }, data: { timezone: null } });
    expect((await api("GET", "/api/v1/me/notification-preferences", { headers: user.auth })).body.data.quietHours).toMatchObject({
      timeZone: "UTC",
      followsAccountTimeZone: true,
    });
    await makeDue(user.id);
    expect((await settle(user.id)).map((r) => r.status)).toEqual(["sent"]);
  });

  it("quiet hours queue the push until they end, then it is sent; one older than 24 h when due is dropped as stale", async () => {
    const [user, actor] = await Promise.all([poster(), poster()]);
    const device = await expoDevice(user);
    const hour = new Date().getUTCHours();
    const clock = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
    const set = await putPrefs(user.auth, { quietHours: { start: clock(hour - 1), end: clock(hour + 1), timeZone: "UTC" } });
    expect([set.status, set.body.data.quietHours]).toEqual([
      200,
      { start: clock(hour - 1), end: clock(hour + 1), timeZone: "UTC", followsAccountTimeZone: false },
    ]);
    await replyTo(user, actor);
    const [queued] = await settle(user.id);
    expect([queued!.status, queued!.attempts]).toEqual(["pending", 0]);
    const end = new Date();
    end.setUTCHours(hour + 1, 0, 0, 0);
    expect(queued!.nextAttemptAt.getTime()).toBe(end.getTime());
    expect(await sentTo(device.token)).toEqual([]);

    // The quiet hours are over (moved away from now, and the row made due as if their end had come): sent.
    expect((await putPrefs(user.auth, { quietHours: { start: clock(hour + 2), end: clock(hour + 3), timeZone: "UTC" } })).status).toBe(200);
    await makeDue(user.id);
    expect((await settle(user.id)).map((r) => r.status)).toEqual(["sent"]);
    expect(await sentTo(device.token)).toHaveLength(1);

    // Queued for more than 24 hours: dropped when it falls due, never sent.
    expect((await putPrefs(user.auth, { quietHours: { start: clock(hour - 1), end: clock(hour + 1), timeZone: "UTC" } })).status).toBe(200);
    await replyTo(user, actor);
    await settle(user.id);
    await db().pushOutbox.updateMany({ where: { userId: user.id, status: "pending" }, data: { createdAt: new Date(Date.now() - 25 * 3_600_000) } });
    expect((await putPrefs(user.auth, { quietHours: null })).body.data.quietHours).toBeNull();
    await makeDue(user.id);
    const rows = await settle(user.id);
    expect(rows.map((r) => [r.status, r.dropReason])).toEqual([
      ["sent", null],
      ["dropped", "stale"],
    ]);
    expect(await sentTo(device.token)).toHaveLength(1);
  });

  it("dead tokens remove the device: Expo DeviceNotRegistered in a ticket and in a receipt, web push 410 and 404", async () => {
    const [user, actor] = await Promise.all([poster(), poster()]);
    const [expoDead, expoReceiptDead, expoAlive, web410, web404, webAlive] = [
      await expoDevice(user, expoToken("Dead")),
      await expoDevice(user, expoToken("ReceiptDead")),
      await expoDevice(user),
      await webDevice(user, "gone"),
      await webDevice(user, "missing"),
      await webDevice(user, "ok"),
    ];
    await replyTo(user, actor);
    const rows = await settle(user.id);
    expect(rows.map((r) => r.status)).toEqual(["sent"]);
    await deliver(); // reads the due Expo receipts (delay 0 in tests)
    const exists = await Promise.all([expoDead, expoReceiptDead, expoAlive, web410, web404, webAlive].map((d) => deviceExists(d.id)));
    expect(exists).toEqual([false, false, true, false, false, true]);
    for (const d of [expoDead, expoReceiptDead, expoAlive, web410, web404, webAlive]) expect(await sentTo(d.token)).toHaveLength(1);
    const outcomes = await db().pushDelivery.findMany({ where: { outboxId: rows[0]!.id }, select: { provider: true, outcome: true } });
    expect(outcomes.filter((o) => o.outcome === "dead").length).toBe(3);

    // Only dead devices: nothing to send to, dropped; their devices gone too.
    const other = await poster();
    const only = await expoDevice(other, expoToken("Dead"));
    await replyTo(other, actor);
    expect((await settle(other.id)).map((r) => [r.status, r.dropReason])).toEqual([["dropped", "no_device"]]);
    expect(await deviceExists(only.id)).toBe(false);
  });

  it("never across a block: a block made after the notification, before its push, drops it", async () => {
    const [user, actor, friend] = await Promise.all([poster(), poster(), poster()]);
    const device = await expoDevice(user);
    const hour = new Date().getUTCHours();
    const clock = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
    // Quiet hours hold both pushes back while the user blocks the actor.
    await putPrefs(user.auth, { quietHours: { start: clock(hour - 1), end: clock(hour + 1), timeZone: "UTC" } });
    await replyTo(user, actor);
    await replyTo(user, friend);
    expect((await settle(user.id)).map((r) => r.status)).toEqual(["pending", "pending"]);
    expect((await api("POST", "/api/user/blocks", { headers: user.auth, json: { blockedUserId: actor.id } })).status).toBeLessThan(300);
    await putPrefs(user.auth, { quietHours: null });
    await makeDue(user.id);
    const rows = await settle(user.id);
    expect(rows.map((r) => [r.actorId, r.status, r.dropReason])).toEqual([
      [actor.id, "dropped", "blocked"],
      [friend.id, "sent", null],
    ]);
    expect(await sentTo(device.token)).toHaveLength(1);
  });

  it("push off: in the inbox, not pushed; in-app off: neither", async () => {
    const [user, actor] = await Promise.all([poster(), poster()]);
    const device = await expoDevice(user);
    const off = await putPrefs(user.auth, { types: [{ type: "REPLY", push: false }] });
    expect(off.body.data.types.find((t: { type: string }) => t.type === "REPLY")).toEqual({
      type: "REPLY",
      inApp: true,
      push: false,
      setting: "notifyCommunity",
    });
    const post = await replyTo(user, actor);
    expect((await settle(user.id)).map((r) => [r.status, r.dropReason])).toEqual([["dropped", "push_off"]]);
    expect(await db().notification.count({ where: { userId: user.id, type: "REPLY" } })).toBe(1);
    expect(await sentTo(device.token)).toEqual([]);

    expect((await putPrefs(user.auth, { types: [{ type: "REPLY", inApp: false, push: true }] })).status).toBe(200);
    expect((await comment(actor.auth, post.id)).status).toBe(201);
    expect(await db().notification.count({ where: { userId: user.id, type: "REPLY" } })).toBe(1);
    expect(await outboxOf(user.id)).toHaveLength(1);
    expect(await sentTo(device.token)).toEqual([]);
  });

  it("retries a failing provider with exponential backoff, then gives up after PUSH_MAX_ATTEMPTS (3 in tests)", async () => {
    const [user, actor] = await Promise.all([poster(), poster()]);
    await expoDevice(user, expoToken("Fail"));
    await replyTo(user, actor);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 2; attempt++) {
      const [row] = await settle(user.id);
      expect([row!.status, row!.attempts]).toEqual(["pending", attempt]);
      expect(row!.lastError).toContain("expo");
      waits.push(Math.round((row!.nextAttemptAt.getTime() - row!.updatedAt.getTime()) / 1000));
      await makeDue(user.id);
    }
    expect(waits[0]).toBeGreaterThanOrEqual(59);
    expect(waits[0]).toBeLessThanOrEqual(61);
    expect(waits[1]).toBeGreaterThanOrEqual(119);
    expect(waits[1]).toBeLessThanOrEqual(121);
    const [last] = await settle(user.id);
    expect([last!.status, last!.attempts]).toEqual(["failed", 3]);
  });
});

describe("notification preferences", () => {
  it("the account settings and the per-type in-app switches are one state, seen through either", async () => {
    const user = await poster();
    const inApp = async () =>
      Object.fromEntries(((await prefs(user.auth)).body.data.types as { type: string; inApp: boolean }[]).map((t) => [t.type, t.inApp]));
    const settings = async () => (await api("GET", "/api/user/settings", { headers: user.auth })).body.data;
    expect(Object.values(await inApp()).every(Boolean)).toBe(true);

    expect((await api("PATCH", "/api/user/settings", { headers: user.auth, json: { notifyCommunity: false } })).status).toBe(200);
    expect(await inApp()).toMatchObject({ REPLY: false, REACTION: false, FOLLOW: false, FOLLOW_REQUEST: false, GAME_ALERT: true });

    // One type of the setting back on: the setting is on again, the other type stays off.
    expect((await putPrefs(user.auth, { types: [{ type: "REPLY", inApp: true }] })).status).toBe(200);
    expect(await settings()).toMatchObject({ notifyCommunity: true });
    expect(await inApp()).toMatchObject({ REPLY: true, REACTION: false, FOLLOW: false });

    // Every type of a setting off: the setting is off; the setting turned on: all its types on.
    await putPrefs(user.auth, {
      types: [
        { type: "GAME_ALERT", inApp: false },
        { type: "RATING", inApp: false },
        { type: "TEAM_POST", inApp: false },
      ],
    });
    expect(await settings()).toMatchObject({ notifyTeams: false, notifyCommunity: true });
    await api("PATCH", "/api/user/settings", { headers: user.auth, json: { notifyTeams: true, notifyCommunity: true } });
    expect(await inApp()).toMatchObject({ GAME_ALERT: true, RATING: true, TEAM_POST: true, REPLY: true, REACTION: false });
  });

  it("400 for bad input naming the field, nothing changed; 401 without a session", async () => {
    const user = await poster();
    const before = (await prefs(user.auth)).body.data;
    for (const [json, path] of [
      [{}, "body"],
      [{ quietHours: { start: "25:00", end: "07:00", timeZone: "UTC" } }, "body.quietHours.start"],
      [{ quietHours: { start: "22:00", end: "22:00", timeZone: "UTC" } }, "body.quietHours.end"],
      [{ quietHours: { start: "22:00", end: "07:00", timeZone: "Mars/Olympus" } }, "body.quietHours.timeZone"],
      [{ types: [{ type: "NOPE", push: false }] }, "body.types.0.type"],
      [
        {
          types: [
            { type: "REPLY", push: false },
            { type: "REPLY", inApp: false },
          ],
        },
        "body.types",
      ],
    ] as const) {
      const res = await putPrefs(user.auth, json);
      expect([res.status, errorOf(res).code, errorOf(res).details?.[0]?.path]).toEqual([400, "VALIDATION_ERROR", path]);
    }
    expect((await prefs(user.auth)).body.data).toEqual(before);
    expect((await api("GET", "/api/v1/me/notification-preferences")).status).toBe(401);
    expect((await api("GET", "/api/cron/push-deliver")).status).toBe(401);
  });
});
