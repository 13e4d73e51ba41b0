import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { purgeExpiredSignals } from "../../lib/core/signals/service";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";

const SIGNALS = "/api/feed/signals";
const DAY = 86_400_000;

type Event = Record<string, unknown>;
const event = (over: Event = {}): Event => ({
  type: "impression",
  itemType: "post",
  itemId: `p_${randomUUID().slice(0, 8)}`,
  at: new Date().toISOString(),
  ...over,
});
const batch = (n: number, over: Event = {}) => ({ events: Array.from({ length: n }, (_, i) => event({ position: i, ...over })) });
const send = (auth: Record<string, string>, json: unknown) => api("POST", SIGNALS, { headers: auth, json });
interface StoredEvent {
  batchId: string;
  type: string;
  itemType: string;
  itemId: string;
  teamId: string | null;
  occurredAt: Date;
  receivedAt: Date;
  durationMs: number | null;
  surface: string | null;
  position: number | null;
  eventId: string | null;
}
/** The caller's stored events, one row each, through the view readers use (batches in order, events as sent). */
const stored = (userId: string) =>
  db().$queryRaw<StoredEvent[]>`
    SELECT batch_id::text AS "batchId", type::text, item_type::text AS "itemType", item_id AS "itemId", team_id AS "teamId",
           occurred_at AS "occurredAt", received_at AS "receivedAt", duration_ms AS "durationMs", surface, position, event_id::text AS "eventId"
    FROM feed_signal_events WHERE user_id = ${userId}::uuid ORDER BY batch_id, index_in_batch`;

/** A user row for a fresh subject (the API creates it on first sight). */
async function fan() {
  const u = newUser();
  expect((await api("GET", "/api/user", { headers: u.auth })).status).toBe(200);
  return { ...u, userId: await userIdOf(u.sub) };
}

