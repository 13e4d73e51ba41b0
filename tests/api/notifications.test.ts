import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser } from "../helpers";
import { uuidv7 } from "../../lib/db/ids";
import { COUNT, cron, cronSecret, HOUR, LIST, signedUp } from "./notifications-fixtures";

// Notifications: the inbox routes (black box), and the authentication and documents of those routes and of the
// producer crons. What the producers write is tested in notifications-producers.test.ts.

const READ_ALL = "/api/notifications/read-all";
const read = (id: string) => `/api/notifications/${id}/read`;
const archive = (id: string) => `/api/notifications/${id}/archive`;

const milestonePayload = (threshold: number) => ({ metric: "rep_balance", threshold, title: `${threshold} Rep reached`, body: "b", href: "/api/rewards" });
const team = (id: string) => ({ id, slug: id, name: id, shortName: null, abbreviation: null, logo: null });
const alertPayload = (gameId: string) => ({
  gameId,
  leagueId: "lg_x",
  startsAt: new Date().toISOString(),
  homeTeam: team("a"),
  awayTeam: team("b"),
  venue: null,
  title: "t",
  body: "b",
  href: `/api/events/${gameId}`,
});

const ratingPayload = (gameId: string) => {
  const { venue: _venue, ...game } = alertPayload(gameId);
  return { ...game, score: null, repAward: 15 };
};

/** Direct inserts, ids in the given order (each a UUIDv7 of `at`, so one millisecond holds ties). */
async function insert(userId: string, rows: { type?: "MILESTONE" | "GAME_ALERT" | "RATING"; at?: Date; readAt?: Date; archivedAt?: Date }[]) {
  const ids: string[] = [];
  for (const r of rows) {
    const at = r.at ?? new Date();
    let id = uuidv7(at.getTime());
    while (ids.length && id <= ids[ids.length - 1]!) id = uuidv7(at.getTime());
    ids.push(id);
  }
  await db().notification.createMany({
    data: rows.map((r, i) => ({
      id: ids[i]!,
      userId,
      type: r.type ?? "MILESTONE",
      causeKey: `test:${ids[i]}`,
      payload: r.type === "GAME_ALERT" ? alertPayload(`gm_${i}`) : r.type === "RATING" ? ratingPayload(`gm_${i}`) : milestonePayload(i + 1),
      createdAt: r.at ?? new Date(),
      readAt: r.readAt ?? r.archivedAt ?? null,
      archivedAt: r.archivedAt ?? null,
    })),
  });
  return ids;
}

const idsOf = (res: { body: { data: { notifications: { id: string }[] } } }) => res.body.data.notifications.map((n) => n.id);
const desc = (ids: string[]) => [...ids].sort().reverse();

