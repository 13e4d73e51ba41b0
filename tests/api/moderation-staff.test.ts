import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser } from "../helpers";
import { type Auth, comment, ISO, post, reportComment, reportPost, signedIn } from "./moderation-fixtures";

// The staff moderation API: the queue, a target's reports, hide and restore, dismiss, posting suspensions. Every test
// makes its own users and content and looks only at those.

const staff = () => newUser({ admin: true });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const STAFF_ROUTES: [string, string, unknown?][] = [
  ["GET", "/api/admin/moderation/queue"],
  ["GET", `/api/admin/moderation/reports?postId=${randomUUID()}`],
  ["POST", `/api/admin/moderation/posts/${randomUUID()}/hide`],
  ["POST", `/api/admin/moderation/posts/${randomUUID()}/restore`],
  ["POST", `/api/admin/moderation/comments/${randomUUID()}/hide`],
  ["POST", `/api/admin/moderation/comments/${randomUUID()}/restore`],
  ["POST", "/api/admin/moderation/dismiss", { postId: randomUUID() }],
  ["POST", "/api/admin/moderation/suspensions", { userId: randomUUID(), hours: 1, reason: "x" }],
  ["GET", `/api/admin/moderation/suspensions?userId=${randomUUID()}`],
  ["POST", `/api/admin/moderation/suspensions/${randomUUID()}/lift`],
];

describe("staff moderation API: access", () => {
  it.each(STAFF_ROUTES)("%s %s: 401 without a token, 403 for a fan", async (method, path, json) => {
    expect((await api(method, path, { json })).status).toBe(401);
    const fan = newUser();
    const res = await api(method, path, { headers: fan.auth, json });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe("FORBIDDEN");
  });
});

/** Walks the whole queue (it is global: other tests add to it) and answers its items in order. */
async function wholeQueue(auth: Auth, limit = 50) {
  const items: any[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const res = await api("GET", `/api/admin/moderation/queue?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth });
    expect(res.status).toBe(200);
    items.push(...res.body.data.items);
    cursor = res.body.data.nextCursor;
    if (!cursor) return items;
  }
  throw new Error("queue did not end");
}
const keyOf = (item: any) => item.target.commentId ?? item.target.postId;

describe("GET /api/admin/moderation/queue", () => {
  it("lists reported targets, oldest open report first, with snapshot, counts per reason and the latest reports", async () => {
    const admin = staff();
    const author = await signedIn();
    const [r1, r2, r3, r4] = [await signedIn(), await signedIn(), await signedIn(), await signedIn()];
    // Two attachments as a post stores them (other files' feed reads validate every post they meet).
    const attachment = (uploadId: string) => ({ uploadId, url: `https://blob.example/${uploadId}.webp`, width: 10, height: 10, thumbhash: "AAAA", alt: null });
    const p = await post(author.id, { media: [attachment("u1"), attachment("u2")] });
    const c = await comment(p.id, author.id);
    expect((await reportPost(r1.auth, p.id, { reason: "spam", note: "first" })).status).toBe(201);
    await pause(10);
    expect((await reportComment(r2.auth, p.id, c.id, { reason: "violence" })).status).toBe(201);
    await pause(10);
    expect((await reportPost(r2.auth, p.id, { reason: "hate", note: "second" })).status).toBe(201);
    await pause(10);
    expect((await reportPost(r3.auth, p.id, { reason: "spam" })).status).toBe(201);
    await pause(10);
    expect((await reportPost(r4.auth, p.id, { reason: "other", note: "fourth" })).status).toBe(201);

    const items = await wholeQueue(admin.auth, 3);
    // Every target once, in order of its oldest open report.
    expect(new Set(items.map(keyOf)).size).toBe(items.length);
    const firsts = items.map((i) => i.firstReportedAt);
    expect([...firsts].sort()).toEqual(firsts);
    const iPost = items.findIndex((i) => keyOf(i) === p.id);
    const iComment = items.findIndex((i) => keyOf(i) === c.id);
    expect(iPost).toBeGreaterThanOrEqual(0);
    expect(iComment).toBeGreaterThan(iPost);

    const reports = await db().report.findMany({ where: { postId: p.id }, orderBy: { createdAt: "asc" } });
    const item = items[iPost];
    expect(item).toEqual({
      target: { type: "post", postId: p.id, commentId: null },
      content: {
        content: p.content,
        mediaCount: 2,
        author: { id: author.id, handle: author.handle, displayName: "Mod Test", avatarUrl: null },
        createdAt: p.createdAt.toISOString(),
        hiddenAt: null,
        deletedAt: null,
      },
      openReports: 4,
      reasons: { spam: 2, hate: 1, other: 1 },
      firstReportedAt: reports[0]!.createdAt.toISOString(),
      lastReportedAt: reports[3]!.createdAt.toISOString(),
      latestReports: [reports[3], reports[2], reports[1]].map((r) => ({
        id: r!.id,
        reporterId: r!.reporterId,
        postId: p.id,
        commentId: null,
        reason: r!.reason.toLowerCase(),
        note: r!.note,
        createdAt: r!.createdAt.toISOString(),
        resolvedAt: null,
        resolvedBy: null,
        resolution: null,
      })),
    });
    expect(items[iComment]).toMatchObject({
      target: { type: "comment", postId: p.id, commentId: c.id },
      content: { content: c.content, mediaCount: 0, author: { id: author.id } },
      openReports: 1,
      reasons: { violence: 1 },
    });
  });

  it("a malformed cursor or limit is a 400", async () => {
    const admin = staff();
    const bad = await api("GET", "/api/admin/moderation/queue?cursor=zzz", { headers: admin.auth });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).details?.[0]?.path).toBe("query.cursor");
    const limit = await api("GET", "/api/admin/moderation/queue?limit=0", { headers: admin.auth });
    expect(limit.status).toBe(400);
    expect(errorOf(limit).details?.[0]?.path).toBe("query.limit");
  });
});

