import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, poster } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";

// Locker-room posts and the feed (black box). Teams: only tm_ebi and tm_smp are followed, joined or staffed here
// (no other suite counts their fans); posts may name any seeded team. Feed assertions filter by an author of this
// file, since other suites post too.

const FEED = "/api/locker-room";
const post = (id: string) => `${FEED}/${id}`;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const publishCron = () => api("GET", "/api/cron/locker-room-publish", { headers: { authorization: `Bearer ${cronSecret()}` } });
const MINUTE = 60_000;

const fan = poster;

const create = (auth: Record<string, string>, json: unknown, headers: Record<string, string> = {}) =>
  api("POST", FEED, { headers: { ...auth, ...headers }, json });

async function created(auth: Record<string, string>, json: unknown) {
  const res = await create(auth, json);
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

const feedOf = (authorId: string, auth: Record<string, string> = {}, extra = "") => api("GET", `${FEED}?authorId=${authorId}${extra}`, { headers: auth });
const idsOf = (res: { body: any }) => (res.body.data.posts as { id: string }[]).map((p) => p.id);

const block = (auth: Record<string, string>, blockedUserId: string) =>
  api("POST", "/api/user/blocks", { headers: auth, json: { blockedUserId } }).then((r) => expect(r.status).toBeLessThan(300));

describe("POST /api/locker-room", () => {
  it("creates a post and answers it as the feed and the detail show it", async () => {
    const a = await fan();
    const p = await created(a.auth, {
      content: "What a match!",
      teamId: "tm_hch",
      lineup: { presetKey: "4-3-3", assignments: { gk: "pl_hch_01", st: null }, faces: ["f1"] },
    });
    expect(p).toMatchObject({
      content: "What a match!",
      author: { id: a.id },
      team: { id: "tm_hch" },
      authorTeam: null,
      visibility: "public",
      scheduled: false,
      editedAt: null,
      counts: { comments: 0, reactions: {} },
      viewer: { reaction: null, canEdit: true, canDelete: true },
      lineup: { presetKey: "4-3-3", assignments: { gk: "pl_hch_01", st: null }, faces: ["f1"] },
    });
    expect((await api("GET", post(p.id))).body.data).toMatchObject({ id: p.id, viewer: { canEdit: false, canDelete: false } });
    expect(idsOf(await feedOf(a.id))).toEqual([p.id]);
  });

  it("refuses without the current terms (403 UGC_TERMS_REQUIRED) and while suspended (403 POSTING_SUSPENDED)", async () => {
    const never = await fan({ terms: false });
    const res = await create(never.auth, { content: "hi" });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe("UGC_TERMS_REQUIRED");

    const outdated = await fan();
    await db().user.update({ where: { id: outdated.id }, data: { ugcTermsVersion: "2000-01" } });
    expect(errorOf(await create(outdated.auth, { content: "hi" })).code).toBe("UGC_TERMS_REQUIRED");

    const suspended = await fan();
    await db().postingSuspension.create({ data: { userId: suspended.id, until: new Date(Date.now() + 60 * MINUTE), reason: "spam", staffId: "user_staff" } });
    const refused = await create(suspended.auth, { content: "hi" });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe("POSTING_SUSPENDED");
    expect(await db().post.count({ where: { authorId: { in: [never.id, outdated.id, suspended.id] } } })).toBe(0);
  });

  it("posts as a team only for its staff accounts and staff; postAsTeamId is an alias; both different is 400", async () => {
    const clubStaff = await fan();
    await db().teamStaff.create({ data: { userId: clubStaff.id, teamId: "tm_ebi" } });
    const asTeam = await created(clubStaff.auth, { content: "Official news", authorTeamId: "tm_ebi" });
    expect(asTeam.authorTeam).toMatchObject({ id: "tm_ebi" });
    expect((await created(clubStaff.auth, { content: "Alias", postAsTeamId: "tm_ebi" })).authorTeam).toMatchObject({ id: "tm_ebi" });

    const other = await fan();
    const refused = await create(other.auth, { content: "Fake news", postAsTeamId: "tm_ebi" });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe("CANNOT_POST_AS_TEAM");

    const admin = await fan({ admin: true });
    expect((await created(admin.auth, { content: "Staff note", authorTeamId: "tm_smp" })).authorTeam).toMatchObject({ id: "tm_smp" });

    const both = await create(clubStaff.auth, { content: "x", authorTeamId: "tm_ebi", postAsTeamId: "tm_smp" });
    expect(both.status).toBe(400);
    expect(errorOf(both).details!.map((d) => d.path)).toContain("body.postAsTeamId");
  });

  it("answers 400 naming the field for each invalid part", async () => {
    const a = await fan();
    const cases: [unknown, string][] = [
      [{ content: "" }, "body.content"],
      [{ content: "   " }, "body.content"],
      [{ content: "x".repeat(2001) }, "body.content"],
      [{ content: "x", imageUrl: "http://example.com/a.png" }, "body.imageUrl"],
      [{ content: "x", teamId: "tm_nope" }, "teamId"],
      [{ content: "x", teamId: "tm_dvs" }, "teamId"],
      [{ content: "x", scheduledFor: new Date(Date.now() - MINUTE).toISOString() }, "scheduledFor"],
      [{ content: "x", scheduledFor: new Date(Date.now() + 91 * 24 * 60 * MINUTE).toISOString() }, "scheduledFor"],
      [{ content: "x", scheduledFor: "tomorrow" }, "body.scheduledFor"],
      [{ poll: { options: ["only one"], expiresIn: 3600 } }, "body.poll.options"],
      [{ poll: { options: ["a", "b", "c", "d", "e", "f"], expiresIn: 3600 } }, "body.poll.options"],
      [{ poll: { options: ["Yes", "yes"], expiresIn: 3600 } }, "body.poll.options"],
      [{ poll: { options: ["a", "x".repeat(101)], expiresIn: 3600 } }, "body.poll.options.1"],
      [{ poll: { options: ["a", "b"], expiresIn: 60 } }, "body.poll.expiresIn"],
      [{ poll: { options: ["a", "b"], expiresIn: 32 * 24 * 3600 } }, "body.poll.expiresIn"],
      [{ media: Array.from({ length: 5 }, () => ({ uploadId: randomUUID() })) }, "body.media"],
      [{ media: [{ uploadId: "nope" }] }, "body.media.0.uploadId"],
      [{ lineup: { presetKey: "Bad Key", assignments: {}, faces: [] } }, "body.lineup.presetKey"],
      [{ lineup: { presetKey: "442", assignments: { a: 1 }, faces: [] } }, "body.lineup.assignments.a"],
      [{ collectible: { type: "player", id: "pl_nobody" } }, "collectible.id"],
      [{ collectible: { type: "binder", id: "x" } }, "body.collectible.type"],
      [{ content: "x", visibility: "friends" }, "body.visibility"],
      [{ content: "x", visibility: "private" }, "body.visibility"],
      [{ content: "x", extra: 1 }, "body"],
    ];
    for (const [json, path] of cases) {
      const res = await create(a.auth, json);
      expect(res.status, `${JSON.stringify(json).slice(0, 80)} → ${res.text}`).toBe(400);
      expect(
        errorOf(res).details!.some((d) => d.path.startsWith(path)),
        `${path} in ${JSON.stringify(errorOf(res).details)}`,
      ).toBe(true);
    }
    expect(await db().post.count({ where: { authorId: a.id } })).toBe(0);
  });

  it("accepts attachments in place of content: a poll, a collectible, a lineup", async () => {
    const a = await fan();
    const withPoll = await created(a.auth, { poll: { options: ["Yes", "No"], expiresIn: 3600 } });
    expect(withPoll.poll).toMatchObject({
      options: [
        { title: "Yes", votesCount: 0 },
        { title: "No", votesCount: 0 },
      ],
      multiple: false,
      closed: false,
      votersCount: 0,
      ownVotes: null,
    });
    const closes = new Date(withPoll.poll.closesAt).getTime() - new Date(withPoll.publishAt).getTime();
    expect(closes).toBe(3600_000);
    // Results are the author's; another fan sees none before voting.
    expect((await api("GET", post(withPoll.id))).body.data.poll.options[0].votesCount).toBeNull();
    expect((await created(a.auth, { collectible: { type: "player", id: "pl_hch_01" } })).collectible).toEqual({ type: "player", id: "pl_hch_01" });
  });

  it("attaches the caller's pending uploads in order, and refuses another user's upload without writing anything", async () => {
    const a = await fan();
    const b = await fan();
    const upload = async (auth: Record<string, string>, seed: number) => {
      const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: seed, g: 40, b: 90 } } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "a.png");
      const res = await fetch(`${inject("baseUrl")}/api/upload/locker-media`, { method: "POST", headers: auth, body: form });
      expect(res.status).toBe(201);
      return ((await res.json()) as { data: { id: string; url: string } }).data;
    };
    const [m1, m2, theirs] = [await upload(a.auth, 10), await upload(a.auth, 20), await upload(b.auth, 30)];

    const refused = await create(a.auth, { content: "x", media: [{ uploadId: m1.id }, { uploadId: theirs.id }] });
    expect(refused.status).toBe(400);
    expect(errorOf(refused).details![0]!.path).toBe("media.1.uploadId");
    expect(await db().post.count({ where: { authorId: a.id } })).toBe(0);
    expect((await db().mediaUpload.findUniqueOrThrow({ where: { id: m1.id } })).attachedAt).toBeNull();

    const p = await created(a.auth, { content: "", media: [{ uploadId: m2.id, alt: "the crowd" }, { uploadId: m1.id }] });
    expect(p.media).toEqual([
      { uploadId: m2.id, url: m2.url, width: 32, height: 24, thumbhash: expect.any(String), alt: "the crowd" },
      { uploadId: m1.id, url: m1.url, width: 32, height: 24, thumbhash: expect.any(String), alt: null },
    ]);
    expect((await db().mediaUpload.findUniqueOrThrow({ where: { id: m1.id } })).attachedAt).not.toBeNull();
    // Attached once: a second post cannot take it.
    expect((await create(a.auth, { content: "again", media: [{ uploadId: m1.id }] })).status).toBe(400);
  });

  it("an Idempotency-Key makes retries answer the first post, also ten at once; another body under the key is 409", async () => {
    const a = await fan();
    const key = `retry-${randomUUID()}`;
    const body = { content: "Posted once", teamId: "tm_gfg" };
    const results = await Promise.all(Array.from({ length: 10 }, () => create(a.auth, body, { "Idempotency-Key": key })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true").length).toBe(9);
    const later = await create(a.auth, body, { "Idempotency-Key": key });
    expect(later.body.data.id).toBe(results[0]!.body.data.id);
    expect(later.headers.get("idempotent-replayed")).toBe("true");
    const other = await create(a.auth, { content: "Something else" }, { "Idempotency-Key": key });
    expect(other.status).toBe(409);
    expect(errorOf(other).code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await db().post.count({ where: { authorId: a.id } })).toBe(1);
    // Keys are per author.
    const b = await fan();
    expect((await create(b.auth, body, { "Idempotency-Key": key })).headers.get("idempotent-replayed")).toBeNull();
    expect((await create(a.auth, body, { "Idempotency-Key": "bad key with spaces" })).status).toBe(400);
  });

  it("rate-limits posting per user (policy ugc: the test server allows 40 a minute)", async () => {
    const a = await fan();
    await awayFromWindowEdge(); // 41 posts straddling a window edge could all pass
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) statuses.push((await create(a.auth, { content: `n${i}` })).status);
    expect(statuses.filter((s) => s === 201).length).toBe(40);
    expect(statuses[40]).toBe(429);
  });
});