async function allPages(auth: Record<string, string>, query: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const res = await api("GET", `${LIST}?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth });
    expect(res.status).toBe(200);
    ids.push(...idsOf(res));
    cursor = res.body.data.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error("too many pages");
}

describe("auth", () => {
  it.each([
    ["GET", LIST],
    ["GET", COUNT],
    ["POST", READ_ALL],
    ["POST", read(uuidv7())],
    ["POST", archive(uuidv7())],
  ])("%s %s without a token is 401 UNAUTHORIZED", async (method, path) => {
    const res = await api(method, path);
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });

  it.each(["game-alerts", "rating-prompts", "milestones"])("cron %s without the secret (or a wrong one) is 401", async (name) => {
    expect((await cron(name, null)).status).toBe(401);
    const wrong = await cron(name, `Bearer ${cronSecret()}x`);
    expect(wrong.status).toBe(401);
    expect(errorOf(wrong).code).toBe("UNAUTHORIZED");
  });
});

describe("documents", () => {
  it("the inbox routes are public operations; the producer crons are scheduled in vercel.json and internal only", async () => {
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string; schedule: string }[] };
    const open = (await api("GET", "/api/openapi.json")).body.paths;
    const internal = (await api("GET", "/api/admin/openapi.json", { headers: newUser({ admin: true }).auth })).body.paths;
    for (const name of ["game-alerts", "rating-prompts", "milestones"]) {
      const path = `/api/cron/notifications-${name}`;
      expect(crons).toContainEqual({ path, schedule: expect.any(String) });
      expect(open[path]).toBeUndefined();
      expect(internal[path].get.description).toMatch(/Bearer <CRON_SECRET>/);
    }
    for (const path of [LIST, COUNT, READ_ALL, "/api/notifications/{notificationId}/read", "/api/notifications/{notificationId}/archive"]) {
      expect(open[path]).toBeDefined();
    }
  });
});

describe("GET /api/notifications", () => {
  it("a new user has none", async () => {
    const { auth } = await signedUp();
    expect((await api("GET", LIST, { headers: auth })).body).toEqual({ success: true, data: { notifications: [] } });
    expect((await api("GET", COUNT, { headers: auth })).body).toEqual({ success: true, data: { count: 0, capped: false } });
  });

  it("newest first across pages: no gaps or repeats, ties on createdAt included, every page size", async () => {
    const { auth, userId } = await signedUp();
    const tie = new Date(Date.now() - 60_000);
    const ids = await insert(userId, [
      { at: new Date(Date.now() - 120_000) },
      ...Array.from({ length: 6 }, () => ({ at: tie })),
      { at: new Date(Date.now() - 1000) },
      { at: new Date(Date.now() - 1000), readAt: new Date() },
    ]);
    for (const limit of [1, 2, 3, 4, 9, 10]) expect(await allPages(auth, "filter=inbox", limit)).toEqual(desc(ids));
    const first = await api("GET", `${LIST}?limit=2`, { headers: auth });
    expect(first.body.data.notifications[0]).toEqual({
      id: ids[8],
      type: "MILESTONE",
      createdAt: expect.stringMatching(/Z$/),
      readAt: expect.stringMatching(/Z$/),
      archivedAt: null,
      payload: milestonePayload(9),
    });
  });

  it("filters: inbox (default) excludes archived; unread; archived (most recently archived first); all; types", async () => {
    const { auth, userId } = await signedUp();
    const now = Date.now();
    const [a, b, c, d, e, f] = await insert(userId, [
      {},
      { readAt: new Date() },
      { archivedAt: new Date(now - 5000) },
      { type: "GAME_ALERT" },
      { archivedAt: new Date(now - 9000) },
      { type: "GAME_ALERT", readAt: new Date() },
    ]);
    expect(idsOf(await api("GET", LIST, { headers: auth }))).toEqual([f, d, b, a]);
    expect(idsOf(await api("GET", `${LIST}?filter=inbox`, { headers: auth }))).toEqual([f, d, b, a]);
    expect(idsOf(await api("GET", `${LIST}?filter=unread`, { headers: auth }))).toEqual([d, a]);
    expect(idsOf(await api("GET", `${LIST}?filter=archived`, { headers: auth }))).toEqual([c, e]);
    expect(await allPages(auth, "filter=archived", 1)).toEqual([c, e]);
    expect(idsOf(await api("GET", `${LIST}?filter=all`, { headers: auth }))).toEqual([f, e, d, c, b, a]);
    expect(await allPages(auth, "filter=all", 4)).toEqual([f, e, d, c, b, a]);
    expect(idsOf(await api("GET", `${LIST}?types=GAME_ALERT`, { headers: auth }))).toEqual([f, d]);
    expect(idsOf(await api("GET", `${LIST}?filter=unread&types=GAME_ALERT,MILESTONE`, { headers: auth }))).toEqual([d, a]);
    expect((await api("GET", COUNT, { headers: auth })).body.data).toEqual({ count: 2, capped: false });
  });

  it.each([
    ["filter=bogus", "query.filter"],
    ["types=GAME_ALERT,NOPE", "query.types.1"],
    ["types=", "query.types.0"],
    ["limit=0", "query.limit"],
    ["limit=51", "query.limit"],
    ["cursor=!!", "query.cursor"],
    ["unknown=1", "query.unknown"],
  ])("?%s is 400 naming %s", async (query, path) => {
    const { auth } = await signedUp();
    const res = await api("GET", `${LIST}?${query}`, { headers: auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details?.map((x) => x.path)).toContain(path);
  });

  it("a cursor continues only its own filter", async () => {
    const { auth, userId } = await signedUp();
    await insert(userId, [{}, {}, { archivedAt: new Date() }, { archivedAt: new Date() }]);
    const inbox = await api("GET", `${LIST}?limit=1`, { headers: auth });
    const archived = await api("GET", `${LIST}?filter=archived&limit=1`, { headers: auth });
    for (const [cursor, filter] of [
      [inbox.body.data.nextCursor, "archived"],
      [inbox.body.data.nextCursor, "unread"],
      [archived.body.data.nextCursor, "inbox"],
    ]) {
      const res = await api("GET", `${LIST}?filter=${filter}&cursor=${cursor}`, { headers: auth });
      expect(res.status).toBe(400);
      expect(errorOf(res).details).toEqual([{ path: "query.cursor", message: expect.any(String) }]);
    }
  });
});

describe("GET /api/notifications/grouped", () => {
  it("groups a page's GAME_ALERTs and RATINGs by UTC day, MILESTONEs alone, in the order of their newest notification", async () => {
    const { auth, userId } = await signedUp();
    const day = Date.UTC(2026, 10, 20, 12);
    const at = (h: number) => new Date(day + h * HOUR);
    const [oldAlert, m1, r1, a1, r2, a2, m2, a3] = await insert(userId, [
      { type: "GAME_ALERT", at: at(-24) },
      { at: at(0) },
      { type: "RATING", at: at(1), readAt: at(2) },
      { type: "GAME_ALERT", at: at(2) },
      { type: "RATING", at: at(3) },
      { type: "GAME_ALERT", at: at(4), readAt: at(5) },
      { at: at(5) },
      { type: "GAME_ALERT", at: at(6) },
    ]);
    const res = await api("GET", "/api/notifications/grouped", { headers: auth });
    expect(res.status).toBe(200);
    const groups = res.body.data.groups as { groupKey: string; notifications: { id: string }[] }[];
    expect(groups.map((g) => [g.groupKey, g.notifications.map((n) => n.id)])).toEqual([
      ["GAME_ALERT:2026-11-20", [a3, a2, a1]],
      [`ungrouped-${m2}`, [m2]],
      ["RATING:2026-11-20", [r2, r1]],
      [`ungrouped-${m1}`, [m1]],
      ["GAME_ALERT:2026-11-19", [oldAlert]],
    ]);
    expect(res.body.data.groups[0]).toMatchObject({
      type: "GAME_ALERT",
      notificationsCount: 3,
      unreadCount: 2,
      mostRecentNotificationId: a3,
      latestPageNotificationAt: at(6).toISOString(),
      pageMinId: a1,
      pageMaxId: a3,
    });
    expect(res.body.data.nextCursor).toBeUndefined();

    // The page is the list's page: a group cut by the boundary continues under the same key.
    const first = await api("GET", "/api/notifications/grouped?limit=2", { headers: auth });
    expect(first.body.data.groups.map((g: { groupKey: string }) => g.groupKey)).toEqual(["GAME_ALERT:2026-11-20", `ungrouped-${m2}`]);
    const second = await api("GET", `/api/notifications/grouped?limit=2&cursor=${first.body.data.nextCursor}`, { headers: auth });
    expect(second.body.data.groups.map((g: { groupKey: string; notificationsCount: number }) => [g.groupKey, g.notificationsCount])).toEqual([
      ["GAME_ALERT:2026-11-20", 1],
      ["RATING:2026-11-20", 1],
    ]);
    const unread = await api("GET", "/api/notifications/grouped?filter=unread&types=GAME_ALERT", { headers: auth });
    expect(unread.body.data.groups.map((g: { notifications: { id: string }[] }) => g.notifications.map((n) => n.id))).toEqual([[a3, a1], [oldAlert]]);
  });

  it("without a token is 401", async () => {
    expect((await api("GET", "/api/notifications/grouped")).status).toBe(401);
  });
});

describe("read and archive", () => {
  it("read is idempotent (first readAt kept) and does not archive", async () => {
    const { auth, userId } = await signedUp();
    const [id] = await insert(userId, [{}]);
    const first = await api("POST", read(id!), { headers: auth });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id, readAt: expect.any(String), archivedAt: null });
    const again = await api("POST", read(id!.toUpperCase()), { headers: auth });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(idsOf(await api("GET", LIST, { headers: auth }))).toEqual([id]);
    expect(idsOf(await api("GET", `${LIST}?filter=unread`, { headers: auth }))).toEqual([]);
  });

  it("archive implies read, is idempotent, and keeps an earlier readAt", async () => {
    const { auth, userId } = await signedUp();
    const [unread, wasRead] = await insert(userId, [{}, { readAt: new Date(Date.now() - 10 * HOUR) }]);
    const first = await api("POST", archive(unread!), { headers: auth });
    expect(first.status).toBe(200);
    expect(first.body.data.archivedAt).toEqual(expect.any(String));
    expect(first.body.data.readAt).toBe(first.body.data.archivedAt);
    const again = await api("POST", archive(unread!), { headers: auth });
    expect(again.body.data).toEqual(first.body.data);
    expect((await api("POST", read(unread!), { headers: auth })).body.data).toEqual(first.body.data);

    const other = await api("POST", archive(wasRead!), { headers: auth });
    expect(new Date(other.body.data.readAt).getTime()).toBeLessThan(new Date(other.body.data.archivedAt).getTime() - 9 * HOUR);
    expect(idsOf(await api("GET", LIST, { headers: auth }))).toEqual([]);
    expect(idsOf(await api("GET", `${LIST}?filter=archived`, { headers: auth })).sort()).toEqual([unread, wasRead].sort());
  });

  it("concurrent reads and archives of one notification settle on one readAt and one archivedAt", async () => {
    const { auth, userId } = await signedUp();
    const [id] = await insert(userId, [{}]);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => api("POST", i % 2 ? read(id!) : archive(id!), { headers: auth })));
    for (const a of answers) expect(a.status).toBe(200);
    const row = await db().notification.findUniqueOrThrow({ where: { id: id! } });
    expect(row.archivedAt).not.toBeNull();
    for (const a of answers) expect(a.body.data.readAt).toBe(row.readAt!.toISOString());
  });

  it("another user's notification and an unknown id are 404; a malformed id is 400", async () => {
    const owner = await signedUp();
    const other = await signedUp();
    const [id] = await insert(owner.userId, [{}]);
    for (const path of [read(id!), archive(id!), read(uuidv7()), archive(uuidv7())]) {
      const res = await api("POST", path, { headers: other.auth });
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe("NOT_FOUND");
    }
    const row = await db().notification.findUniqueOrThrow({ where: { id: id! } });
    expect([row.readAt, row.archivedAt]).toEqual([null, null]);
    for (const path of [read("nope"), archive("123"), read(`${id}x`)]) {
      const res = await api("POST", path, { headers: other.auth });
      expect(res.status).toBe(400);
      expect(errorOf(res).details).toEqual([{ path: "params.notificationId", message: expect.any(String) }]);
    }
  });
});

describe("POST /api/notifications/read-all", () => {
  it("marks only what was seen: not newer than upTo, not created after the request started; answers how many", async () => {
    const { auth, userId } = await signedUp();
    const [a, b, c, d] = await insert(userId, [{}, {}, { readAt: new Date() }, {}]);
    const later = await insert(userId, [{ at: new Date(Date.now() + 60_000) }]);
    const res = await api("POST", READ_ALL, { headers: auth, json: { upTo: b } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ marked: 2 });
    expect(idsOf(await api("GET", `${LIST}?filter=unread`, { headers: auth }))).toEqual([later[0], d]);

    const rest = await api("POST", READ_ALL, { headers: auth });
    expect(rest.body.data).toEqual({ marked: 1 });
    expect(idsOf(await api("GET", `${LIST}?filter=unread`, { headers: auth }))).toEqual(later);
    expect((await api("POST", READ_ALL, { headers: auth, json: {} })).body.data).toEqual({ marked: 0 });
    expect((await db().notification.findUniqueOrThrow({ where: { id: c! } })).readAt).not.toBeNull();
    expect(a).toBeDefined();
  });

  it("concurrent read-alls mark each notification once: the answers add up to the unread count", async () => {
    const { auth, userId } = await signedUp();
    await insert(
      userId,
      Array.from({ length: 30 }, (_, i) => (i % 5 ? {} : { readAt: new Date() })),
    );
    const answers = await Promise.all(Array.from({ length: 6 }, () => api("POST", READ_ALL, { headers: auth })));
    for (const a of answers) expect(a.status).toBe(200);
    expect(answers.reduce((sum, a) => sum + a.body.data.marked, 0)).toBe(24);
    expect((await api("GET", COUNT, { headers: auth })).body.data).toEqual({ count: 0, capped: false });
  });

  it("touches no other user's notifications", async () => {
    const me = await signedUp();
    const other = await signedUp();
    await insert(other.userId, [{}, {}]);
    expect((await api("POST", READ_ALL, { headers: me.auth })).body.data).toEqual({ marked: 0 });
    expect((await api("GET", COUNT, { headers: other.auth })).body.data).toEqual({ count: 2, capped: false });
  });

  it.each([
    [{ upTo: "x" }, "body.upTo"],
    [{ extra: 1 }, "body.extra"],
  ])("body %j is 400 at %s", async (json, path) => {
    const { auth } = await signedUp();
    const res = await api("POST", READ_ALL, { headers: auth, json });
    expect(res.status).toBe(400);
    expect(errorOf(res).details?.map((x) => x.path)).toContain(path);
  });
});

describe("GET /api/notifications/unread-count", () => {
  it("counts unread up to 99, then answers 99 capped", async () => {
    const { auth, userId } = await signedUp();
    await insert(userId, [...Array.from({ length: 98 }, () => ({})), { readAt: new Date() }, { archivedAt: new Date() }]);
    expect((await api("GET", COUNT, { headers: auth })).body.data).toEqual({ count: 98, capped: false });
    await insert(userId, [{}]);
    expect((await api("GET", COUNT, { headers: auth })).body.data).toEqual({ count: 99, capped: false });
    await insert(userId, [{}]);
    expect((await api("GET", COUNT, { headers: auth })).body.data).toEqual({ count: 99, capped: true });
    await insert(
      userId,
      Array.from({ length: 50 }, () => ({})),
    );
    expect((await api("GET", COUNT, { headers: auth })).body.data).toEqual({ count: 99, capped: true });
    await api("POST", READ_ALL, { headers: auth });
    expect((await api("GET", COUNT, { headers: auth })).body.data).toEqual({ count: 0, capped: false });
  });
});
