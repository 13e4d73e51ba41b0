import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const freshHandle = (prefix = "Blk") => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

async function signedIn(profile: { handle?: string; displayName?: string; avatarUrl?: string } = {}) {
  const u = newUser();
  const res = await api("GET", "/api/user", { headers: u.auth });
  expect(res.status).toBe(200);
  const id = await userIdOf(u.sub);
  if (Object.keys(profile).length) {
    await db().user.update({
      where: { id },
      data: { ...profile, ...(profile.handle ? { handleKey: profile.handle.toLowerCase() } : {}) },
    });
  }
  return { ...u, id };
}

const block = (auth: Record<string, string>, json: unknown) => api("POST", "/api/user/blocks", { headers: auth, json });
const list = (auth: Record<string, string>, qs = "") => api("GET", `/api/user/blocks${qs}`, { headers: auth });

describe("POST /api/user/blocks", () => {
  it("blocks by id and answers the blocked user", async () => {
    const me = await signedIn();
    const handle = freshHandle();
    const them = await signedIn({ handle, displayName: "Loud Fan", avatarUrl: "https://cdn.example.com/l.png" });
    const res = await block(me.auth, { blockedUserId: them.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        blocked: true,
        user: { id: them.id, handle, displayName: "Loud Fan", avatarUrl: "https://cdn.example.com/l.png", blockedAt: expect.stringMatching(ISO) },
      },
    });
    const rows = await db().userBlock.findMany({ where: { blockerId: me.id } });
    expect(rows.map((r) => r.blockedId)).toEqual([them.id]);
    expect(rows[0]!.createdAt.toISOString()).toBe(res.body.data.user.blockedAt);
    // Blocking is one-way.
    expect(await db().userBlock.count({ where: { blockerId: them.id } })).toBe(0);
  });

  it("blocks by handle, case-insensitively and with a leading @", async () => {
    const me = await signedIn();
    const handle = freshHandle();
    const them = await signedIn({ handle });
    const res = await block(me.auth, { handle: `@${handle.toUpperCase()}` });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ id: them.id, handle });
    expect(await db().userBlock.count({ where: { blockerId: me.id, blockedId: them.id } })).toBe(1);
  });

  it("both id and handle naming the same user is fine; naming different users is 400", async () => {
    const me = await signedIn();
    const h1 = freshHandle();
    const one = await signedIn({ handle: h1 });
    const two = await signedIn({ handle: freshHandle() });
    const same = await block(me.auth, { blockedUserId: one.id, handle: h1 });
    expect(same.status).toBe(200);
    expect(same.body.data.user.id).toBe(one.id);
    const different = await block(me.auth, { blockedUserId: two.id, handle: h1 });
    expect(different.status).toBe(400);
    expect(errorOf(different).code).toBe("VALIDATION_ERROR");
    expect(errorOf(different).details?.map((d) => d.path)).toEqual(["body.handle"]);
    expect(await db().userBlock.count({ where: { blockerId: me.id, blockedId: two.id } })).toBe(0);
  });

  it("blocking twice answers the same 200 with the original blockedAt and keeps one row", async () => {
    const me = await signedIn();
    const them = await signedIn();
    const first = await block(me.auth, { blockedUserId: them.id });
    await new Promise((r) => setTimeout(r, 15));
    const second = await block(me.auth, { blockedUserId: them.id });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await db().userBlock.count({ where: { blockerId: me.id } })).toBe(1);
  });

  it("ten concurrent blocks of the same user store one row and all answer 200 alike", async () => {
    const me = await signedIn();
    const handle = freshHandle();
    const them = await signedIn({ handle });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => block(me.auth, i % 2 ? { blockedUserId: them.id } : { handle })));
    for (const r of results) expect(r.status).toBe(200);
    expect(new Set(results.map((r) => r.body.data.user.blockedAt)).size).toBe(1);
    expect(await db().userBlock.count({ where: { blockerId: me.id, blockedId: them.id } })).toBe(1);
  });

  it("an unknown user is 404 NOT_FOUND, by id or by handle", async () => {
    const me = await signedIn();
    const byId = await block(me.auth, { blockedUserId: randomUUID() });
    expect(byId.status).toBe(404);
    expect(errorOf(byId)).toMatchObject({ code: "NOT_FOUND", details: [{ path: "body.blockedUserId", message: expect.any(String) }] });
    const byHandle = await block(me.auth, { handle: freshHandle("ghost") });
    expect(byHandle.status).toBe(404);
    expect(errorOf(byHandle)).toMatchObject({ code: "NOT_FOUND", details: [{ path: "body.handle", message: expect.any(String) }] });
    expect(await db().userBlock.count({ where: { blockerId: me.id } })).toBe(0);
  });

  it("blocking yourself is 400 CANNOT_BLOCK_SELF, by id or by handle", async () => {
    const handle = freshHandle("self");
    const me = await signedIn({ handle });
    const byId = await block(me.auth, { blockedUserId: me.id });
    expect(byId.status).toBe(400);
    expect(errorOf(byId)).toEqual({
      code: "CANNOT_BLOCK_SELF",
      message: expect.any(String),
      details: [{ path: "body.blockedUserId", message: expect.any(String) }],
    });
    const byHandle = await block(me.auth, { handle });
    expect(byHandle.status).toBe(400);
    expect(errorOf(byHandle).code).toBe("CANNOT_BLOCK_SELF");
    expect(await db().userBlock.count({ where: { blockerId: me.id } })).toBe(0);
  });

  it.each([
    ["empty blockedUserId", { blockedUserId: "" }, "body.blockedUserId"],
    ["empty handle", { handle: "" }, "body.handle"],
    ["non-UUID blockedUserId", { blockedUserId: "user_123" }, "body.blockedUserId"],
    ["malformed handle", { handle: "no spaces allowed" }, "body.handle"],
    ["numeric id", { blockedUserId: 7 }, "body.blockedUserId"],
    ["neither", {}, "body"],
    ["unknown field", { blockedUserId: randomUUID(), reason: "spam" }, "body.reason"],
  ])("%s is 400 naming %s", async (_label, json, path) => {
    const me = await signedIn();
    const res = await block(me.auth, json);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(new Set(errorOf(res).details?.map((d) => d.path))).toEqual(new Set([path]));
  });

  it("without a token is 401", async () => {
    const res = await block({}, { blockedUserId: randomUUID() });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });
});

