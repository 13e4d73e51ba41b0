import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { comment, ISO, post, reportComment, reportPost, signedIn } from "./moderation-fixtures";

// Reports of posts and comments. Every test makes its own users and content and looks only at those; the staff
// moderation API is in moderation-staff.test.ts.

describe("POST /api/locker-room/{postId}/report", () => {
  it("401 without a token", async () => {
    const res = await api("POST", `/api/locker-room/${randomUUID()}/report`, { json: { reason: "spam" } });
    expect(res.status).toBe(401);
  });

  it("reports a visible post once (201), stored with its reason and note", async () => {
    const author = await signedIn();
    const me = await signedIn();
    const p = await post(author.id);
    const res = await reportPost(me.auth, p.id, { reason: "harassment", note: "  targets a player  " });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: { id: expect.any(String), postId: p.id, commentId: null, reason: "harassment", note: "targets a player", createdAt: expect.stringMatching(ISO) },
    });
    const rows = await db().report.findMany({ where: { postId: p.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: res.body.data.id,
      reporterId: me.id,
      reason: "HARASSMENT",
      note: "targets a player",
      resolvedAt: null,
      commentId: null,
    });

    const again = await reportPost(me.auth, p.id, { reason: "spam" });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("ALREADY_REPORTED");
    // Another user may report it too.
    const other = await signedIn();
    expect((await reportPost(other.auth, p.id, { reason: "spam" })).status).toBe(201);
    expect(await db().report.count({ where: { postId: p.id } })).toBe(2);
  });

  it("validates the body: reason from the list, note at most 1000 characters, note required for other", async () => {
    const author = await signedIn();
    const me = await signedIn();
    const p = await post(author.id);
    const cases: [unknown, string][] = [
      [{ reason: "other" }, "body.note"],
      [{ reason: "other", note: "   " }, "body.note"],
      [{ reason: "spam", note: "x".repeat(1001) }, "body.note"],
      [{ reason: "rude" }, "body.reason"],
      [{}, "body.reason"],
      [{ reason: "spam", extra: 1 }, "body.extra"],
    ];
    for (const [json, path] of cases) {
      const res = await reportPost(me.auth, p.id, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    }
    const bad = await reportPost(me.auth, "not-a-uuid", { reason: "spam" });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).details?.[0]?.path).toBe("params.postId");
    expect(await db().report.count({ where: { postId: p.id } })).toBe(0);
    const other = await reportPost(me.auth, p.id, { reason: "other", note: "Looks like a bot" });
    expect(other.status).toBe(201);
    expect(other.body.data).toMatchObject({ reason: "other", note: "Looks like a bot" });
  });

  it("refuses reporting one's own post (400 CANNOT_REPORT_OWN)", async () => {
    const me = await signedIn();
    const p = await post(me.id);
    const res = await reportPost(me.auth, p.id, { reason: "spam" });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("CANNOT_REPORT_OWN");
    expect(await db().report.count({ where: { postId: p.id } })).toBe(0);
  });

  it("404 for a post the reporter cannot see: unknown, deleted, hidden, unpublished, private, blocked either way", async () => {
    const author = await signedIn();
    const me = await signedIn();
    const blockedAuthor = await signedIn();
    const blockingAuthor = await signedIn();
    await db().userBlock.create({ data: { blockerId: me.id, blockedId: blockedAuthor.id } });
    await db().userBlock.create({ data: { blockerId: blockingAuthor.id, blockedId: me.id } });
    const targets = [
      { id: randomUUID() },
      await post(author.id, { deletedAt: new Date() }),
      await post(author.id, { hiddenAt: new Date(), hiddenBy: "user_staff" }),
      await post(author.id, { publishAt: new Date(Date.now() + 3600_000), scheduled: true }),
      await post(author.id, { visibility: "PRIVATE" }),
      await post(blockedAuthor.id),
      await post(blockingAuthor.id),
    ];
    for (const t of targets) {
      const res = await reportPost(me.auth, t.id, { reason: "spam" });
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe("NOT_FOUND");
    }
    expect(await db().report.count({ where: { reporterId: me.id } })).toBe(0);
  });

  it("10 concurrent reports by one user: one row, nine 409 ALREADY_REPORTED", async () => {
    const author = await signedIn();
    const me = await signedIn();
    const p = await post(author.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => reportPost(me.auth, p.id, { reason: "spam" })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(results.filter((r) => r.status === 409).every((r) => errorOf(r).code === "ALREADY_REPORTED")).toBe(true);
    expect(await db().report.count({ where: { postId: p.id, reporterId: me.id } })).toBe(1);
  });
});

describe("POST /api/locker-room/{postId}/comments/{commentId}/report", () => {
  it("reports a visible comment once; own comment 400; concurrent reports leave one row", async () => {
    const author = await signedIn();
    const commenter = await signedIn();
    const me = await signedIn();
    const p = await post(author.id);
    const c = await comment(p.id, commenter.id);
    const res = await reportComment(me.auth, p.id, c.id, { reason: "hate", note: "slur" });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      postId: null,
      commentId: c.id,
      reason: "hate",
      note: "slur",
      createdAt: expect.stringMatching(ISO),
    });
    expect(await db().report.findMany({ where: { commentId: c.id } })).toMatchObject([{ reporterId: me.id, reason: "HATE", postId: null }]);
    const again = await reportComment(me.auth, p.id, c.id, { reason: "spam" });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("ALREADY_REPORTED");

    const own = await reportComment(commenter.auth, p.id, c.id, { reason: "spam" });
    expect(own.status).toBe(400);
    expect(errorOf(own).code).toBe("CANNOT_REPORT_OWN");

    const other = await signedIn();
    const results = await Promise.all(Array.from({ length: 10 }, () => reportComment(other.auth, p.id, c.id, { reason: "spam" })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await db().report.count({ where: { commentId: c.id } })).toBe(2);
  });

  it("404 when the comment is deleted, hidden, of another post, unknown, on a post the reporter cannot see, or blocked either way", async () => {
    const author = await signedIn();
    const commenter = await signedIn();
    const me = await signedIn();
    const blocked = await signedIn();
    const blocker = await signedIn();
    await db().userBlock.create({ data: { blockerId: me.id, blockedId: blocked.id } });
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: me.id } });
    const p = await post(author.id);
    const elsewhere = await post(author.id);
    const hiddenPost = await post(author.id, { hiddenAt: new Date(), hiddenBy: "user_staff" });
    const cases: [string, string][] = [
      [p.id, (await comment(p.id, commenter.id, { deletedAt: new Date() })).id],
      [p.id, (await comment(p.id, commenter.id, { hiddenAt: new Date(), hiddenBy: "user_staff" })).id],
      [p.id, (await comment(elsewhere.id, commenter.id)).id],
      [p.id, randomUUID()],
      [hiddenPost.id, (await comment(hiddenPost.id, commenter.id)).id],
      [p.id, (await comment(p.id, blocked.id)).id],
      [p.id, (await comment(p.id, blocker.id)).id],
    ];
    for (const [postId, commentId] of cases) {
      const res = await reportComment(me.auth, postId, commentId, { reason: "spam" });
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe("NOT_FOUND");
    }
    expect(await db().report.count({ where: { reporterId: me.id } })).toBe(0);
  });
});
