import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, poster } from "../helpers";

// Reactions, poll votes and comments on locker-room posts (black box), and the notifications they send. Posts are
// inserted directly; every test makes its own users and posts. No team is followed or joined here.

type Auth = Record<string, string>;
const fan = poster;
const newPost = (authorId: string, data: Record<string, unknown> = {}) =>
  db().post.create({ data: { authorId, content: `post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000), ...data } });
const block = (auth: Auth, blockedUserId: string) =>
  api("POST", "/api/user/blocks", { headers: auth, json: { blockedUserId } }).then((r) => expect(r.status).toBeLessThan(300));
const fans = (n: number) => Promise.all(Array.from({ length: n }, () => fan()));

describe("reactions", () => {
  const react = (auth: Auth, postId: string, kind: string) => api("PUT", `/api/locker-room/${postId}/reaction`, { headers: auth, json: { kind } });

  it("one per user and post: same kind is a no-op, another kind replaces it, delete is idempotent", async () => {
    const author = await fan();
    const a = await fan();
    const p = await newPost(author.id);
    expect((await react(a.auth, p.id, "fire")).body.data).toEqual({ reactions: { fire: 1 }, reaction: "fire" });
    expect((await react(a.auth, p.id, "fire")).body.data).toEqual({ reactions: { fire: 1 }, reaction: "fire" });
    expect((await react(a.auth, p.id, "love")).body.data).toEqual({ reactions: { love: 1 }, reaction: "love" });
    expect((await api("GET", `/api/locker-room/${p.id}`, { headers: a.auth })).body.data).toMatchObject({
      counts: { reactions: { love: 1 } },
      viewer: { reaction: "love" },
    });
    expect((await api("DELETE", `/api/locker-room/${p.id}/reaction`, { headers: a.auth })).body.data).toEqual({ reactions: {}, reaction: null });
    expect((await api("DELETE", `/api/locker-room/${p.id}/reaction`, { headers: a.auth })).body.data).toEqual({ reactions: {}, reaction: null });
    expect((await react(a.auth, p.id, "meh")).status).toBe(400);
    expect((await react(a.auth, randomUUID(), "fire")).status).toBe(404);
  });

  it("counts stay exact under 100 concurrent reactions by different fans", async () => {
    const author = await fan();
    const p = await newPost(author.id);
    const many = await fans(100);
    const kinds = ["like", "fire", "wow"];
    const results = await Promise.all(many.map((f, i) => react(f.auth, p.id, kinds[i % 3]!)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const row = await db().post.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.reactionCounts).toEqual({ like: 34, fire: 33, wow: 33 });
    expect(await db().postReaction.count({ where: { postId: p.id } })).toBe(100);
  });

  it("one fan's twenty concurrent changes end as one reaction, counted once", async () => {
    const author = await fan();
    const a = await fan();
    const p = await newPost(author.id);
    const kinds = ["like", "love", "fire", "laugh", "wow", "sad"];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 5 === 4 ? api("DELETE", `/api/locker-room/${p.id}/reaction`, { headers: a.auth }) : react(a.auth, p.id, kinds[i % 6]!),
      ),
    );
    const rows = await db().postReaction.findMany({ where: { postId: p.id } });
    const counts = (await db().post.findUniqueOrThrow({ where: { id: p.id } })).reactionCounts;
    expect(counts).toEqual(rows.length ? { [rows[0]!.kind]: 1 } : {});
  });

  it("blocks either way hide the post: reacting is 404; the list leaves blocked users out", async () => {
    const author = await fan();
    const blocker = await fan();
    const blocked = await fan();
    const viewer = await fan();
    const p = await newPost(author.id);
    const other = await fan();
    await react(other.auth, p.id, "like");
    await block(blocker.auth, author.id);
    await block(author.auth, blocked.id);
    expect((await react(blocker.auth, p.id, "like")).status).toBe(404);
    expect((await react(blocked.auth, p.id, "like")).status).toBe(404);
    await react(viewer.auth, p.id, "sad");
    await block(viewer.auth, other.id);
    const list = await api("GET", `/api/locker-room/${p.id}/reactions`, { headers: viewer.auth });
    expect(list.body.data.reactions.map((r: { user: { id: string } }) => r.user.id)).toEqual([viewer.id]);
    expect((await api("GET", `/api/locker-room/${p.id}/reactions?kind=like`)).body.data.reactions.map((r: { kind: string }) => r.kind)).toEqual(["like"]);
  });

  it("notifies the author once per fan, grouped per post, only with notifyCommunity on", async () => {
    const author = await fan();
    const quiet = await fan();
    await db().user.update({ where: { id: quiet.id }, data: { notifyCommunity: false } });
    const [a, b] = await fans(2);
    const p = await newPost(author.id);
    const q = await newPost(quiet.id);
    await react(a!.auth, p.id, "like");
    await react(a!.auth, p.id, "fire");
    await api("DELETE", `/api/locker-room/${p.id}/reaction`, { headers: a!.auth });
    await react(a!.auth, p.id, "wow");
    await react(b!.auth, p.id, "like");
    await react(author.auth, p.id, "like");
    await react(a!.auth, q.id, "like");
    expect(await db().notification.count({ where: { userId: author.id, type: "REACTION" } })).toBe(2);
    expect(await db().notification.count({ where: { userId: quiet.id } })).toBe(0);
    const grouped = await api("GET", "/api/notifications/grouped", { headers: author.auth });
    expect(grouped.body.data.groups).toEqual([expect.objectContaining({ groupKey: `REACTION:${p.id}`, type: "REACTION", notificationsCount: 2 })]);
  });
});

describe("poll votes", () => {
  const vote = (auth: Auth, postId: string, choices: number[]) => api("POST", `/api/locker-room/${postId}/poll/votes`, { headers: auth, json: { choices } });
  async function pollPost(authorId: string, { multiple = false, closesAt = new Date(Date.now() + 3_600_000) } = {}) {
    const p = await newPost(authorId);
    await db().postPoll.create({ data: { postId: p.id, options: ["Red", "Blue", "Green"], multiple, closesAt, voteCounts: [0, 0, 0] } });
    return p;
  }

  it("results show after voting; a vote is final; bad choices are 400", async () => {
    const author = await fan();
    const a = await fan();
    const p = await pollPost(author.id);
    expect((await api("GET", `/api/locker-room/${p.id}/poll`, { headers: a.auth })).body.data).toMatchObject({
      votersCount: null,
      ownVotes: null,
      options: [{ title: "Red", votesCount: null }, {}, {}],
    });
    expect((await api("GET", `/api/locker-room/${p.id}/poll`, { headers: author.auth })).body.data.votersCount).toBe(0);
    for (const choices of [[], [0, 1], [3], [-1]]) expect((await vote(a.auth, p.id, choices)).status, JSON.stringify(choices)).toBe(400);
    const voted = await vote(a.auth, p.id, [1]);
    expect(voted.status).toBe(201);
    expect(voted.body.data).toMatchObject({ votersCount: 1, ownVotes: [1], options: [{ votesCount: 0 }, { votesCount: 1 }, { votesCount: 0 }] });
    const again = await vote(a.auth, p.id, [0]);
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("ALREADY_VOTED");
    expect((await api("GET", `/api/locker-room/${p.id}`, { headers: a.auth })).body.data.poll).toMatchObject({ ownVotes: [1], votersCount: 1 });
    const noPoll = await newPost(author.id);
    expect((await api("GET", `/api/locker-room/${noPoll.id}/poll`)).status).toBe(404);
  });

  it("multiple choice takes distinct options; a closed poll refuses votes and shows results", async () => {
    const author = await fan();
    const a = await fan();
    const multi = await pollPost(author.id, { multiple: true });
    expect((await vote(a.auth, multi.id, [0, 0])).status).toBe(400);
    expect((await vote(a.auth, multi.id, [0, 2])).body.data.options.map((o: { votesCount: number }) => o.votesCount)).toEqual([1, 0, 1]);
    const closed = await pollPost(author.id, { closesAt: new Date(Date.now() - 1000) });
    const refused = await vote(a.auth, closed.id, [0]);
    expect(refused.status).toBe(409);
    expect(errorOf(refused).code).toBe("POLL_CLOSED");
    expect((await api("GET", `/api/locker-room/${closed.id}/poll`)).body.data).toMatchObject({ closed: true, votersCount: 0 });
  });

  it("50 fans voting at once are all counted; one fan's ten concurrent votes count once", async () => {
    const author = await fan();
    const p = await pollPost(author.id);
    const many = await fans(50);
    const results = await Promise.all(many.map((f, i) => vote(f.auth, p.id, [i % 3])));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const poll = await db().postPoll.findUniqueOrThrow({ where: { postId: p.id } });
    expect(poll.votersCount).toBe(50);
    expect(poll.voteCounts).toEqual([17, 17, 16]);

    const solo = await fan();
    const q = await pollPost(author.id);
    const tries = await Promise.all(Array.from({ length: 10 }, (_, i) => vote(solo.auth, q.id, [i % 3])));
    expect(tries.filter((r) => r.status === 201)).toHaveLength(1);
    expect(tries.filter((r) => r.status === 409)).toHaveLength(9);
    const after = await db().postPoll.findUniqueOrThrow({ where: { postId: q.id } });
    expect(after.votersCount).toBe(1);
    expect(after.voteCounts.reduce((x, y) => x + y, 0)).toBe(1);
  });
});

describe("comments", () => {
  const comment = (auth: Auth, postId: string, json: unknown) => api("POST", `/api/locker-room/${postId}/comments`, { headers: auth, json });
  const list = (postId: string, auth: Auth = {}, extra = "") => api("GET", `/api/locker-room/${postId}/comments${extra}`, { headers: auth });

  it("comments and one level of replies, oldest first, with counts on the post and the parent", async () => {
    const author = await fan();
    const a = await fan();
    const p = await newPost(author.id);
    const c1 = await comment(a.auth, p.id, { content: "  First!  " });
    expect(c1.status).toBe(201);
    expect(c1.body.data).toMatchObject({ content: "First!", parentId: null, author: { id: a.id }, replyCount: 0, removed: false, viewer: { canDelete: true } });
    const c2 = (await comment(author.auth, p.id, { content: "Second" })).body.data;
    const r1 = await comment(author.auth, p.id, { content: "A reply", parentId: c1.body.data.id });
    expect(r1.status).toBe(201);
    const nested = await comment(a.auth, p.id, { content: "deeper", parentId: r1.body.data.id });
    expect(nested.status).toBe(400);
    expect(errorOf(nested).details![0]!.path).toBe("body.parentId");
    expect((await comment(a.auth, p.id, { content: "" })).status).toBe(400);
    expect((await comment(a.auth, p.id, { content: "x".repeat(1001) })).status).toBe(400);

    const page = await list(p.id, {}, "?limit=1");
    expect(page.body.data.comments.map((c: { id: string }) => c.id)).toEqual([c1.body.data.id]);
    const next = await list(p.id, {}, `?limit=1&cursor=${page.body.data.nextCursor}`);
    expect(next.body.data.comments.map((c: { id: string }) => c.id)).toEqual([c2.id]);
    expect(page.body.data.comments[0].replyCount).toBe(1);
    const replies = await api("GET", `/api/locker-room/${p.id}/comments/${c1.body.data.id}/replies`);
    expect(replies.body.data.comments.map((c: { content: string }) => c.content)).toEqual(["A reply"]);
    expect((await api("GET", `/api/locker-room/${p.id}`)).body.data.counts.comments).toBe(3);
  });

  it("delete: own only (403 otherwise), idempotent, counters move once; a removed parent with replies stays as a placeholder", async () => {
    const author = await fan();
    const a = await fan();
    const b = await fan();
    const p = await newPost(author.id);
    const parent = (await comment(a.auth, p.id, { content: "parent" })).body.data;
    await comment(b.auth, p.id, { content: "reply", parentId: parent.id });
    expect((await api("DELETE", `/api/locker-room/${p.id}/comments/${parent.id}`, { headers: b.auth })).status).toBe(403);
    for (let i = 0; i < 2; i++) {
      const del = await api("DELETE", `/api/locker-room/${p.id}/comments/${parent.id}`, { headers: a.auth });
      expect(del.body.data).toEqual({ id: parent.id, deleted: true });
    }
    expect((await db().post.findUniqueOrThrow({ where: { id: p.id } })).commentCount).toBe(1);
    const shown = (await list(p.id)).body.data.comments;
    expect(shown).toEqual([expect.objectContaining({ id: parent.id, removed: true, content: null, author: null, replyCount: 1 })]);
    // Replying to a removed comment: 404.
    expect((await comment(b.auth, p.id, { content: "late", parentId: parent.id })).status).toBe(404);
  });

  it("terms, suspension and blocks apply; blocked users' comments are never listed", async () => {
    const author = await fan();
    const noTerms = await fan({ terms: false });
    const p = await newPost(author.id);
    expect(errorOf(await comment(noTerms.auth, p.id, { content: "hi" })).code).toBe("UGC_TERMS_REQUIRED");
    const suspended = await fan();
    await db().postingSuspension.create({ data: { userId: suspended.id, until: new Date(Date.now() + 3_600_000), reason: "x", staffId: "user_staff" } });
    expect(errorOf(await comment(suspended.auth, p.id, { content: "hi" })).code).toBe("POSTING_SUSPENDED");

    const blocked = await fan();
    await block(author.auth, blocked.id);
    expect((await comment(blocked.auth, p.id, { content: "let me" })).status).toBe(404);
    const viewer = await fan();
    const chatty = await fan();
    await comment(chatty.auth, p.id, { content: "noise" });
    await comment(viewer.auth, p.id, { content: "mine" });
    await block(chatty.auth, viewer.id);
    expect((await list(p.id, viewer.auth)).body.data.comments.map((c: { content: string }) => c.content)).toEqual(["mine"]);
    expect((await list(p.id)).body.data.comments).toHaveLength(2);
  });

  it("notifies the post's author of a comment and a comment's author of a reply (not oneself; notifyCommunity)", async () => {
    const author = await fan();
    const a = await fan();
    const p = await newPost(author.id);
    const c = (await comment(a.auth, p.id, { content: "Nice" })).body.data;
    await comment(author.auth, p.id, { content: "Thanks", parentId: c.id });
    await comment(author.auth, p.id, { content: "self" });
    const toAuthor = await db().notification.findMany({ where: { userId: author.id, type: "REPLY" } });
    expect(toAuthor.map((n) => (n.payload as { commentId: string }).commentId)).toEqual([c.id]);
    const toA = await api("GET", "/api/notifications", { headers: a.auth });
    expect(toA.body.data.notifications).toEqual([
      expect.objectContaining({
        type: "REPLY",
        payload: expect.objectContaining({ postId: p.id, parentId: c.id, actor: expect.objectContaining({ id: author.id }) }),
      }),
    ]);
    await db().user.update({ where: { id: author.id }, data: { notifyCommunity: false } });
    await comment(a.auth, p.id, { content: "again" });
    expect(await db().notification.count({ where: { userId: author.id, type: "REPLY" } })).toBe(1);
  });
});