describe("GET /api/user/blocks", () => {
  it("lists the caller's blocks newest first, keyset-paginated", async () => {
    const me = await signedIn();
    const others = await Promise.all(Array.from({ length: 5 }, (_, i) => signedIn({ handle: freshHandle(`L${i}`), displayName: `User ${i}` })));
    const base = Date.parse("2026-03-01T12:00:00.000Z");
    // Two share a timestamp: the id breaks the tie.
    const stamps = [0, 1000, 2000, 2000, 3000];
    await db().userBlock.createMany({ data: others.map((o, i) => ({ blockerId: me.id, blockedId: o.id, createdAt: new Date(base + stamps[i]!) })) });
    // Someone else's block does not show up.
    const stranger = await signedIn();
    await db().userBlock.create({ data: { blockerId: stranger.id, blockedId: others[0]!.id } });

    const expected = others
      .map((o, i) => ({ id: o.id, at: base + stamps[i]! }))
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((x) => x.id);

    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    for (let page = 0; page < 5; page++) {
      const res = await list(me.auth, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      sizes.push(res.body.data.blocks.length);
      for (const b of res.body.data.blocks) seen.push(b.id);
      cursor = res.body.data.nextCursor;
      if (!cursor) break;
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(expected);

    const all = await list(me.auth);
    expect(all.body.data.nextCursor).toBeUndefined();
    const first = all.body.data.blocks[0];
    const top = others[4]!;
    expect(first).toEqual({ id: top.id, handle: expect.any(String), displayName: "User 4", avatarUrl: null, blockedAt: new Date(base + 3000).toISOString() });
  });

  it("an empty list has no nextCursor", async () => {
    const me = await signedIn();
    const res = await list(me.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { blocks: [] } });
  });

  it.each([["?limit=0"], ["?limit=101"], ["?limit=abc"], ["?cursor=not-a-cursor!"], ["?cursor=eyJhIjoxfQ"], ["?sort=name"]])("%s is 400", async (qs) => {
    const me = await signedIn();
    const res = await list(me.auth, qs);
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
  });

  it("without a token is 401", async () => {
    const res = await api("GET", "/api/user/blocks");
    expect(res.status).toBe(401);
  });
});

describe("DELETE /api/user/blocks/{userId}", () => {
  it("unblocks, idempotently, leaving other blocks alone", async () => {
    const me = await signedIn();
    const a = await signedIn();
    const b = await signedIn();
    await block(me.auth, { blockedUserId: a.id });
    await block(me.auth, { blockedUserId: b.id });
    const res = await api("DELETE", `/api/user/blocks/${a.id}`, { headers: me.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { blocked: false, userId: a.id } });
    const again = await api("DELETE", `/api/user/blocks/${a.id.toUpperCase()}`, { headers: me.auth });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const rows = await db().userBlock.findMany({ where: { blockerId: me.id } });
    expect(rows.map((r) => r.blockedId)).toEqual([b.id]);
    const listed = await list(me.auth);
    expect(listed.body.data.blocks.map((x: { id: string }) => x.id)).toEqual([b.id]);
    // A block can be made again after unblocking.
    expect((await block(me.auth, { blockedUserId: a.id })).status).toBe(200);
  });

  it("an id never blocked (or unknown) answers the same { blocked: false }", async () => {
    const me = await signedIn();
    const id = randomUUID();
    const res = await api("DELETE", `/api/user/blocks/${id}`, { headers: me.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { blocked: false, userId: id } });
  });

  it("a non-UUID id is 400 at params.userId", async () => {
    const me = await signedIn();
    const res = await api("DELETE", "/api/user/blocks/someone", { headers: me.auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).details?.map((d) => d.path)).toEqual(["params.userId"]);
  });

  it("without a token is 401; other methods are 405", async () => {
    const res = await api("DELETE", `/api/user/blocks/${randomUUID()}`);
    expect(res.status).toBe(401);
    const get = await api("GET", `/api/user/blocks/${randomUUID()}`);
    expect(get.status).toBe(405);
  });
});
