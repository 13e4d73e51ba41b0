import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { uuidv7 } from "../../lib/db/ids";
import { api, db, poster } from "../helpers";

// Push to native devices (lib/core/push/providers.ts): FCM through its HTTP v1 API with an OAuth2 access token exchanged
// for the service account's signed assertion, APNs over HTTP/2 with an ES256 provider token. Both against the local
// stand-ins of tests/setup/server-env/push.ts (the FCM API and its token endpoint; an HTTP/2 TLS server for APNs),
// which check the credentials and answer dead tokens by the token's start.

type Auth = Record<string, string>;
type User = { id: string; auth: Auth };
type Sent = {
  kind: string;
  to: string;
  title?: string;
  body?: string;
  data?: Record<string, unknown>;
  authorization?: string;
  tag?: string;
  project?: string;
  topic?: string;
  pushType?: string;
  threadId?: string;
  bearerValid?: boolean;
};
const fx = () => inject("fixtures").push as { url: string; fcmProject: string; apnsTopic: string; apnsKeyId: string; apnsTeamId: string };
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const deliver = () => api("GET", "/api/cron/push-deliver", { headers: { authorization: `Bearer ${cronSecret()}` } });
const sentTo = async (to: string) => ((await (await fetch(`${fx().url}/__control/sent`)).json()) as Sent[]).filter((s) => s.to === to);
const issuedFcmTokens = async () => (await (await fetch(`${fx().url}/__control/fcm-tokens`)).json()) as string[];