describe("GET /api/admin/moderation/reports", () => {
  it("lists every report of a target, newest first, keyset; exactly one of postId and commentId", async () => {
    const admin = staff();
    const author = await signedIn();
    const reporters = [await signedIn(), await signedIn(), await signedIn()];
    const p = await post(author.id);
    for (const r of reporters) expect((await reportPost(r.auth, p.id, { reason: "spam" })).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api("GET", `/api/admin/moderation/reports?postId=${p.id}&limit=2${cursor ? `&cursor=${cursor}` : ""}`, { headers: admin.auth });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.reports.map((r: any) => r.reporterId));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(reporters.map((r) => r.id).reverse());

    for (const qs of ["", `?postId=${p.id}&commentId=${randomUUID()}`]) {
      const res = await api("GET", `/api/admin/moderation/reports${qs}`, { headers: admin.auth });
      expect(res.status).toBe(400);
      expect(errorOf(res).details?.[0]?.path).toBe("query.postId");
    }
  });
});

describe("hide and restore", () => {
  it("hiding a post sets hidden_at and hidden_by, resolves its open reports, takes it out of the queue; idempotent; restore clears it", async () => {
    const admin = staff();
    const author = await signedIn();
    const [a, b] = [await signedIn(), await signedIn()];
    const p = await post(author.id);
    await reportPost(a.auth, p.id, { reason: "spam" });
    await reportPost(b.auth, p.id, { reason: "sexual" });

    const hide = await api("POST", `/api/admin/moderation/posts/${p.id}/hide`, { headers: admin.auth, json: { note: "clear spam" } });
    expect(hide.status).toBe(200);
    expect(hide.body.data).toEqual({ postId: p.id, commentId: null, hiddenAt: expect.stringMatching(ISO), changed: true, resolvedReports: 2 });
    const row = await db().post.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.hiddenAt?.toISOString()).toBe(hide.body.data.hiddenAt);
    expect(row.hiddenBy).toBe(admin.sub);
    const reports = await db().report.findMany({ where: { postId: p.id } });
    expect(reports.every((r) => r.resolution === "hidden" && r.resolvedBy === admin.sub && r.resolvedAt)).toBe(true);
    expect((await wholeQueue(admin.auth)).some((i) => keyOf(i) === p.id)).toBe(false);
    // Hidden: nobody else can report it any more.
    expect((await reportPost((await signedIn()).auth, p.id, { reason: "spam" })).status).toBe(404);

    // Again: nothing changes (no body needed).
    const again = await api("POST", `/api/admin/moderation/posts/${p.id}/hide`, { headers: admin.auth });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...hide.body.data, changed: false, resolvedReports: 0 });

    const restore = await api("POST", `/api/admin/moderation/posts/${p.id}/restore`, { headers: admin.auth });
    expect(restore.status).toBe(200);
    expect(restore.body.data).toEqual({ postId: p.id, commentId: null, hiddenAt: null, changed: true, resolvedReports: 0 });
    expect(await db().post.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({ hiddenAt: null, hiddenBy: null });
    // Resolved reports stay resolved.
    expect(await db().report.count({ where: { postId: p.id, resolvedAt: null } })).toBe(0);
    const restoreAgain = await api("POST", `/api/admin/moderation/posts/${p.id}/restore`, { headers: admin.auth });
    expect(restoreAgain.body.data.changed).toBe(false);
    // Visible again: it can be reported again by someone new.
    expect((await reportPost((await signedIn()).auth, p.id, { reason: "spam" })).status).toBe(201);
  });

  it("a hidden post answers 404 on GET /api/locker-room/{postId} to everyone but staff, and again 200 once restored", async () => {
    const admin = staff();
    const author = await signedIn();
    const fan = await signedIn();
    const p = await post(author.id);
    expect((await api("GET", `/api/locker-room/${p.id}`, { headers: fan.auth })).status).toBe(200);
    await api("POST", `/api/admin/moderation/posts/${p.id}/hide`, { headers: admin.auth });
    for (const auth of [{}, fan.auth, author.auth]) expect((await api("GET", `/api/locker-room/${p.id}`, { headers: auth })).status).toBe(404);
    expect((await api("GET", `/api/locker-room?authorId=${author.id}`)).body.data.posts).toEqual([]);
    const asStaff = await api("GET", `/api/locker-room/${p.id}`, { headers: admin.auth });
    expect(asStaff.status).toBe(200);
    expect(asStaff.body.data.hiddenAt).toEqual(expect.stringMatching(ISO));
    await api("POST", `/api/admin/moderation/posts/${p.id}/restore`, { headers: admin.auth });
    expect((await api("GET", `/api/locker-room/${p.id}`, { headers: fan.auth })).status).toBe(200);
  });

  it("unknown targets are 404, malformed ids 400, and the note is bounded", async () => {
    const admin = staff();
    for (const path of ["posts", "comments"]) {
      for (const act of ["hide", "restore"]) {
        const res = await api("POST", `/api/admin/moderation/${path}/${randomUUID()}/${act}`, { headers: admin.auth });
        expect(res.status).toBe(404);
        expect(errorOf(res).code).toBe("NOT_FOUND");
        expect((await api("POST", `/api/admin/moderation/${path}/nope/${act}`, { headers: admin.auth })).status).toBe(400);
      }
    }
    const author = await signedIn();
    const p = await post(author.id);
    const long = await api("POST", `/api/admin/moderation/posts/${p.id}/hide`, { headers: admin.auth, json: { note: "x".repeat(501) } });
    expect(long.status).toBe(400);
    expect(errorOf(long).details?.[0]?.path).toBe("body.note");
    expect((await db().post.findUniqueOrThrow({ where: { id: p.id } })).hiddenAt).toBeNull();
  });

  it("hiding and restoring a comment moves comment_count and the parent's reply_count by one, only when the state changes", async () => {
    const admin = staff();
    const author = await signedIn();
    const reporter = await signedIn();
    const p = await post(author.id, { commentCount: 3 });
    const top = await comment(p.id, author.id, { replyCount: 1 });
    const reply = await comment(p.id, author.id, { parentId: top.id });
    await comment(p.id, author.id);
    await reportComment(reporter.auth, p.id, reply.id, { reason: "harassment" });
    const counts = async () => ({
      comments: (await db().post.findUniqueOrThrow({ where: { id: p.id } })).commentCount,
      replies: (await db().postComment.findUniqueOrThrow({ where: { id: top.id } })).replyCount,
    });

    const hides = await Promise.all(Array.from({ length: 5 }, () => api("POST", `/api/admin/moderation/comments/${reply.id}/hide`, { headers: admin.auth })));
    expect(hides.map((h) => h.status)).toEqual(Array(5).fill(200));
    expect(hides.filter((h) => h.body.data.changed)).toHaveLength(1);
    expect(hides.reduce((n, h) => n + h.body.data.resolvedReports, 0)).toBe(1);
    expect(hides[0]!.body.data).toMatchObject({ postId: p.id, commentId: reply.id, hiddenAt: expect.stringMatching(ISO) });
    expect(await counts()).toEqual({ comments: 2, replies: 0 });
    expect(await db().postComment.findUniqueOrThrow({ where: { id: reply.id } })).toMatchObject({ hiddenBy: admin.sub });
    expect(await db().report.findFirstOrThrow({ where: { commentId: reply.id } })).toMatchObject({ resolution: "hidden", resolvedBy: admin.sub });

    const restores = await Promise.all(
      Array.from({ length: 5 }, () => api("POST", `/api/admin/moderation/comments/${reply.id}/restore`, { headers: admin.auth })),
    );
    expect(restores.filter((r) => r.body.data.changed)).toHaveLength(1);
    expect(await counts()).toEqual({ comments: 3, replies: 1 });
    expect(await db().postComment.findUniqueOrThrow({ where: { id: reply.id } })).toMatchObject({ hiddenAt: null, hiddenBy: null });

    // A top-level comment: only the post's count moves.
    await api("POST", `/api/admin/moderation/comments/${top.id}/hide`, { headers: admin.auth });
    expect(await counts()).toEqual({ comments: 2, replies: 1 });
    await api("POST", `/api/admin/moderation/comments/${top.id}/restore`, { headers: admin.auth });
    expect(await counts()).toEqual({ comments: 3, replies: 1 });

    // A deleted comment is not counted: hiding and restoring it leaves the counts alone.
    const deleted = await comment(p.id, author.id, { deletedAt: new Date() });
    expect((await api("POST", `/api/admin/moderation/comments/${deleted.id}/hide`, { headers: admin.auth })).body.data.changed).toBe(true);
    expect(await counts()).toEqual({ comments: 3, replies: 1 });
    expect((await api("POST", `/api/admin/moderation/comments/${deleted.id}/restore`, { headers: admin.auth })).body.data.changed).toBe(true);
    expect(await counts()).toEqual({ comments: 3, replies: 1 });
  });
});