describe("POST /api/feed/signals", () => {
  it("401 UNAUTHORIZED without a token, and nothing is stored", async () => {
    const res = await api("POST", SIGNALS, { json: batch(1) });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });

  it("stores a valid batch with every field, in one answer of 200", async () => {
    const { auth, userId } = await fan();
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const ahead = new Date(Date.now() + 60_000).toISOString();
    const eventId = randomUUID();
    const events = [
      { type: "impression", itemType: "post", itemId: "post_1", teamId: "tm_hch", at, surface: "home_feed", position: 0, eventId },
      { type: "dwell", itemType: "game", itemId: "gm_fixture_12", at: ahead, durationMs: 4_250 },
      // 30 minutes ago, written at +02:00.
      { type: "click", itemType: "team", itemId: "tm_hch", at: `${new Date(Date.now() - 1_800_000 + 7_200_000).toISOString().slice(0, 23)}+02:00` },
    ];
    const before = Date.now();
    const res = await send(auth, { events });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { received: 3, accepted: 3, duplicates: 0, dropped: 0, droppedReason: null } });

    const rows = await stored(userId);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      type: "impression",
      itemType: "post",
      itemId: "post_1",
      teamId: "tm_hch",
      occurredAt: new Date(at),
      durationMs: null,
      surface: "home_feed",
      position: 0,
      eventId,
    });
    expect(rows[1]).toMatchObject({
      type: "dwell",
      itemType: "game",
      itemId: "gm_fixture_12",
      teamId: null,
      occurredAt: new Date(ahead),
      durationMs: 4_250,
      eventId: null,
    });
    // An offset is an instant like any other.
    expect(rows[2]!.occurredAt.getTime()).toBe(Date.parse(events[2]!.at));
    for (const r of rows) {
      expect(r.receivedAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      expect(r.receivedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    }
  });

  it("an eventId repeated in the batch is stored once; the same batch sent again (any order) stores nothing more", async () => {
    const { auth, userId } = await fan();
    const ids = [randomUUID(), randomUUID()];
    const first = await send(auth, { events: [event({ eventId: ids[0] }), event({ eventId: ids[1] }), event({ eventId: ids[1] })] });
    expect(first.body.data).toEqual({ received: 3, accepted: 2, duplicates: 1, dropped: 0, droppedReason: null });
    expect((await stored(userId)).map((r) => r.eventId)).toEqual(ids);
    // The retry of a batch whose answer was lost, its events in another order: nothing new.
    const retry = await send(auth, { events: [event({ eventId: ids[1] }), event({ eventId: ids[0] })] });
    expect(retry.body.data).toEqual({ received: 2, accepted: 0, duplicates: 2, dropped: 0, droppedReason: null });
    expect(await stored(userId)).toHaveLength(2);
    // One more event makes it another batch; an event without an id is always stored.
    const more = await send(auth, { events: [event({ eventId: ids[0] }), event({ eventId: ids[1] }), event({ eventId: randomUUID() })] });
    expect(more.body.data.accepted).toBe(3);
    const noIds = { events: [event(), event()] };
    expect((await send(auth, noIds)).body.data.accepted).toBe(2);
    expect((await send(auth, noIds)).body.data.accepted).toBe(2);
    expect(await stored(userId)).toHaveLength(9);
    // Another user's batch with the same ids is theirs.
    const other = await fan();
    expect((await send(other.auth, { events: [event({ eventId: ids[0] }), event({ eventId: ids[1] })] })).body.data.accepted).toBe(2);
  });

  it("concurrent retries of one batch store each event once", async () => {
    const { auth, userId } = await fan();
    const events = Array.from({ length: 10 }, () => event({ eventId: randomUUID() }));
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(auth, { events })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(answers.reduce((sum, a) => sum + a.body.data.accepted, 0)).toBe(10);
    expect(answers.every((a) => a.body.data.accepted + a.body.data.duplicates === 10)).toBe(true);
    expect(await stored(userId)).toHaveLength(10);
  });

  it("batches of many fans at once (sharing statements) are each stored under their own fan, or dropped for the one opted out", async () => {
    const fans = await Promise.all(Array.from({ length: 8 }, () => fan()));
    await db().user.update({ where: { id: fans[7]!.userId }, data: { analyticsPersonalization: false } });
    const batches = fans.map((_, i) => batch(i + 1));
    const answers = await Promise.all(fans.map((f, i) => send(f.auth, batches[i])));
    for (const [i, f] of fans.entries()) {
      expect(answers[i]!.status).toBe(200);
      const mine = await stored(f.userId);
      if (i === 7) {
        expect(answers[i]!.body.data).toMatchObject({ received: 8, accepted: 0, dropped: 8, droppedReason: "analytics_personalization_off" });
        expect(mine).toEqual([]);
        continue;
      }
      expect(answers[i]!.body.data).toMatchObject({ received: i + 1, accepted: i + 1, duplicates: 0, dropped: 0 });
      expect(mine.map((e) => e.itemId)).toEqual(batches[i]!.events.map((e) => e.itemId));
    }
  });

  it("50 events are accepted; the 51st is 400 VALIDATION_ERROR at body.events and nothing is stored", async () => {
    const { auth, userId } = await fan();
    const ok = await send(auth, batch(50));
    expect(ok.status).toBe(200);
    expect(ok.body.data.accepted).toBe(50);
    const res = await send(auth, batch(51));
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details).toEqual([{ path: "body.events", message: expect.stringMatching(/50/) }]);
    expect(await stored(userId)).toHaveLength(50);
  });

  it("a body of 65,536 bytes is read; one byte more is 413 PAYLOAD_TOO_LARGE", async () => {
    const { auth, userId } = await fan();
    const json = JSON.stringify(batch(2));
    const exact = json + " ".repeat(65_536 - Buffer.byteLength(json));
    const ok = await api("POST", SIGNALS, { headers: { ...auth, "content-type": "application/json" }, body: exact });
    expect(ok.status).toBe(200);
    const res = await api("POST", SIGNALS, { headers: { ...auth, "content-type": "application/json" }, body: `${exact} ` });
    expect(res.status).toBe(413);
    expect(errorOf(res).code).toBe("PAYLOAD_TOO_LARGE");
    // A 65 KB batch of real events (long ids).
    const big = {
      events: Array.from({ length: 50 }, () =>
        event({ itemId: "x".repeat(64), teamId: "t".repeat(64), eventId: randomUUID(), surface: "s".repeat(32), pad: "p".repeat(1_100) }),
      ),
    };
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(65_536);
    const large = await send(auth, big);
    expect(large.status).toBe(413);
    expect(errorOf(large).code).toBe("PAYLOAD_TOO_LARGE");
    expect(await stored(userId)).toHaveLength(2);
  });

  it("text/plain (what navigator.sendBeacon sends) is 400 at headers.content-type", async () => {
    const { auth, userId } = await fan();
    const res = await api("POST", SIGNALS, { headers: { ...auth, "content-type": "text/plain;charset=UTF-8" }, body: JSON.stringify(batch(1)) });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toEqual([{ path: "headers.content-type", message: expect.any(String) }]);
    expect(await stored(userId)).toHaveLength(0);
  });

  it("the 31st batch in a minute is 429 RATE_LIMITED with Retry-After; another user is unaffected", async () => {
    const { auth, userId } = await fan();
    await awayFromWindowEdge();
    for (let i = 0; i < 30; i++) {
      const res = await send(auth, batch(1));
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("30");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(29 - i));
    }
    const limited = await send(auth, batch(1));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, error: { code: "RATE_LIMITED", message: expect.any(String) } });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await stored(userId)).toHaveLength(30);
    expect((await send((await fan()).auth, batch(1))).status).toBe(200);
  });

  it("40 concurrent batches of one user: exactly 30 are stored, 10 are 429", async () => {
    const { auth, userId } = await fan();
    await awayFromWindowEdge();
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(auth, batch(1))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(await stored(userId)).toHaveLength(30);
  });

  it("analyticsPersonalization off: the batch is dropped, accepted 0, nothing stored; back on: stored", async () => {
    const { auth, userId } = await fan();
    expect((await api("PATCH", "/api/user/settings", { headers: auth, json: { analyticsPersonalization: false } })).status).toBe(200);
    const res = await send(auth, batch(5));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ received: 5, accepted: 0, duplicates: 0, dropped: 5, droppedReason: "analytics_personalization_off" });
    expect(await stored(userId)).toHaveLength(0);
    // Invalid batches are still refused: the opt-out does not hide validation.
    expect((await send(auth, { events: [event({ type: "stare" })] })).status).toBe(400);

    expect((await api("PATCH", "/api/user/settings", { headers: auth, json: { analyticsPersonalization: true } })).status).toBe(200);
    expect((await send(auth, batch(2))).body.data.accepted).toBe(2);
    expect(await stored(userId)).toHaveLength(2);
  });

  const HOUR = 3_600_000;
  it.each([
    ["an unknown type", { type: "stare" }, "body.events.1.type"],
    ["an unknown itemType", { itemType: "banana" }, "body.events.1.itemType"],
    ["a date that is not one", { at: "yesterday" }, "body.events.1.at"],
    // (recent, so only the missing zone is wrong)
    ["a date without a zone", { at: new Date().toISOString().slice(0, 19) }, "body.events.1.at"],
    ["a date more than 24 h old", { at: new Date(Date.now() - 25 * HOUR).toISOString() }, "body.events.1.at"],
    ["a date more than 5 min ahead", { at: new Date(Date.now() + 10 * 60_000).toISOString() }, "body.events.1.at"],
    ["a missing at", { at: undefined }, "body.events.1.at"],
    ["an itemId of 65 characters", { itemId: "i".repeat(65) }, "body.events.1.itemId"],
    ["an empty itemId", { itemId: "" }, "body.events.1.itemId"],
    ["an itemId with a space", { itemId: "a b" }, "body.events.1.itemId"],
    ["a teamId of 65 characters", { teamId: "t".repeat(65) }, "body.events.1.teamId"],
    ["a fractional durationMs", { durationMs: 1.5 }, "body.events.1.durationMs"],
    ["a negative durationMs", { durationMs: -1 }, "body.events.1.durationMs"],
    ["a durationMs over an hour", { durationMs: 3_600_001 }, "body.events.1.durationMs"],
    ["a dwell without durationMs", { type: "dwell" }, "body.events.1.durationMs"],
    ["a position of 10,000", { position: 10_000 }, "body.events.1.position"],
    ["a surface of 33 characters", { surface: "s".repeat(33) }, "body.events.1.surface"],
    ["an upper-case surface", { surface: "Home" }, "body.events.1.surface"],
    ["an eventId that is not a UUID", { eventId: "abc" }, "body.events.1.eventId"],
    ["an unknown field", { userId: "someone-else" }, "body.events.1.userId"],
  ] as [string, Event, string][])("400 VALIDATION_ERROR naming the field for %s; nothing is stored", async (_label, over, path) => {
    const { auth, userId } = await fan();
    const bad = event(over);
    for (const [k, v] of Object.entries(over)) if (v === undefined) delete bad[k];
    const res = await send(auth, { events: [event(), bad, event()] });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details).toEqual([{ path, message: expect.any(String) }]);
    expect(await stored(userId)).toHaveLength(0);
  });

  it.each([
    ["no events", { events: [] }, "body.events"],
    ["events not an array", { events: { type: "view" } }, "body.events"],
    ["an unknown top-level field", { events: [event()], userId: "x" }, "body.userId"],
  ] as [string, unknown, string][])("400 at the batch for %s", async (_label, json, path) => {
    const { auth } = await fan();
    const res = await send(auth, json);
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toEqual([{ path, message: expect.any(String) }]);
  });

  it("is documented: bearer, policy signals (30 / 60 s), the batch and result schemas", async () => {
    const op = (await api("GET", "/api/openapi.json")).body.paths[SIGNALS].post;
    expect(op["x-auth"]).toBe("bearer");
    expect(op["x-rate-limit-policy"]).toBe("signals");
    expect(JSON.stringify(op)).toContain("PAYLOAD_TOO_LARGE");
    expect(op.responses["200"]).toBeDefined();
    expect(op.responses["429"]).toBeDefined();
    expect(op.description).toMatch(/analyticsPersonalization/);
    expect(op.description).toMatch(/sendBeacon/);
  });
});

