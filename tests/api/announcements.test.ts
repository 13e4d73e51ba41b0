import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { api, db, errorOf, fan, newUser } from "../helpers";

// Announcements: staff create (audited) and end them; everyone sees the running ones (a scheduled or ended one never),
// newest first; a fan's dismissal hides one for that fan only, once under concurrency; unknown or not running: 404.

type Fan = Awaited<ReturnType<typeof fan>>;
type Announcement = { id: string; title: string; body: string; linkUrl: string | null; startsAt: string; endsAt: string | null };

const staff = newUser({ admin: true });
const hour = 3_600_000;
const created: string[] = [];

async function create(json: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/admin/announcements", {
    headers: staff.auth,
    json: { title: `News ${randomUUID().slice(0, 6)}`, body: "Season tickets go on sale on Monday.", ...json },
  });
  expect(res.status, res.text).toBe(201);
  const a = res.body.data.announcement as Announcement;
  created.push(a.id);
  return a;
}

const end = (id: string) => api("DELETE", `/api/admin/announcements/${id}`, { headers: staff.auth });
const listIds = async (f: Fan | null) => {
  const res = await api("GET", "/api/v1/announcements", { headers: f?.auth ?? {} });
  expect(res.status, res.text).toBe(200);
  return (res.body.data.announcements as Announcement[]).map((a) => a.id);
};
const dismiss = (f: Fan, id: string) => api("POST", `/api/v1/announcements/${id}/dismiss`, { headers: f.auth });

// Announcements are global: end this file's after each test so the capped list keeps room for the next test's.
afterEach(async () => {
  await Promise.all(created.splice(0).map((id) => end(id)));
});

describe("staff", () => {
  it("create one (an audit entry in the same change) and end it (audited once; ending again changes nothing)", async () => {
    const a = await create({ linkUrl: "https://example.com/tickets", endsAt: new Date(Date.now() + 24 * hour).toISOString() });
    expect(a).toMatchObject({ body: "Season tickets go on sale on Monday.", linkUrl: "https://example.com/tickets" });
    const row = await db().announcement.findUniqueOrThrow({ where: { id: a.id } });
    expect(row.createdBy).toBe(staff.sub);
    const entries = await db().auditEntry.findMany({ where: { targetType: "announcement", targetId: a.id } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "announcement.create", actorId: staff.sub, actorRole: "admin" });
    expect((entries[0]!.after as { title: string }).title).toBe(a.title);
    expect(await listIds(null)).toContain(a.id);

    const ended = await end(a.id);
    expect(ended.status, ended.text).toBe(200);
    expect(new Date(ended.body.data.announcement.endsAt).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await listIds(null)).not.toContain(a.id);
    expect((await end(a.id)).status).toBe(200);
    const actions = (await db().auditEntry.findMany({ where: { targetType: "announcement", targetId: a.id } })).map((e) => e.action).sort();
    expect(actions).toEqual(["announcement.create", "announcement.end"]);
    expect(errorOf(await end(randomUUID())).code).toBe("NOT_FOUND");
  });

  it("the admin routes answer 401 without a token and 403 to a fan; nothing is written", async () => {
    const f = await fan();
    const json = { title: "Not staff", body: "No." };
    const anonymous = await api("POST", "/api/admin/announcements", { json });
    expect(anonymous.status).toBe(401);
    const asFan = await api("POST", "/api/admin/announcements", { headers: f.auth, json });
    expect(asFan.status).toBe(403);
    expect(errorOf(asFan).code).toBe("FORBIDDEN");
    const a = await create();
    expect((await api("DELETE", `/api/admin/announcements/${a.id}`)).status).toBe(401);
    expect((await api("DELETE", `/api/admin/announcements/${a.id}`, { headers: f.auth })).status).toBe(403);
    expect(await db().announcement.count({ where: { title: "Not staff" } })).toBe(0);
    expect(await listIds(null)).toContain(a.id);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const bad = async (json: Record<string, unknown>, path: string) => {
      const res = await api("POST", "/api/admin/announcements", { headers: staff.auth, json: { title: "Bad", body: "Bad", ...json } });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(
        errorOf(res)
          .details?.map((d) => d.path)
          .join(" "),
        JSON.stringify(json),
      ).toContain(path);
    };
    await bad({ title: "" }, "body.title");
    await bad({ title: "x".repeat(121) }, "body.title");
    await bad({ body: 5 }, "body.body");
    await bad({ linkUrl: "javascript:alert(1)" }, "body.linkUrl");
    await bad({ linkUrl: "http://example.com" }, "body.linkUrl");
    await bad({ startsAt: "tomorrow" }, "body.startsAt");
    await bad({ endsAt: new Date(Date.now() - hour).toISOString() }, "body.endsAt");
    await bad({ startsAt: new Date(Date.now() + 2 * hour).toISOString(), endsAt: new Date(Date.now() + hour).toISOString() }, "body.endsAt");
    await bad({ startsAt: new Date(Date.now() + 400 * 24 * hour).toISOString() }, "body.startsAt");
    await bad({ audience: "all" }, "body");
    const res = await api("POST", "/api/admin/announcements", { headers: { ...staff.auth, "content-type": "application/json" }, body: "{not json" });
    expect(res.status).toBe(400);
    expect((await api("DELETE", "/api/admin/announcements/not-a-uuid", { headers: staff.auth })).status).toBe(400);
  });
});