describe("GET /api/locker-room", () => {
  it("pages newest first, stable when publish times tie, and filters by team and author", async () => {
    const a = await fan();
    const at = new Date(Date.now() - 10 * MINUTE);
    const ids = Array.from({ length: 7 }, () => randomUUID()).sort();
    await db().post.createMany({ data: ids.map((id, i) => ({ id, authorId: a.id, content: `tie ${i}`, publishAt: at, teamId: i % 2 ? "tm_lsl" : null })) });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await feedOf(a.id, {}, `&limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...idsOf(res));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const team = await api("GET", `${FEED}?teamId=tm_lsl&authorId=${a.id}`);
    expect(idsOf(team)).toEqual(ids.filter((_, i) => i % 2).reverse());
    expect((await api("GET", `${FEED}?cursor=garbage`)).status).toBe(400);
    expect((await api("GET", `${FEED}?following=true`)).status).toBe(401);
  });

  it("private posts are for the author and the team's fans; anonymous callers see public posts only", async () => {
    const a = await fan();
    const follower = await fan();
    const stranger = await fan();
    expect((await api("POST", "/api/teams/tm_smp/follow", { headers: follower.auth })).status).toBeLessThan(300);
    const priv = await created(a.auth, { content: "fans only", teamId: "tm_smp", visibility: "private" });
    const pub = await created(a.auth, { content: "everyone", teamId: "tm_smp" });
    expect(priv.visibility).toBe("private");
    expect(idsOf(await feedOf(a.id))).toEqual([pub.id]);
    expect(idsOf(await feedOf(a.id, stranger.auth))).toEqual([pub.id]);
    expect(idsOf(await feedOf(a.id, follower.auth))).toEqual([pub.id, priv.id]);
    expect(idsOf(await feedOf(a.id, a.auth))).toEqual([pub.id, priv.id]);
    expect((await api("GET", post(priv.id))).status).toBe(404);
    expect((await api("GET", post(priv.id), { headers: stranger.auth })).status).toBe(404);
    expect((await api("GET", post(priv.id), { headers: follower.auth })).status).toBe(200);
    // following=true: posts about or by the teams the caller follows.
    expect(idsOf(await api("GET", `${FEED}?following=true&authorId=${a.id}`, { headers: follower.auth }))).toEqual([pub.id, priv.id]);
    expect(idsOf(await api("GET", `${FEED}?following=true&authorId=${a.id}`, { headers: stranger.auth }))).toEqual([]);
  });

  it("blocks apply both ways: in the feed and on the detail", async () => {
    const author = await fan();
    const blocker = await fan();
    const blocked = await fan();
    const p = await created(author.auth, { content: "hello" });
    await block(blocker.auth, author.id);
    await block(author.auth, blocked.id);
    for (const viewer of [blocker, blocked]) {
      expect(idsOf(await feedOf(author.id, viewer.auth))).toEqual([]);
      expect((await api("GET", post(p.id), { headers: viewer.auth })).status).toBe(404);
    }
    expect(idsOf(await feedOf(author.id))).toEqual([p.id]);
  });

  it("deleted and hidden posts answer 404 to everyone but staff", async () => {
    const a = await fan();
    const other = await fan();
    const admin = await fan({ admin: true });
    const gone = await created(a.auth, { content: "oops" });
    const hidden = await created(a.auth, { content: "bad" });
    expect((await api("DELETE", post(gone.id), { headers: other.auth })).status).toBe(403);
    expect((await api("DELETE", post(gone.id), { headers: a.auth })).body.data).toEqual({ id: gone.id, deleted: true });
    expect((await api("DELETE", post(gone.id), { headers: a.auth })).body.data).toEqual({ id: gone.id, deleted: true });
    await db().post.update({ where: { id: hidden.id }, data: { hiddenAt: new Date(), hiddenBy: "user_staff" } });
    for (const id of [gone.id, hidden.id]) {
      expect((await api("GET", post(id))).status).toBe(404);
      expect((await api("GET", post(id), { headers: a.auth })).status).toBe(404);
      const staff = await api("GET", post(id), { headers: admin.auth });
      expect(staff.status).toBe(200);
    }
    expect((await api("GET", post(gone.id), { headers: admin.auth })).body.data.deletedAt).not.toBeNull();
    expect((await api("GET", post(hidden.id), { headers: admin.auth })).body.data.hiddenAt).not.toBeNull();
    expect(idsOf(await feedOf(a.id, admin.auth))).toEqual([]);
  });
});

describe("editing", () => {
  it("the author edits within the window; edits are recorded; later 409; others 403", async () => {
    const a = await fan();
    const other = await fan();
    const p = await created(a.auth, { content: "first" });
    const edited = await api("PATCH", post(p.id), { headers: a.auth, json: { content: "second" } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ content: "second", editedAt: expect.any(String) });
    expect((await api("PATCH", post(p.id), { headers: a.auth, json: { content: "third" } })).status).toBe(200);
    const edits = await api("GET", `${post(p.id)}/edits`);
    expect(edits.body.data.edits.map((e: { content: string }) => e.content)).toEqual(["first", "second"]);
    expect((await api("PATCH", post(p.id), { headers: other.auth, json: { content: "hijack" } })).status).toBe(403);
    expect((await api("PATCH", post(p.id), { headers: a.auth, json: { content: "" } })).status).toBe(400);
    await db().post.update({ where: { id: p.id }, data: { publishAt: new Date(Date.now() - 61 * MINUTE) } });
    const late = await api("PATCH", post(p.id), { headers: a.auth, json: { content: "too late" } });
    expect(late.status).toBe(409);
    expect(errorOf(late).code).toBe("EDIT_WINDOW_CLOSED");
  });
});

describe("scheduled posts", () => {
  it("appear exactly when their time comes; the author lists, reschedules and cancels them; the cron announces once", async () => {
    const a = await fan();
    const other = await fan();
    const soon = new Date(Date.now() + 2_500);
    const p = await created(a.auth, { content: "later", scheduledFor: soon.toISOString(), poll: { options: ["a", "b"], expiresIn: 600 } });
    expect(p).toMatchObject({ scheduled: true, publishAt: soon.toISOString() });
    expect(new Date(p.poll.closesAt).getTime()).toBe(soon.getTime() + 600_000);
    expect(idsOf(await feedOf(a.id))).toEqual([]);
    expect((await api("GET", post(p.id), { headers: other.auth })).status).toBe(404);
    expect((await api("GET", post(p.id), { headers: a.auth })).status).toBe(200);
    expect(idsOf(await api("GET", `${FEED}/scheduled`, { headers: a.auth }))).toEqual([p.id]);
    expect(idsOf(await api("GET", `${FEED}/scheduled`, { headers: other.auth }))).toEqual([]);

    const cancelMe = await created(a.auth, { content: "never", scheduledFor: new Date(Date.now() + 60 * MINUTE).toISOString() });
    const moved = new Date(Date.now() + 120 * MINUTE);
    expect((await api("PATCH", `${FEED}/scheduled/${cancelMe.id}`, { headers: other.auth, json: { scheduledFor: moved.toISOString() } })).status).toBe(404);
    const rescheduled = await api("PATCH", `${FEED}/scheduled/${cancelMe.id}`, { headers: a.auth, json: { scheduledFor: moved.toISOString() } });
    expect(rescheduled.body.data.publishAt).toBe(moved.toISOString());
    expect((await api("DELETE", `${FEED}/scheduled/${cancelMe.id}`, { headers: a.auth })).status).toBe(200);
    expect(idsOf(await api("GET", `${FEED}/scheduled`, { headers: a.auth }))).toEqual([p.id]);

    await new Promise((r) => setTimeout(r, soon.getTime() - Date.now() + 100));
    expect(idsOf(await feedOf(a.id))).toEqual([p.id]);
    expect((await api("GET", post(p.id), { headers: other.auth })).status).toBe(200);
    const late = await api("PATCH", `${FEED}/scheduled/${p.id}`, { headers: a.auth, json: { scheduledFor: moved.toISOString() } });
    expect(errorOf(late).code).toBe("ALREADY_PUBLISHED");

    expect((await publishCron()).status).toBe(200);
    await publishCron();
    const notes = await db().notification.findMany({ where: { userId: a.id, type: "POST_PUBLISHED" } });
    expect(notes.map((n) => (n.payload as { postId: string }).postId)).toEqual([p.id]);
    expect((await api("GET", "/api/cron/locker-room-publish")).status).toBe(401);
  });

  it("a team's post notifies the team's followers once (notifyTeams on)", async () => {
    const staff = await fan();
    await db().teamStaff.create({ data: { userId: staff.id, teamId: "tm_smp" } });
    const follower = await fan();
    const muted = await fan();
    for (const f of [follower, muted]) expect((await api("POST", "/api/teams/tm_smp/follow", { headers: f.auth })).status).toBeLessThan(300);
    await db().user.update({ where: { id: muted.id }, data: { notifyTeams: false } });
    const p = await created(staff.auth, { content: "Matchday!", authorTeamId: "tm_smp" });
    await publishCron();
    const got = await db().notification.findMany({ where: { userId: { in: [follower.id, muted.id] }, type: "TEAM_POST" } });
    expect(got.map((n) => [n.userId, (n.payload as { postId: string }).postId])).toEqual([[follower.id, p.id]]);
    const inbox = await api("GET", "/api/notifications", { headers: follower.auth });
    expect(inbox.body.data.notifications[0]).toMatchObject({
      type: "TEAM_POST",
      payload: { postId: p.id, team: { id: "tm_smp" }, href: `/api/locker-room/${p.id}` },
    });
  });
});