describe("POST /api/admin/moderation/dismiss", () => {
  it("resolves the open reports as dismissed, keeps the content, takes the target out of the queue; a repeat dismisses nothing", async () => {
    const admin = staff();
    const author = await signedIn();
    const [a, b] = [await signedIn(), await signedIn()];
    const p = await post(author.id);
    const c = await comment(p.id, author.id);
    await reportPost(a.auth, p.id, { reason: "misinformation" });
    await reportComment(a.auth, p.id, c.id, { reason: "spam" });
    await reportComment(b.auth, p.id, c.id, { reason: "spam" });

    const res = await api("POST", "/api/admin/moderation/dismiss", { headers: admin.auth, json: { commentId: c.id } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ postId: null, commentId: c.id, resolvedReports: 2 });
    expect(await db().report.findMany({ where: { commentId: c.id } })).toMatchObject([
      { resolution: "dismissed", resolvedBy: admin.sub },
      { resolution: "dismissed", resolvedBy: admin.sub },
    ]);
    expect((await db().postComment.findUniqueOrThrow({ where: { id: c.id } })).hiddenAt).toBeNull();
    // The post's own report is untouched.
    expect(await db().report.count({ where: { postId: p.id, resolvedAt: null } })).toBe(1);
    const queue = await wholeQueue(admin.auth);
    expect(queue.some((i) => keyOf(i) === c.id)).toBe(false);
    expect(queue.some((i) => keyOf(i) === p.id)).toBe(true);

    const again = await api("POST", "/api/admin/moderation/dismiss", { headers: admin.auth, json: { commentId: c.id } });
    expect(again.body.data.resolvedReports).toBe(0);
    const post1 = await api("POST", "/api/admin/moderation/dismiss", { headers: admin.auth, json: { postId: p.id } });
    expect(post1.body.data).toEqual({ postId: p.id, commentId: null, resolvedReports: 1 });
    expect((await db().post.findUniqueOrThrow({ where: { id: p.id } })).hiddenAt).toBeNull();
  });

  it("exactly one of postId and commentId (400); an unknown target is 404", async () => {
    const admin = staff();
    for (const json of [{}, { postId: randomUUID(), commentId: randomUUID() }]) {
      const res = await api("POST", "/api/admin/moderation/dismiss", { headers: admin.auth, json });
      expect(res.status).toBe(400);
      expect(errorOf(res).details?.[0]?.path).toBe("body.postId");
    }
    for (const json of [{ postId: randomUUID() }, { commentId: randomUUID() }]) {
      const res = await api("POST", "/api/admin/moderation/dismiss", { headers: admin.auth, json });
      expect(res.status).toBe(404);
    }
  });
});

