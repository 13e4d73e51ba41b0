import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, poster } from "../helpers";

// Thread mute (PUT and DELETE /api/locker-room/{postId}/mute): while a fan has muted a post, comments on it, replies
// in it and reactions to it notify them of nothing; their other posts still notify, and unmuting lets new ones through.

type Auth = Record<string, string>;
const newPost = (authorId: string, data: Record<string, unknown> = {}) =>
  db().post.create({ data: { authorId, content: `post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000), ...data } });
const mute = (auth: Auth, postId: string) => api("PUT", `/api/locker-room/${postId}/mute`, { headers: auth });
const unmute = (auth: Auth, postId: string) => api("DELETE", `/api/locker-room/${postId}/mute`, { headers: auth });
const comment = (auth: Auth, postId: string, json: Record<string, unknown>) => api("POST", `/api/locker-room/${postId}/comments`, { headers: auth, json });
const react = (auth: Auth, postId: string, kind: string) => api("PUT", `/api/locker-room/${postId}/reaction`, { headers: auth, json: { kind } });
const notificationsOf = (userId: string, postId: string) =>
  db().notification.findMany({ where: { userId, payload: { path: ["postId"], equals: postId } }, select: { type: true } });

describe("thread mute", () => {
  it("stops the author's REPLY and REACTION notifications about the muted post only, until unmuted; idempotent", async () => {
    const [author, a, b] = await Promise.all([poster(), poster(), poster()]);
    const [muted, other] = await Promise.all([newPost(author.id), newPost(author.id)]);
    for (let i = 0; i < 2; i++) {
      const res = await mute(author.auth, muted.id);
      expect([res.status, res.body.data]).toEqual([200, { postId: muted.id, muted: true }]);
    }
    expect((await comment(a.auth, muted.id, { content: "first" })).status).toBe(201);
    expect((await react(a.auth, muted.id, "fire")).status).toBe(200);
    expect((await comment(a.auth, other.id, { content: "elsewhere" })).status).toBe(201);
    expect(await notificationsOf(author.id, muted.id)).toEqual([]);
    expect(await notificationsOf(author.id, other.id)).toEqual([{ type: "REPLY" }]);

    expect((await unmute(author.auth, muted.id)).body.data).toEqual({ postId: muted.id, muted: false });
    expect((await unmute(author.auth, muted.id)).status).toBe(200);
    expect((await comment(b.auth, muted.id, { content: "after" })).status).toBe(201);
    expect((await react(b.auth, muted.id, "love")).status).toBe(200);
    expect((await notificationsOf(author.id, muted.id)).map((n) => n.type).sort()).toEqual(["REACTION", "REPLY"]);
  });

  it("a commenter who muted the post gets no REPLY to their comment in it", async () => {
    const [author, a, b] = await Promise.all([poster(), poster(), poster()]);
    const post = await newPost(author.id);
    const first = (await comment(a.auth, post.id, { content: "top" })).body.data;
    expect((await mute(a.auth, post.id)).status).toBe(200);
    expect((await comment(b.auth, post.id, { content: "reply", parentId: first.id })).status).toBe(201);
    expect(await notificationsOf(a.id, post.id)).toEqual([]);
  });

  it("404 for a post the caller may not see or that does not exist; 401 without a session; nothing stored", async () => {
    const [author, stranger] = await Promise.all([poster(), poster()]);
    const hidden = await newPost(author.id, { hiddenAt: new Date() });
    for (const postId of [hidden.id, randomUUID()]) {
      const res = await mute(stranger.auth, postId);
      expect([res.status, errorOf(res).code]).toEqual([404, "NOT_FOUND"]);
    }
    expect((await api("PUT", `/api/locker-room/${hidden.id}/mute`)).status).toBe(401);
    expect((await api("PUT", "/api/locker-room/not-a-uuid/mute", { headers: stranger.auth })).status).toBe(400);
    expect(await db().postMute.count({ where: { userId: stranger.id } })).toBe(0);
  });
});
