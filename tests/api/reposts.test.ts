import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, poster } from "../helpers";

// Pins, reply controls, reposts and quotes (black box): the caps and one-time rules under concurrency, and the
// visibility rule applied to the original post wherever a repost, a quote or a pin shows it. Posts are inserted
// directly unless the create path is under test; every test makes its own users. The seeded team tm_smp is followed
// and staffed only by this file's own users.

type Auth = Record<string, string>;
const TEAM = "tm_smp";
const newPost = (authorId: string, data: Record<string, unknown> = {}) =>
  db().post.create({ data: { authorId, content: `post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000), ...data } });
const block = (auth: Auth, blockedUserId: string) =>
  api("POST", "/api/user/blocks", { headers: auth, json: { blockedUserId } }).then((r) => expect(r.status).toBeLessThan(300));
const hide = (postId: string) => db().post.update({ where: { id: postId }, data: { hiddenAt: new Date(), hiddenBy: "user_staff" } });
const unhide = (postId: string) => db().post.update({ where: { id: postId }, data: { hiddenAt: null, hiddenBy: null } });
const getPost = (auth: Auth | undefined, postId: string) => api("GET", `/api/locker-room/${postId}`, { headers: auth ?? {} });

describe("pins", () => {
  const pin = (auth: Auth, postId: string) => api("PUT", `/api/locker-room/${postId}/pin`, { headers: auth });
  const unpin = (auth: Auth, postId: string) => api("DELETE", `/api/locker-room/${postId}/pin`, { headers: auth });
  const pinsOf = (path: string, auth: Auth = {}) => api("GET", path, { headers: auth });
  const ids = (res: { body: { data: { pins: { id: string }[] } } }) => res.body.data.pins.map((p) => p.id);

  it("a fan pins up to 3 of their own posts: 6 concurrent pins make exactly 3; idempotent; unpin frees a place", async () => {
    const me = await poster();
    const posts = await Promise.all(Array.from({ length: 6 }, () => newPost(me.id)));
    const results = await Promise.all(posts.map((p) => pin(me.auth, p.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status === 409);
    expect(refused.map((r) => errorOf(r).code)).toEqual(["PIN_LIMIT_REACHED", "PIN_LIMIT_REACHED", "PIN_LIMIT_REACHED"]);
    expect(await db().postPin.count({ where: { userId: me.id } })).toBe(3);

    const pinned = posts.filter((_, i) => results[i]!.status === 200);
    const again = await Promise.all(pinned.map((p) => pin(me.auth, p.id)));
    expect(again.map((r) => [r.status, r.body.data.pinnedAt])).toEqual(
      pinned.map((_, i) => [200, results.filter((r) => r.status === 200)[i]!.body.data.pinnedAt]),
    );

    const listed = await pinsOf(`/api/v1/users/${me.id}/pins`);
    expect(listed.status).toBe(200);
    expect(new Set(ids(listed))).toEqual(new Set(pinned.map((p) => p.id)));
    expect(listed.body.data.pins[0]).toMatchObject({ pinnedAt: expect.any(String), author: { id: me.id } });

    for (let i = 0; i < 2; i++) expect((await unpin(me.auth, pinned[0]!.id)).body.data).toEqual({ postId: pinned[0]!.id, pinned: false, pinnedAt: null });
    const unpinned = posts.find((_, i) => results[i]!.status === 409)!;
    expect((await pin(me.auth, unpinned.id)).status).toBe(200);
    expect(await db().postPin.count({ where: { userId: me.id } })).toBe(3);
  });

  it("only the author pins a fan's post; a team's post only by its staff, on the team's profile; scheduled posts wait", async () => {
    const [author, other, staff, fanOfTeam] = await Promise.all([poster(), poster(), poster(), poster()]);
    await db().teamStaff.create({ data: { userId: staff.id, teamId: TEAM } });
    const mine = await newPost(author.id);
    const res = await pin(other.auth, mine.id);
    expect([res.status, errorOf(res).code]).toEqual([403, "FORBIDDEN"]);
    expect((await unpin(other.auth, mine.id)).status).toBe(403);

    const teamPost = await newPost(staff.id, { authorTeamId: TEAM });
    const byFan = await pin(fanOfTeam.auth, teamPost.id);
    expect([byFan.status, errorOf(byFan).code]).toEqual([403, "FORBIDDEN"]);
    expect((await pin(staff.auth, teamPost.id)).status).toBe(200);
    expect(ids(await pinsOf(`/api/teams/${TEAM}/pins`))).toContain(teamPost.id);
    expect(ids(await pinsOf(`/api/v1/users/${staff.id}/pins`))).toEqual([]);
    expect(await db().postPin.findUnique({ where: { postId: teamPost.id } })).toMatchObject({ teamId: TEAM, userId: null });
    expect((await unpin(staff.auth, teamPost.id)).status).toBe(200);

    const later = await newPost(author.id, { publishAt: new Date(Date.now() + 3_600_000), scheduled: true });
    const early = await pin(author.auth, later.id);
    expect([early.status, errorOf(early).code]).toEqual([409, "POST_NOT_PUBLISHED"]);
    expect((await pinsOf("/api/teams/no-such-team/pins")).status).toBe(404);
  });

  it("a pinned post that is hidden, deleted, private or blocked drops out of the profile for that reader", async () => {
    const [author, reader, blocked] = await Promise.all([poster(), poster(), poster()]);
    const [kept, hidden, deleted] = await Promise.all([newPost(author.id), newPost(author.id), newPost(author.id)]);
    for (const p of [kept, hidden, deleted]) expect((await pin(author.auth, p.id)).status).toBe(200);
    await hide(hidden.id);
    expect((await api("DELETE", `/api/locker-room/${deleted.id}`, { headers: author.auth })).status).toBe(200);
    expect(ids(await pinsOf(`/api/v1/users/${author.id}/pins`, reader.auth))).toEqual([kept.id]);
    // A deleted post's pin no longer counts, a hidden one's neither: two more fit.
    const [a, b] = await Promise.all([newPost(author.id), newPost(author.id)]);
    expect((await pin(author.auth, a.id)).status).toBe(200);
    expect((await pin(author.auth, b.id)).status).toBe(200);
    expect(await db().postPin.count({ where: { postId: deleted.id } })).toBe(0);

    await block(author.auth, blocked.id);
    expect((await pinsOf(`/api/v1/users/${author.id}/pins`, blocked.auth)).status).toBe(404);
    const priv = await newPost(author.id, { teamId: TEAM, visibility: "PRIVATE" });
    await api("DELETE", `/api/locker-room/${a.id}/pin`, { headers: author.auth });
    expect((await pin(author.auth, priv.id)).status).toBe(200);
    expect(ids(await pinsOf(`/api/v1/users/${author.id}/pins`, reader.auth))).not.toContain(priv.id);
    expect(ids(await pinsOf(`/api/v1/users/${author.id}/pins`, author.auth))).toContain(priv.id);
  });
});

describe("reply controls", () => {
  const setPolicy = (auth: Auth, postId: string, comments: string) =>
    api("PUT", `/api/locker-room/${postId}/interaction-policy`, { headers: auth, json: { comments } });
  const comment = (auth: Auth, postId: string, body: Record<string, unknown> = {}) =>
    api("POST", `/api/locker-room/${postId}/comments`, { headers: auth, json: { content: `hi ${randomUUID()}`, ...body } });

  it("each policy is enforced when a comment is created; the author always may; viewer.canComment tells in advance", async () => {
    const [author, follower, teamFan, stranger] = await Promise.all([poster(), poster(), poster(), poster()]);
    expect((await api("POST", `/api/v1/users/${author.id}/follow`, { headers: follower.auth })).status).toBeLessThan(300);
    expect((await api("POST", `/api/teams/${TEAM}/follow`, { headers: teamFan.auth })).status).toBeLessThan(300);
    const p = await newPost(author.id, { teamId: TEAM });
    expect((await getPost(stranger.auth, p.id)).body.data).toMatchObject({ interactionPolicy: { comments: "everyone" }, viewer: { canComment: true } });

    const cases: [string, Record<string, boolean>][] = [
      ["followers", { follower: true, teamFan: false, stranger: false }],
      ["team_fans", { follower: false, teamFan: true, stranger: false }],
      ["nobody", { follower: false, teamFan: false, stranger: false }],
      ["everyone", { follower: true, teamFan: true, stranger: true }],
    ];
    const who = { follower, teamFan, stranger };
    for (const [policy, allowed] of cases) {
      const set = await setPolicy(author.auth, p.id, policy);
      expect([set.status, set.body.data.interactionPolicy]).toEqual([200, { comments: policy }]);
      for (const [name, user] of Object.entries(who)) {
        expect([policy, name, (await getPost(user.auth, p.id)).body.data.viewer.canComment]).toEqual([policy, name, allowed[name]]);
        const res = await comment(user.auth, p.id);
        if (allowed[name]) expect([policy, name, res.status]).toEqual([policy, name, 201]);
        else
          expect([policy, name, res.status, errorOf(res).code, errorOf(res).details]).toEqual([
            policy,
            name,
            403,
            "COMMENTS_RESTRICTED",
            [{ path: "interactionPolicy.comments", message: policy }],
          ]);
      }
      expect((await comment(author.auth, p.id)).status).toBe(201);
    }
    expect((await getPost(undefined, p.id)).body.data.viewer.canComment).toBe(false);
  });

  it("replies follow the policy too; only the author (a team's staff for its posts) sets it; 400 for another value", async () => {
    const [author, other, staff] = await Promise.all([poster(), poster(), poster()]);
    await db().teamStaff.create({ data: { userId: staff.id, teamId: TEAM } });
    const p = await newPost(author.id);
    const top = await comment(other.auth, p.id);
    expect(top.status).toBe(201);
    expect((await setPolicy(author.auth, p.id, "nobody")).status).toBe(200);
    const reply = await comment(other.auth, p.id, { parentId: top.body.data.id });
    expect([reply.status, errorOf(reply).code]).toEqual([403, "COMMENTS_RESTRICTED"]);
    const forbidden = await setPolicy(other.auth, p.id, "everyone");
    expect([forbidden.status, errorOf(forbidden).code]).toEqual([403, "FORBIDDEN"]);
    expect((await setPolicy(author.auth, p.id, "friends")).status).toBe(400);

    const teamPost = await newPost(staff.id, { authorTeamId: TEAM });
    expect((await setPolicy(staff.auth, teamPost.id, "nobody")).status).toBe(200);
    expect((await comment(staff.auth, teamPost.id)).status).toBe(201);
    expect((await comment(other.auth, teamPost.id)).status).toBe(403);
  });
});

describe("reposts", () => {
  const repost = (auth: Auth, postId: string) => api("PUT", `/api/locker-room/${postId}/repost`, { headers: auth });
  const unrepost = (auth: Auth, postId: string) => api("DELETE", `/api/locker-room/${postId}/repost`, { headers: auth });
  const repostsOf = (userId: string, auth: Auth = {}, query = "") => api("GET", `/api/v1/users/${userId}/reposts${query}`, { headers: auth });
  const ids = (res: { body: { data: { reposts: { id: string }[] } } }) => res.body.data.reposts.map((p) => p.id);

  it("idempotent and counted once under concurrency; undo moves the count back once; the author is notified once", async () => {
    const [author, a, b] = await Promise.all([poster(), poster(), poster()]);
    const p = await newPost(author.id);
    const racing = await Promise.all(Array.from({ length: 8 }, () => repost(a.auth, p.id)));
    expect(new Set(racing.map((r) => `${r.status} ${r.body.data.repostedAt}`)).size).toBe(1);
    expect(racing[0]!.body.data).toMatchObject({ postId: p.id, reposted: true, repostCount: 1 });
    const others = await Promise.all([repost(b.auth, p.id), repost(author.auth, p.id)]);
    expect(others.map((r) => r.status)).toEqual([200, 200]);
    expect((await getPost(a.auth, p.id)).body.data).toMatchObject({ counts: { reposts: 3 }, viewer: { reposted: true } });
    expect((await getPost(undefined, p.id)).body.data.viewer.reposted).toBe(false);

    const undo = await Promise.all(Array.from({ length: 5 }, () => unrepost(a.auth, p.id)));
    expect(undo.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(undo.map((r) => r.body.data.repostCount).sort()).toEqual([2, 2, 2, 2, 2]);
    expect((await db().post.findUniqueOrThrow({ where: { id: p.id } })).repostCount).toBe(2);
    expect(await db().postRepost.count({ where: { postId: p.id } })).toBe(2);

    expect((await repost(a.auth, p.id)).status).toBe(200);
    expect(await db().notification.count({ where: { userId: author.id, type: "REPOST" } })).toBe(2);
    const grouped = await api("GET", "/api/notifications/grouped", { headers: author.auth });
    expect(grouped.body.data.groups).toEqual([expect.objectContaining({ groupKey: `REPOST:${p.id}`, type: "REPOST", notificationsCount: 2 })]);
  });

  it("a private, scheduled, hidden or deleted post cannot be reposted; nothing stored", async () => {
    const [author, reader] = await Promise.all([poster(), poster()]);
    expect((await api("POST", `/api/teams/${TEAM}/follow`, { headers: reader.auth })).status).toBeLessThan(300);
    const priv = await newPost(author.id, { teamId: TEAM, visibility: "PRIVATE" });
    const res = await repost(reader.auth, priv.id);
    expect([res.status, errorOf(res).code]).toEqual([409, "POST_NOT_SHAREABLE"]);
    const own = await newPost(author.id, { publishAt: new Date(Date.now() + 3_600_000), scheduled: true });
    expect(errorOf(await repost(author.auth, own.id)).code).toBe("POST_NOT_SHAREABLE");
    const [hidden, deleted] = await Promise.all([
      newPost(author.id, { hiddenAt: new Date(), hiddenBy: "user_staff" }),
      newPost(author.id, { deletedAt: new Date() }),
    ]);
    for (const p of [hidden, deleted, { id: randomUUID() }]) expect(errorOf(await repost(reader.auth, p.id)).code).toBe("NOT_FOUND");
    expect(await db().postRepost.count({ where: { userId: { in: [reader.id, author.id] } } })).toBe(0);
  });

  it("a fan's reposts list newest first, keyset, and hiding the original hides the repost", async () => {
    const [author, fan, reader, blocker] = await Promise.all([poster(), poster(), poster(), poster()]);
    const posts = await Promise.all(Array.from({ length: 4 }, () => newPost(author.id)));
    const byBlocker = await newPost(blocker.id);
    for (const p of [...posts, byBlocker]) expect((await repost(fan.auth, p.id)).status).toBe(200);
    const base = Date.now() - 60_000;
    await Promise.all(
      [...posts, byBlocker].map((p, i) =>
        db().postRepost.update({ where: { userId_postId: { userId: fan.id, postId: p.id } }, data: { createdAt: new Date(base + i * 1000) } }),
      ),
    );
    await block(blocker.auth, reader.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await repostsOf(fan.id, reader.auth, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...ids(res));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...posts].reverse().map((p) => p.id));
    expect((await repostsOf(`@nobody_${randomUUID().slice(0, 8)}`)).status).toBe(404);

    await hide(posts[3]!.id);
    expect(ids(await repostsOf(fan.id, reader.auth, "?limit=50"))).toEqual([posts[2]!.id, posts[1]!.id, posts[0]!.id]);
    expect(ids(await repostsOf(fan.id, {}, "?limit=50"))).not.toContain(posts[3]!.id);
    // The repost stays; restoring the post brings it back. Taking a repost of an invisible post back still works.
    await unhide(posts[3]!.id);
    expect(ids(await repostsOf(fan.id, reader.auth, "?limit=50"))[0]).toBe(posts[3]!.id);
    await hide(posts[3]!.id);
    const back = await unrepost(fan.auth, posts[3]!.id);
    expect([back.status, back.body.data]).toEqual([200, { postId: posts[3]!.id, reposted: false, repostedAt: null, repostCount: null }]);
    expect((await db().post.findUniqueOrThrow({ where: { id: posts[3]!.id } })).repostCount).toBe(0);
  });
});

describe("quotes", () => {
  const quote = (auth: Auth, quotedPostId: string, content = `quote ${randomUUID()}`) =>
    api("POST", "/api/locker-room", { headers: auth, json: { content, quotedPostId } });
  const quotesOf = (postId: string, auth: Auth = {}, query = "") => api("GET", `/api/locker-room/${postId}/quotes${query}`, { headers: auth });
  const ids = (res: { body: { data: { posts: { id: string }[] } } }) => res.body.data.posts.map((p) => p.id);

  it("a quote embeds the quoted post, counts once, notifies its author; hiding the original leaves a tombstone per viewer", async () => {
    const [author, quoter, reader] = await Promise.all([poster(), poster(), poster()]);
    const original = await newPost(author.id, { content: "the original" });
    const q = await quote(quoter.auth, original.id, "");
    expect(q.status).toBe(201);
    expect(q.body.data.quotedPost).toMatchObject({ id: original.id, unavailable: false, detached: false, content: "the original", author: { id: author.id } });
    expect((await getPost(reader.auth, original.id)).body.data.counts.quotes).toBe(1);
    expect(await db().notification.count({ where: { userId: author.id, type: "QUOTE" } })).toBe(1);
    expect(ids(await quotesOf(original.id, reader.auth))).toEqual([q.body.data.id]);

    await hide(original.id);
    expect((await getPost(reader.auth, q.body.data.id)).body.data.quotedPost).toEqual({ id: original.id, unavailable: true, detached: false });
    const feed = await api("GET", `/api/locker-room?authorId=${quoter.id}`, { headers: reader.auth });
    expect(feed.body.data.posts[0].quotedPost).toEqual({ id: original.id, unavailable: true, detached: false });
    const staff = await poster({ admin: true });
    expect((await getPost(staff.auth, q.body.data.id)).body.data.quotedPost.unavailable).toBe(false);
    await unhide(original.id);
    expect((await getPost(reader.auth, q.body.data.id)).body.data.quotedPost.unavailable).toBe(false);

    // Hiding or deleting the quote takes it off the count.
    await hide(q.body.data.id);
    expect((await db().post.findUniqueOrThrow({ where: { id: original.id } })).quoteCount).toBe(0);
    await unhide(q.body.data.id);
    expect((await db().post.findUniqueOrThrow({ where: { id: original.id } })).quoteCount).toBe(1);
    expect((await api("DELETE", `/api/locker-room/${q.body.data.id}`, { headers: quoter.auth })).status).toBe(200);
    expect((await db().post.findUniqueOrThrow({ where: { id: original.id } })).quoteCount).toBe(0);
  });

  it("a quoted post carries its team summaries in every list: feed, following, tag page, quotes and search", async () => {
    const [author, quoter, reader] = await Promise.all([poster(), poster(), poster()]);
    const word = `quoteword${randomUUID().slice(0, 8)}`;
    // Only the quoted post names a team: a list that looked up its own posts' teams alone would show null here.
    const original = await newPost(author.id, { content: "team news", teamId: TEAM });
    const q = await quote(quoter.auth, original.id, `#${word} ${word}`);
    expect(q.status, q.text).toBe(201);
    await db().userFollow.create({ data: { followerId: reader.id, followeeId: quoter.id } });

    const lists = {
      feed: `/api/locker-room?authorId=${quoter.id}`,
      following: "/api/v1/feeds/following",
      tag: `/api/v1/tags/${word}`,
      quotes: `/api/locker-room/${original.id}/quotes`,
      search: `/api/v1/search?type=posts&q=${word}`,
    };
    for (const [name, path] of Object.entries(lists)) {
      const res = await api("GET", path, { headers: reader.auth });
      expect(res.status, `${name}: ${res.text}`).toBe(200);
      const listed = (res.body.data.posts ?? res.body.data.results) as { id: string; quotedPost: { team: { id: string } | null } }[];
      const mine = listed.find((p) => p.id === q.body.data.id);
      expect(mine?.quotedPost.team, name).toMatchObject({ id: TEAM });
    }
  });

  it("concurrent quotes count exactly", async () => {
    const author = await poster();
    const quoters = await Promise.all(Array.from({ length: 6 }, () => poster()));
    const original = await newPost(author.id);
    const res = await Promise.all(quoters.map((u) => quote(u.auth, original.id)));
    expect(res.map((r) => r.status)).toEqual(res.map(() => 201));
    expect((await db().post.findUniqueOrThrow({ where: { id: original.id } })).quoteCount).toBe(6);
  });

  it("a private, scheduled, hidden or deleted post cannot be quoted; a quote cannot be scheduled", async () => {
    const [author, fan] = await Promise.all([poster(), poster()]);
    expect((await api("POST", `/api/teams/${TEAM}/follow`, { headers: fan.auth })).status).toBeLessThan(300);
    const priv = await newPost(author.id, { teamId: TEAM, visibility: "PRIVATE" });
    const res = await quote(fan.auth, priv.id);
    expect([res.status, errorOf(res).code]).toEqual([409, "POST_NOT_SHAREABLE"]);
    const [hidden, deleted] = await Promise.all([
      newPost(author.id, { hiddenAt: new Date(), hiddenBy: "user_staff" }),
      newPost(author.id, { deletedAt: new Date() }),
    ]);
    for (const p of [hidden, deleted]) expect(errorOf(await quote(fan.auth, p.id)).code).toBe("NOT_FOUND");
    const pub = await newPost(author.id);
    const scheduled = await api("POST", "/api/locker-room", {
      headers: fan.auth,
      json: { content: "later", quotedPostId: pub.id, scheduledFor: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect([scheduled.status, errorOf(scheduled).code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(await db().post.count({ where: { authorId: fan.id } })).toBe(0);
  });

  it("quotes by users blocked either way or muted never appear in the list; detach takes a quote off", async () => {
    const [author, reader, blocker, blockedByReader, muted, plain] = await Promise.all([poster(), poster(), poster(), poster(), poster(), poster()]);
    const original = await newPost(author.id);
    const quotes: Record<string, string> = {};
    for (const [name, u] of Object.entries({ blocker, blockedByReader, muted, plain })) {
      const q = await quote(u.auth, original.id);
      expect(q.status).toBe(201);
      quotes[name] = q.body.data.id;
    }
    await block(blocker.auth, reader.id);
    await block(reader.auth, blockedByReader.id);
    expect((await api("POST", "/api/user/mutes", { headers: reader.auth, json: { userId: muted.id } })).status).toBeLessThan(300);
    expect(ids(await quotesOf(original.id, reader.auth))).toEqual([quotes.plain]);
    expect(new Set(ids(await quotesOf(original.id)))).toEqual(new Set(Object.values(quotes)));

    const notMine = await api("POST", `/api/locker-room/${original.id}/quotes/${quotes.plain}/detach`, { headers: plain.auth });
    expect([notMine.status, errorOf(notMine).code]).toEqual([403, "FORBIDDEN"]);
    const wrong = await api("POST", `/api/locker-room/${original.id}/quotes/${original.id}/detach`, { headers: author.auth });
    expect(wrong.status).toBe(404);
    const detached = await api("POST", `/api/locker-room/${original.id}/quotes/${quotes.plain}/detach`, { headers: author.auth });
    expect([detached.status, detached.body.data]).toEqual([
      200,
      { postId: original.id, quotePostId: quotes.plain, detached: true, detachedAt: expect.any(String) },
    ]);
    const again = await api("POST", `/api/locker-room/${original.id}/quotes/${quotes.plain}/detach`, { headers: author.auth });
    expect(again.body.data.detachedAt).toBe(detached.body.data.detachedAt);
    expect((await getPost(reader.auth, quotes.plain!)).body.data.quotedPost).toEqual({ id: original.id, unavailable: true, detached: true });
    expect(ids(await quotesOf(original.id))).not.toContain(quotes.plain);
    expect((await db().post.findUniqueOrThrow({ where: { id: original.id } })).quoteCount).toBe(3);
  });

  it("401 without a token on writes; 400 for bad ids", async () => {
    const me = await poster();
    const p = await newPost(me.id);
    for (const [method, path] of [
      ["PUT", `/api/locker-room/${p.id}/pin`],
      ["DELETE", `/api/locker-room/${p.id}/pin`],
      ["PUT", `/api/locker-room/${p.id}/repost`],
      ["DELETE", `/api/locker-room/${p.id}/repost`],
      ["PUT", `/api/locker-room/${p.id}/interaction-policy`],
      ["POST", `/api/locker-room/${p.id}/quotes/${p.id}/detach`],
    ] as const) {
      expect([method, path, (await api(method, path)).status]).toEqual([method, path, 401]);
    }
    for (const path of ["/api/locker-room/nope/repost", "/api/locker-room/nope/pin"]) {
      const res = await api("PUT", path, { headers: me.auth });
      expect([res.status, errorOf(res).code]).toEqual([400, "VALIDATION_ERROR"]);
    }
    expect((await quotesOf("nope")).status).toBe(400);
    expect((await quotesOf(p.id, {}, "?cursor=nope!")).status).toBe(400);
  });
});

describe("account erasure", () => {
  it("takes the fan's reposts off the posts' counts and removes their reposts and pins", async () => {
    const [author, leaving] = await Promise.all([poster(), poster()]);
    const [theirs, own] = await Promise.all([newPost(author.id), newPost(leaving.id)]);
    expect((await api("PUT", `/api/locker-room/${theirs.id}/repost`, { headers: leaving.auth })).status).toBe(200);
    expect((await api("PUT", `/api/locker-room/${own.id}/pin`, { headers: leaving.auth })).status).toBe(200);
    expect((await api("POST", "/api/v1/me/deletion", { headers: leaving.auth, json: { confirm: true } })).status).toBeLessThan(300);
    await db().$executeRaw`UPDATE account_deletions SET requested_at = now() - interval '8 days', due_at = now() - interval '1 second',
                   not_before = now() - interval '1 second' WHERE user_id = ${leaving.id}::uuid`;
    const cronSecret = (inject("fixtures").sync as { cronSecret: string }).cronSecret;
    expect((await api("GET", "/api/cron/account-erasure", { headers: { authorization: `Bearer ${cronSecret}` } })).status).toBe(200);
    expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: leaving.id } })).state).toBe("erased");
    expect((await db().post.findUniqueOrThrow({ where: { id: theirs.id } })).repostCount).toBe(0);
    expect(await db().postRepost.count({ where: { userId: leaving.id } })).toBe(0);
    expect(await db().postPin.count({ where: { userId: leaving.id } })).toBe(0);
  });
});