describe("posting suspensions", () => {
  it("a suspended user's POST /api/locker-room answers 403 POSTING_SUSPENDED until the suspension is lifted", async () => {
    const admin = staff();
    const fan = await signedIn();
    const version = (await api("GET", "/api/user/terms")).body.data.currentVersion;
    expect((await api("POST", "/api/user/terms", { headers: fan.auth, json: { version } })).status).toBe(200);
    const suspended = await api("POST", "/api/admin/moderation/suspensions", { headers: admin.auth, json: { userId: fan.id, hours: 2, reason: "spam" } });
    expect(suspended.status).toBe(201);
    const refused = await api("POST", "/api/locker-room", { headers: fan.auth, json: { content: "let me in" } });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe("POSTING_SUSPENDED");
    expect(errorOf(refused).details?.[0]?.message).toBe(suspended.body.data.until);
    await api("POST", `/api/admin/moderation/suspensions/${suspended.body.data.id}/lift`, { headers: admin.auth });
    expect((await api("POST", "/api/locker-room", { headers: fan.auth, json: { content: "back" } })).status).toBe(201);
  });

  it("suspends (201), lists newest first with keyset, lifts idempotently", async () => {
    const admin = staff();
    const fan = await signedIn();
    const first = await api("POST", "/api/admin/moderation/suspensions", { headers: admin.auth, json: { userId: fan.id, hours: 24, reason: "  Spam  " } });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      userId: fan.id,
      until: expect.stringMatching(ISO),
      reason: "Spam",
      staffId: admin.sub,
      createdAt: expect.stringMatching(ISO),
      liftedAt: null,
      active: true,
    });
    expect(Date.parse(first.body.data.until) - Date.parse(first.body.data.createdAt)).toBe(24 * 3600_000);
    const row = await db().postingSuspension.findUniqueOrThrow({ where: { id: first.body.data.id } });
    expect(row).toMatchObject({ userId: fan.id, reason: "Spam", staffId: admin.sub, liftedAt: null });
    const second = await api("POST", "/api/admin/moderation/suspensions", { headers: admin.auth, json: { userId: fan.id, hours: 1, reason: "Again" } });
    expect(second.status).toBe(201);

    const page1 = await api("GET", `/api/admin/moderation/suspensions?userId=${fan.id}&limit=1`, { headers: admin.auth });
    expect(page1.status).toBe(200);
    expect(page1.body.data.suspensions.map((s: any) => s.id)).toEqual([second.body.data.id]);
    const page2 = await api("GET", `/api/admin/moderation/suspensions?userId=${fan.id}&limit=1&cursor=${page1.body.data.nextCursor}`, { headers: admin.auth });
    expect(page2.body.data.suspensions.map((s: any) => s.id)).toEqual([first.body.data.id]);
    expect(page2.body.data.nextCursor).toBeUndefined();

    const lift = await api("POST", `/api/admin/moderation/suspensions/${first.body.data.id}/lift`, { headers: admin.auth });
    expect(lift.status).toBe(200);
    expect(lift.body.data).toMatchObject({ id: first.body.data.id, liftedAt: expect.stringMatching(ISO), active: false });
    const liftAgain = await api("POST", `/api/admin/moderation/suspensions/${first.body.data.id}/lift`, { headers: admin.auth });
    expect(liftAgain.body.data.liftedAt).toBe(lift.body.data.liftedAt);
    expect((await db().postingSuspension.findUniqueOrThrow({ where: { id: first.body.data.id } })).liftedAt?.toISOString()).toBe(lift.body.data.liftedAt);
  });

  it("validates hours (1..8760) and reason (1..500); unknown user or suspension is 404", async () => {
    const admin = staff();
    const fan = await signedIn();
    const cases: [unknown, string][] = [
      [{ userId: fan.id, hours: 0, reason: "x" }, "body.hours"],
      [{ userId: fan.id, hours: 8761, reason: "x" }, "body.hours"],
      [{ userId: fan.id, hours: 1.5, reason: "x" }, "body.hours"],
      [{ userId: fan.id, hours: 1, reason: "  " }, "body.reason"],
      [{ userId: fan.id, hours: 1, reason: "x".repeat(501) }, "body.reason"],
      [{ userId: "nope", hours: 1, reason: "x" }, "body.userId"],
    ];
    for (const [json, path] of cases) {
      const res = await api("POST", "/api/admin/moderation/suspensions", { headers: admin.auth, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    }
    expect(await db().postingSuspension.count({ where: { userId: fan.id } })).toBe(0);
    expect((await api("POST", "/api/admin/moderation/suspensions", { headers: admin.auth, json: { userId: fan.id, hours: 8760, reason: "x" } })).status).toBe(
      201,
    );
    const unknown = await api("POST", "/api/admin/moderation/suspensions", { headers: admin.auth, json: { userId: randomUUID(), hours: 1, reason: "x" } });
    expect(unknown.status).toBe(404);
    expect((await api("POST", `/api/admin/moderation/suspensions/${randomUUID()}/lift`, { headers: admin.auth })).status).toBe(404);
    expect((await api("GET", "/api/admin/moderation/suspensions", { headers: admin.auth })).status).toBe(400);
  });
});