async function device(user: User, provider: "fcm" | "apns", token: string) {
  const res = await api("POST", "/api/v1/me/devices", {
    headers: user.auth,
    json: { provider, token, platform: provider === "fcm" ? "android" : "ios" },
  });
  expect(res.status).toBe(201);
  return { id: res.body.data.device.id as string, token };
}
const fcmToken = (start = "ok") => `${start}-${randomUUID()}:APA91b${randomBytes(24).toString("base64url")}`;
/** APNs device tokens are 64 hex digits; the stand-in answers by their start ("dead", "badd"; "0000" is alive). */
const apnsToken = (start = "0000") => start + randomBytes(32).toString("hex").slice(start.length);
const deviceExists = async (id: string) => (await db().device.count({ where: { id } })) === 1;
const newPost = (authorId: string) => db().post.create({ data: { authorId, content: `post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000) } });

async function settle(userId: string) {
  for (let i = 0; i < 40; i++) {
    expect((await deliver()).status).toBe(200);
    const busy = await db().pushOutbox.count({ where: { userId, OR: [{ status: "sending" }, { status: "pending", nextAttemptAt: { lte: new Date() } }] } });
    if (busy === 0) return db().pushOutbox.findMany({ where: { userId }, orderBy: { id: "asc" } });
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("outbox never settled");
}
async function replyTo(author: User, actor: User) {
  const post = await newPost(author.id);
  const res = await api("POST", `/api/locker-room/${post.id}/comments`, { headers: actor.auth, json: { content: `c ${randomUUID()}` } });
  expect(res.status).toBe(201);
}
const deliveriesOf = (outboxId: string) =>
  db().pushDelivery.findMany({ where: { outboxId }, select: { deviceId: true, provider: true, outcome: true, detail: true } });

describe("push to FCM and APNs devices", () => {
  it("each device gets exactly one push per cause, with the provider's credentials, through FCM and APNs", async () => {
    const [user, actor] = await Promise.all([poster(), poster()]);
    const android = await device(user, "fcm", fcmToken());
    const iphone = await device(user, "apns", apnsToken());
    const causeKey = `test:${randomUUID()}`;
    // One cause written by 6 concurrent producers, delivered by 3 concurrent runs: one push per device.
    await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          db().$executeRaw`
          INSERT INTO notifications (id, user_id, type, cause_key, payload)
          VALUES (${uuidv7()}::uuid, ${user.id}::uuid, 'MILESTONE', ${causeKey}, '{"title":"Native once","body":"to each device once"}'::jsonb)
          ON CONFLICT (user_id, cause_key) DO NOTHING`,
      ),
    );
    await Promise.all(Array.from({ length: 3 }, deliver));
    const [row] = await settle(user.id);
    expect([row!.causeKey, row!.status]).toEqual([causeKey, "sent"]);

    const [fcm] = await sentTo(android.token);
    expect(await sentTo(android.token)).toHaveLength(1);
    expect(fcm).toMatchObject({ kind: "fcm", title: "Native once", body: "to each device once", project: fx().fcmProject });
    expect(fcm!.data).toMatchObject({ notificationId: row!.notificationId, type: "MILESTONE", causeKey });
    // The bearer is an access token the token endpoint issued for a valid assertion of the service account.
    expect(fcm!.authorization).toMatch(/^Bearer fcm-access-\d+$/);
    expect(await issuedFcmTokens()).toContain(fcm!.authorization!.slice("Bearer ".length));

    const [apns] = await sentTo(iphone.token);
    expect(await sentTo(iphone.token)).toHaveLength(1);
    expect(apns).toMatchObject({ kind: "apns", title: "Native once", body: "to each device once", topic: fx().apnsTopic, pushType: "alert" });
    expect(apns!.data).toMatchObject({ notificationId: row!.notificationId, causeKey });
    // A provider token (ES256 JWT) the stand-in verified with the key's public half, its key id and team id.
    expect(apns!.authorization).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(apns!.bearerValid).toBe(true);
    const [header, claims] = apns!
      .authorization!.slice("bearer ".length)
      .split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString("utf8")) as Record<string, unknown>);
    expect([header!.alg, header!.kid, claims!.iss]).toEqual(["ES256", fx().apnsKeyId, fx().apnsTeamId]);

    const outcomes = await deliveriesOf(row!.id);
    expect(outcomes.map((o) => [o.provider, o.outcome]).sort()).toEqual([
      ["apns", "ok"],
      ["fcm", "ok"],
    ]);

    // A second cause (a comment: the after-request attempt racing a cron run): one more push to each.
    await replyTo(user, actor);
    await deliver();
    expect((await settle(user.id)).map((r) => r.status)).toEqual(["sent", "sent"]);
    expect(await sentTo(android.token)).toHaveLength(2);
    expect(await sentTo(iphone.token)).toHaveLength(2);
    const [, reply] = await sentTo(iphone.token);
    expect(reply!.threadId).toBeTruthy();
  });

  it("dead tokens remove the device: FCM UNREGISTERED and an invalid token, APNs 410 and BadDeviceToken", async () => {
    const [user, actor] = await Promise.all([poster(), poster()]);
    const devices = {
      fcmUnregistered: await device(user, "fcm", fcmToken("dead")),
      fcmInvalid: await device(user, "fcm", fcmToken("malformed")),
      // INVALID_ARGUMENT about the message, not the token: an error, the device stays.
      fcmBadMessage: await device(user, "fcm", fcmToken("badmsg")),
      fcmAlive: await device(user, "fcm", fcmToken()),
      apnsGone: await device(user, "apns", apnsToken("dead")),
      apnsBadToken: await device(user, "apns", apnsToken("badd")),
      apnsAlive: await device(user, "apns", apnsToken()),
    };
    await replyTo(user, actor);
    const [row] = await settle(user.id);
    expect(row!.status).toBe("sent");
    const exists = Object.fromEntries(await Promise.all(Object.entries(devices).map(async ([k, d]) => [k, await deviceExists(d.id)] as const)));
    expect(exists).toEqual({
      fcmUnregistered: false,
      fcmInvalid: false,
      fcmBadMessage: true,
      fcmAlive: true,
      apnsGone: false,
      apnsBadToken: false,
      apnsAlive: true,
    });
    for (const d of Object.values(devices)) expect(await sentTo(d.token)).toHaveLength(1);
    const byDevice = new Map((await deliveriesOf(row!.id)).map((o) => [o.deviceId, o]));
    expect(byDevice.get(devices.fcmUnregistered.id)).toMatchObject({ provider: "fcm", outcome: "dead" });
    expect(byDevice.get(devices.fcmUnregistered.id)!.detail).toContain("UNREGISTERED");
    expect(byDevice.get(devices.fcmBadMessage.id)).toMatchObject({ provider: "fcm", outcome: "error" });
    expect(byDevice.get(devices.apnsGone.id)).toMatchObject({ provider: "apns", outcome: "dead", detail: "HTTP 410 Unregistered" });
    expect(byDevice.get(devices.apnsBadToken.id)).toMatchObject({ provider: "apns", outcome: "dead", detail: "HTTP 400 BadDeviceToken" });

    // Only dead native devices: nothing left to push to, dropped, and the devices gone.
    const other = await poster();
    const [a, b] = [await device(other, "fcm", fcmToken("dead")), await device(other, "apns", apnsToken("dead"))];
    await replyTo(other, actor);
    expect((await settle(other.id)).map((r) => [r.status, r.dropReason])).toEqual([["dropped", "no_device"]]);
    expect([await deviceExists(a.id), await deviceExists(b.id)]).toEqual([false, false]);
  });
});
