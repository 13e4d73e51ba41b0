import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, poster } from "../helpers";

// Bookmarks (PUT and DELETE /api/locker-room/{postId}/bookmark, GET /api/v1/me/bookmarks): private, idempotent,
// through the locker room's visibility rule when written and again when listed.

type Auth = Record<string, string>;
const LIST = "/api/v1/me/bookmarks";
const newPost = (authorId: string, data: Record<string, unknown> = {}) =>
  db().post.create({ data: { authorId, content: `post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000), ...data } });
const bookmark = (auth: Auth, postId: string) => api("PUT", `/api/locker-room/${postId}/bookmark`, { headers: auth });
const unbookmark = (auth: Auth, postId: string) => api("DELETE", `/api/locker-room/${postId}/bookmark`, { headers: auth });
const list = (auth: Auth, query = "") => api("GET", `${LIST}${query}`, { headers: auth });
const idsOf = (res: { body: { data: { bookmarks: { id: string }[] } } }) => res.body.data.bookmarks.map((b) => b.id);

describe("bookmarks", () => {
  it("PUT is idempotent, also concurrently (one row, the first time kept); DELETE removes it and is idempotent", async () => {
    const [author, reader] = await Promise.all([poster(), poster()]);
    const p = await newPost(author.id);
    const first = await bookmark(reader.auth, p.id);
    expect([first.status, first.body.data]).toEqual([200, { postId: p.id, bookmarked: true, bookmarkedAt: expect.any(String) }]);
    const again = await Promise.all(Array.from({ length: 8 }, () => bookmark(reader.auth, p.id)));
    expect(again.map((r) => [r.status, r.body.data.bookmarkedAt])).toEqual(again.map(() => [200, first.body.data.bookmarkedAt]));
    expect(await db().bookmark.count({ where: { userId: reader.id } })).toBe(1);

    const q = await newPost(author.id);
    const racing = await Promise.all(Array.from({ length: 8 }, () => bookmark(reader.auth, q.id)));
    expect(new Set(racing.map((r) => `${r.status} ${r.body.data.bookmarkedAt}`)).size).toBe(1);
    expect(await db().bookmark.count({ where: { userId: reader.id, postId: q.id } })).toBe(1);

    // Private: the author's post shows no trace of it.
    const seen = await api("GET", `/api/locker-room/${p.id}`, { headers: author.auth });
    expect(JSON.stringify(seen.body.data)).not.toMatch(/bookmark/i);

    for (let i = 0; i < 2; i++) {
      const res = await unbookmark(reader.auth, p.id);
      expect([res.status, res.body.data]).toEqual([200, { postId: p.id, bookmarked: false, bookmarkedAt: null }]);
    }
    expect(await db().bookmark.count({ where: { userId: reader.id } })).toBe(1);
    expect(idsOf(await list(reader.auth))).toEqual([q.id]);
  });

  it("lists newest bookmark first, keyset pages never repeat or skip (equal times by post id), each item the feed's post plus bookmarkedAt", async () => {
    const [author, reader] = await Promise.all([poster(), poster()]);
    const posts = await Promise.all(Array.from({ length: 5 }, () => newPost(author.id)));
    for (const p of posts) expect((await bookmark(reader.auth, p.id)).status).toBe(200);
    const base = Date.now() - 60_000;
    // Times: posts 0 and 1 share a time; 4 is the newest.
    const times = [base + 1000, base + 1000, base, base + 2000, base + 3000];
    await Promise.all(
      posts.map((p, i) => db().bookmark.update({ where: { userId_postId: { userId: reader.id, postId: p.id } }, data: { createdAt: new Date(times[i]) } })),
    );
    const tied = [posts[0].id, posts[1].id].sort().reverse();
    const expected = [posts[4].id, posts[3].id, ...tied, posts[2].id];

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await list(reader.auth, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...idsOf(res));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);

    const [top] = (await list(reader.auth, "?limit=1")).body.data.bookmarks;
    const feedPost = (await api("GET", `/api/locker-room/${posts[4].id}`, { headers: reader.auth })).body.data;
    expect(top).toEqual({ ...feedPost, bookmarkedAt: new Date(times[4]).toISOString() });
    // Nobody else sees them.
    const other = await poster();
    expect(idsOf(await list(other.auth))).toEqual([]);
  });

  it("a post hidden by moderation, deleted, of an author who blocks the caller or whom the caller blocks, or private and no longer followed drops out", async () => {
    const [author, blocker, blocked, reader] = await Promise.all([poster(), poster(), poster(), poster()]);
    expect((await api("POST", "/api/teams/tm_smp/follow", { headers: reader.auth })).status).toBeLessThan(300);
    const [kept, hidden, deleted, byBlocker, byBlocked, priv] = await Promise.all([
      newPost(author.id),
      newPost(author.id),
      newPost(author.id),
      newPost(blocker.id),
      newPost(blocked.id),
      newPost(author.id, { teamId: "tm_smp", visibility: "PRIVATE" }),
    ]);
    for (const p of [kept, hidden, deleted, byBlocker, byBlocked, priv]) expect((await bookmark(reader.auth, p.id)).status).toBe(200);
    expect((await list(reader.auth, "?limit=50")).body.data.bookmarks).toHaveLength(6);

    await db().post.update({ where: { id: hidden.id }, data: { hiddenAt: new Date(), hiddenBy: "user_staff" } });
    expect((await api("DELETE", `/api/locker-room/${deleted.id}`, { headers: author.auth })).status).toBe(200);
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: reader.id } });
    await db().userBlock.create({ data: { blockerId: reader.id, blockedId: blocked.id } });
    expect((await api("DELETE", "/api/teams/tm_smp/follow", { headers: reader.auth })).status).toBeLessThan(300);

    expect(idsOf(await list(reader.auth, "?limit=50"))).toEqual([kept.id]);
    // The rows stay: restoring the post brings it back.
    await db().post.update({ where: { id: hidden.id }, data: { hiddenAt: null, hiddenBy: null } });
    expect(new Set(idsOf(await list(reader.auth, "?limit=50")))).toEqual(new Set([kept.id, hidden.id]));
  });

  it("404 for a post the caller may not see or that does not exist; nothing stored", async () => {
    const [author, blocker, reader] = await Promise.all([poster(), poster(), poster()]);
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: reader.id } });
    const invisible = await Promise.all([
      newPost(author.id, { hiddenAt: new Date(), hiddenBy: "user_staff" }),
      newPost(author.id, { deletedAt: new Date() }),
      newPost(author.id, { teamId: "tm_smp", visibility: "PRIVATE" }),
      newPost(author.id, { publishAt: new Date(Date.now() + 3_600_000), scheduled: true }),
      newPost(blocker.id),
    ]);
    for (const postId of [...invisible.map((p) => p.id), randomUUID()]) {
      const res = await bookmark(reader.auth, postId);
      expect([postId, res.status, errorOf(res).code]).toEqual([postId, 404, "NOT_FOUND"]);
    }
    expect(await db().bookmark.count({ where: { userId: reader.id } })).toBe(0);
  });

  it("401 without a token; 400 for a bad postId or cursor", async () => {
    const reader = await poster();
    const p = await newPost(reader.id);
    expect((await api("PUT", `/api/locker-room/${p.id}/bookmark`)).status).toBe(401);
    expect((await api("DELETE", `/api/locker-room/${p.id}/bookmark`)).status).toBe(401);
    expect((await api("GET", LIST)).status).toBe(401);
    for (const method of ["PUT", "DELETE"] as const) {
      const res = await api(method, "/api/locker-room/not-a-uuid/bookmark", { headers: reader.auth });
      expect([res.status, errorOf(res).code]).toEqual([400, "VALIDATION_ERROR"]);
    }
    for (const query of ["?cursor=nope!", "?limit=0", "?limit=51"]) expect((await list(reader.auth, query)).status).toBe(400);
    expect(await db().bookmark.count({ where: { userId: reader.id } })).toBe(0);
  });
});
