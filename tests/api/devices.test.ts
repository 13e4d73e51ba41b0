import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";

// Push devices (POST, GET /api/v1/me/devices; PATCH, DELETE …/{deviceId}; POST /api/logout with deviceId): a token
// belongs to one user at a time, at most 20 devices per account under concurrency, tokens never answered back.

type Auth = Record<string, string>;
const DEVICES = "/api/v1/me/devices";

async function member() {
  const user = newUser();
  expect((await api("GET", "/api/user", { headers: user.auth })).status).toBe(200);
  return { ...user, id: await userIdOf(user.sub) };
}
const expoToken = () => `ExponentPushToken[${randomUUID()}]`;
const register = (auth: Auth, json: Record<string, unknown>) => api("POST", DEVICES, { headers: auth, json });
const list = async (auth: Auth) => (await api("GET", DEVICES, { headers: auth })).body.data.devices as { id: string }[];

describe("push devices", () => {
  it("registers a token once per user: 201 new, 200 again with its details refreshed; the token is never answered", async () => {
    const a = await member();
    const token = expoToken();
    const first = await register(a.auth, { provider: "expo", token, platform: "ios", appVersion: "2.4.0", locale: "en-GB", timezone: "Europe/London" });
    expect(first.status).toBe(201);
    expect(first.body.data.device).toMatchObject({ provider: "expo", platform: "ios", appVersion: "2.4.0", locale: "en-GB", timezone: "Europe/London" });
    expect(first.text).not.toContain(token);
    const again = await register(a.auth, { provider: "expo", token, platform: "ios", appVersion: "2.5.0" });
    expect(again.status).toBe(200);
    expect(again.body.data.device).toMatchObject({ id: first.body.data.device.id, appVersion: "2.5.0" });
    expect((await list(a.auth)).map((d) => d.id)).toEqual([first.body.data.device.id]);
  });

  it("a token registered by another account moves to it: one row, on the newest owner", async () => {
    const [a, b] = await Promise.all([member(), member()]);
    const token = expoToken();
    expect((await register(a.auth, { provider: "expo", token, platform: "android" })).status).toBe(201);
    expect((await register(b.auth, { provider: "expo", token, platform: "android" })).status).toBe(201);
    expect(await list(a.auth)).toEqual([]);
    expect(await list(b.auth)).toHaveLength(1);
    expect(await db().device.count({ where: { token } })).toBe(1);
  });

  it("web push takes a subscription; bad registrations are 400 naming the field and store nothing", async () => {
    const a = await member();
    const subscription = {
      endpoint: `https://push.example.com/send/${randomUUID()}`,
      keys: { p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA", auth: "tBHItJI5svbpez7KI4CCXg" },
    };
    expect((await register(a.auth, { provider: "webpush", subscription, platform: "web" })).status).toBe(201);
    for (const [json, field] of [
      [{ provider: "webpush", subscription: { ...subscription, endpoint: "http://push.example.com/x" }, platform: "web" }, "body.subscription.endpoint"],
      [{ provider: "webpush", token: "x", platform: "web" }, "body.subscription"],
      [{ provider: "expo", platform: "ios" }, "body.token"],
      [{ provider: "pigeon", token: "x", platform: "ios" }, "body.provider"],
      [{ provider: "fcm", token: "x", platform: "ios", timezone: "Mars/Olympus" }, "body.timezone"],
      [{ provider: "fcm", token: "x", platform: "ios", locale: "not a locale" }, "body.locale"],
      [{ provider: "fcm", token: "x".repeat(2049), platform: "android" }, "body.token"],
      [{ provider: "fcm", token: "x", platform: "toaster" }, "body.platform"],
    ] as const) {
      const res = await register(a.auth, json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(errorOf(res).details!.map((d) => d.path)).toContain(field);
    }
    expect(await list(a.auth)).toHaveLength(1);
    expect((await api("GET", DEVICES)).status).toBe(401);
  });

  it("at most 20 devices per account, also when 25 register at once", async () => {
    const a = await member();
    const results = await Promise.all(Array.from({ length: 25 }, () => register(a.auth, { provider: "fcm", token: randomUUID(), platform: "android" })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "DEVICE_LIMIT")).toHaveLength(5);
    expect(await list(a.auth)).toHaveLength(20);
    // A device the account already has still refreshes at the cap.
    const mine = await db().device.findFirstOrThrow({ where: { userId: a.id } });
    expect((await register(a.auth, { provider: "fcm", token: mine.token, platform: "android", appVersion: "9.9.9" })).status).toBe(200);
  });

  it("update and remove one's own device only; signing out with its id removes it, another's is left alone", async () => {
    const [a, b] = await Promise.all([member(), member()]);
    const mine = (await register(a.auth, { provider: "apns", token: randomUUID().replace(/-/g, ""), platform: "ios" })).body.data.device;
    const theirs = (await register(b.auth, { provider: "expo", token: expoToken(), platform: "android" })).body.data.device;
    const patch = (auth: Auth, id: string, json: unknown) => api("PATCH", `${DEVICES}/${id}`, { headers: auth, json });
    expect((await patch(a.auth, mine.id, { timezone: "America/New_York" })).body.data.device).toMatchObject({ id: mine.id, timezone: "America/New_York" });
    expect((await patch(a.auth, theirs.id, { locale: "fr" })).status).toBe(404);
    expect((await patch(a.auth, mine.id, {})).status).toBe(400);
    expect((await api("DELETE", `${DEVICES}/${theirs.id}`, { headers: a.auth })).status).toBe(404);

    const other = (await register(a.auth, { provider: "expo", token: expoToken(), platform: "ios" })).body.data.device;
    expect((await api("POST", "/api/logout", { headers: a.auth, json: { deviceId: theirs.id } })).status).toBe(200);
    expect(await list(b.auth)).toHaveLength(1);
    expect((await api("POST", "/api/logout", { headers: a.auth, json: { deviceId: other.id } })).status).toBe(200);
    expect((await list(a.auth)).map((d) => d.id)).toEqual([mine.id]);
    expect((await api("DELETE", `${DEVICES}/${mine.id}`, { headers: a.auth })).body.data).toEqual({ removed: true });
    expect((await api("DELETE", `${DEVICES}/${mine.id}`, { headers: a.auth })).status).toBe(404);
  });
});