describe("fans", () => {
  it("anonymous and signed-in fans see the running ones, newest first; a scheduled or ended one is hidden", async () => {
    const f = await fan();
    const older = await create({ startsAt: new Date(Date.now() - hour).toISOString() });
    const newer = await create();
    const scheduled = await create({ startsAt: new Date(Date.now() + hour).toISOString() });
    const past = await create({ startsAt: new Date(Date.now() - 2 * hour).toISOString(), endsAt: new Date(Date.now() + hour).toISOString() });
    await db().$executeRaw`UPDATE announcements SET ends_at = now() - interval '1 second' WHERE id = ${past.id}::uuid`;
    for (const viewer of [null, f]) {
      const ids = await listIds(viewer);
      expect(ids).toContain(newer.id);
      expect(ids).toContain(older.id);
      expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
      expect(ids).not.toContain(scheduled.id);
      expect(ids).not.toContain(past.id);
    }
    // Once its start comes, the scheduled one shows.
    await db().$executeRaw`UPDATE announcements SET starts_at = now() - interval '1 second' WHERE id = ${scheduled.id}::uuid`;
    expect(await listIds(null)).toContain(scheduled.id);
  });

  it("a dismissal hides it for that fan only; anonymous callers still see it", async () => {
    const [a, b] = [await fan(), await fan()];
    const x = await create();
    const res = await dismiss(a, x.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ announcementId: x.id, dismissedAt: expect.any(String) });
    expect(await listIds(a)).not.toContain(x.id);
    expect(await listIds(b)).toContain(x.id);
    expect(await listIds(null)).toContain(x.id);
  });

  it("dismissing is idempotent, concurrently too: one row, every answer the first dismissal's time", async () => {
    const f = await fan();
    const x = await create();
    const answers = await Promise.all(Array.from({ length: 8 }, () => dismiss(f, x.id)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const rows = await db().announcementDismissal.findMany({ where: { userId: f.id, announcementId: x.id } });
    expect(rows).toHaveLength(1);
    expect(new Set(answers.map((r) => r.body.data.dismissedAt))).toEqual(new Set([rows[0]!.dismissedAt.toISOString()]));
    const again = await dismiss(f, x.id);
    expect(again.status).toBe(200);
    expect(again.body.data.dismissedAt).toBe(rows[0]!.dismissedAt.toISOString());
  });

  it("dismissing an unknown, scheduled or ended one is 404; without a token 401; a malformed id 400", async () => {
    const f = await fan();
    expect(errorOf(await dismiss(f, randomUUID())).code).toBe("NOT_FOUND");
    const scheduled = await create({ startsAt: new Date(Date.now() + hour).toISOString() });
    expect((await dismiss(f, scheduled.id)).status).toBe(404);
    const ended = await create();
    expect((await end(ended.id)).status).toBe(200);
    expect((await dismiss(f, ended.id)).status).toBe(404);
    expect(await db().announcementDismissal.count({ where: { userId: f.id } })).toBe(0);
    expect((await api("POST", `/api/v1/announcements/${ended.id}/dismiss`)).status).toBe(401);
    expect((await api("POST", "/api/v1/announcements/nope/dismiss", { headers: f.auth })).status).toBe(400);
  });
});