describe("GET /api/cron/signals-retention", () => {
  const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
  const retention = (authorization?: string) => api("GET", "/api/cron/signals-retention", { headers: authorization === undefined ? {} : { authorization } });
  /** One stored batch of one event per age (in days), received then. */
  const plant = (userId: string, ages: number[]) =>
    db().feedSignalBatch.createManyAndReturn({
      data: ages.map((days) => ({
        id: randomUUID(),
        userId,
        receivedAt: new Date(Date.now() - days * DAY),
        eventCount: 1,
        events: [{ type: "view", itemType: "team", itemId: "tm_hch", at: new Date(Date.now() - days * DAY).toISOString() }],
      })),
      select: { id: true },
    });

  it("deletes signals received more than 90 days ago only; a second run deletes nothing more", async () => {
    const { userId } = await fan();
    const [old1, old2] = await plant(userId, [90.01, 400, 89.9, 1, 0]);
    const res = await retention(`Bearer ${cronSecret()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: expect.any(Number), cutoff: expect.any(String), complete: true });
    expect(res.body.data.deleted).toBeGreaterThanOrEqual(2);
    expect(Math.abs(Date.parse(res.body.data.cutoff) - (Date.now() - 90 * DAY))).toBeLessThan(60_000);
    const left = await stored(userId);
    expect(left).toHaveLength(3);
    expect(left.map((r) => r.batchId)).not.toContain(old1!.id);
    expect(left.map((r) => r.batchId)).not.toContain(old2!.id);

    const again = await retention(`Bearer ${cronSecret()}`);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ deleted: 0, complete: true });
    expect(await stored(userId)).toHaveLength(3);
  });

  it("a stored batch goes whole, and `deleted` counts its events", async () => {
    const { auth, userId } = await fan();
    expect((await send(auth, batch(3))).body.data.accepted).toBe(3);
    const [{ id }] = await db().feedSignalBatch.findMany({ where: { userId }, select: { id: true } });
    await db().feedSignalBatch.update({ where: { id }, data: { receivedAt: new Date(Date.now() - 91 * DAY) } });
    expect(await purgeExpiredSignals(db(), { retentionDays: 90 })).toMatchObject({ deleted: 3, complete: true });
    expect(await stored(userId)).toHaveLength(0);
  });

  it("works in bounded batches: the batch budget leaves the rest for the next run", async () => {
    const { userId } = await fan();
    await plant(userId, [100, 101, 102, 103, 104, 5]);
    const first = await purgeExpiredSignals(db(), { retentionDays: 90, batchSize: 2, maxBatches: 2 });
    expect(first).toMatchObject({ deleted: 4, complete: false });
    const second = await purgeExpiredSignals(db(), { retentionDays: 90, batchSize: 2, maxBatches: 2 });
    expect(second).toMatchObject({ deleted: 1, complete: true });
    const left = await stored(userId);
    expect(left).toHaveLength(1);
    expect(Date.now() - left[0]!.receivedAt.getTime()).toBeLessThan(6 * DAY);
  });

  it.each([
    ["no header", undefined],
    ["another secret", "Bearer not-the-cron-secret-000"],
    ["the bare secret", () => cronSecret()],
    ["a session token", () => newUser({ admin: true }).auth.authorization],
  ] as [string, string | undefined | (() => string)][])("401 UNAUTHORIZED with %s, and nothing is deleted", async (_label, authorization) => {
    const { userId } = await fan();
    await plant(userId, [120]);
    const res = await retention(typeof authorization === "function" ? authorization() : authorization);
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
    expect(await stored(userId)).toHaveLength(1);
    await db().feedSignalBatch.deleteMany({ where: { userId } }); // not left for a later run to count
  });

  it("is scheduled daily in vercel.json and documented only in the internal document", async () => {
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string; schedule: string }[] };
    expect(crons).toContainEqual({ path: "/api/cron/signals-retention", schedule: expect.stringMatching(/^\d+ \d+ \* \* \*$/) });
    expect((await api("GET", "/api/openapi.json")).body.paths["/api/cron/signals-retention"]).toBeUndefined();
    const internal = await api("GET", "/api/admin/openapi.json", { headers: newUser({ admin: true }).auth });
    expect(internal.body.paths["/api/cron/signals-retention"].get.description).toMatch(/Bearer <CRON_SECRET>/);
  });
});
