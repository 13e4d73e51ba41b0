import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, fan, poster } from "../helpers";

// Following fans (GET /api/v1/users/{userId}; POST, DELETE …/follow; …/followers, …/following;
// GET /api/v1/users/relationships; GET /api/v1/me/follow-requests, …/{userId}/accept, …/reject): idempotent follows,
// self-follow 400, private profiles (reduced view, requests, their lists), blocks ending follows and requests both
// ways, counts exact under concurrency, the feed's following=true covering followed fans, FOLLOW notifications.

type Auth = Record<string, string>;
type Fan = Awaited<ReturnType<typeof fan>>;

const USERS = "/api/v1/users";
const REQUESTS = "/api/v1/me/follow-requests";
const followOf = (auth: Auth, ref: string) => api("POST", `${USERS}/${ref}/follow`, { headers: auth });
const unfollowOf = (auth: Auth, ref: string) => api("DELETE", `${USERS}/${ref}/follow`, { headers: auth });
const profileOf = (ref: string, auth: Auth = {}) => api("GET", `${USERS}/${ref}`, { headers: auth });
const listOf = (ref: string, which: "followers" | "following", auth: Auth = {}, extra = "") =>
  api("GET", `${USERS}/${ref}/${which}${extra}`, { headers: auth });
const relationshipsOf = (auth: Auth, ids: string[]) => api("GET", `${USERS}/relationships?ids=${ids.join(",")}`, { headers: auth });
const idsIn = (res: { body: any }, key: string) => (res.body.data[key] as { id: string }[]).map((u) => u.id);
const setPrivate = async (auth: Auth, privateProfile: boolean) =>
  expect((await api("PATCH", "/api/user/settings", { headers: auth, json: { privateProfile } })).status).toBe(200);
const block = async (auth: Auth, blockedUserId: string) =>
  expect((await api("POST", "/api/user/blocks", { headers: auth, json: { blockedUserId } })).status).toBe(200);
const handle = () => `f_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

async function withProfile(f: Fan) {
  const h = handle();
  const res = await api("PATCH", "/api/user/profile", {
    headers: f.auth,
    json: { handle: h, displayName: `Fan ${h}`, bio: "Season ticket holder since 2009.", favoriteTeamIds: ["tm_hch"] },
  });
  expect(res.status, res.text).toBe(200);
  return { ...f, handle: h };
}

/** Each user's counts against the rows of user_follows. */
async function countsOf(ids: string[]) {
  const rows = await db().$queryRaw<{ id: string; followers: number; following: number; rowsFollowers: number; rowsFollowing: number }[]>`
    SELECT u.id::text AS id, u.follower_count AS followers, u.following_count AS following,
           (SELECT count(*)::int FROM user_follows f WHERE f.followee_id = u.id) AS "rowsFollowers",
           (SELECT count(*)::int FROM user_follows f WHERE f.follower_id = u.id) AS "rowsFollowing"
    FROM users u WHERE u.id = ANY(${ids}::uuid[])`;
  return new Map(rows.map((r) => [r.id, r]));
}

const rel = (id: string, r: Partial<Record<"following" | "followedBy" | "requested" | "blocking" | "blockedBy" | "muting", boolean>> = {}) => ({
  id,
  following: false,
  followedBy: false,
  requested: false,
  blocking: false,
  blockedBy: false,
  muting: false,
  ...r,
});

describe("profiles", () => {
  it("by id or @handle (any case): the public profile with counts, favourite teams and joined date", async () => {
    const a = await withProfile(await fan());
    const b = await fan();
    expect((await followOf(b.auth, a.id)).status).toBe(200);
    for (const ref of [a.id, a.id.toUpperCase(), `@${a.handle}`, `@${a.handle.toUpperCase()}`, `%40${a.handle}`]) {
      const res = await profileOf(ref);
      expect(res.status, ref).toBe(200);
      expect(res.body.data).toMatchObject({
        id: a.id,
        handle: a.handle,
        displayName: `Fan ${a.handle}`,
        bio: "Season ticket holder since 2009.",
        isPrivate: false,
        view: "full",
        followersCount: 1,
        followingCount: 0,
        favoriteTeams: [{ id: "tm_hch", team: expect.objectContaining({ id: "tm_hch" }) }],
        joinedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(res.body.data).toHaveProperty("bannerUrl");
      expect(res.body.data).not.toHaveProperty("email");
    }
    expect((await profileOf(b.id)).body.data).toMatchObject({ followersCount: 0, followingCount: 1 });
    expect((await profileOf(randomUUID())).status).toBe(404);
    expect((await profileOf("@nobody_here_x9")).status).toBe(404);
    for (const bad of ["not-a-user", "@a", "@with-dash"]) {
      const res = await profileOf(bad);
      expect(res.status, bad).toBe(400);
      expect(errorOf(res).details!.map((d) => d.path)).toEqual(["params.userId"]);
    }
  });

  it("a private profile shows a reduced view to non-followers, the full one to itself and its followers", async () => {
    const a = await withProfile(await fan());
    const [follower, stranger] = await Promise.all([fan(), fan()]);
    expect((await followOf(follower.auth, a.id)).body.data.following).toBe(true);
    await setPrivate(a.auth, true);
    for (const auth of [{}, stranger.auth]) {
      const limited = (await profileOf(a.id, auth)).body.data;
      expect(limited).toEqual({
        id: a.id,
        handle: a.handle,
        displayName: `Fan ${a.handle}`,
        avatarUrl: null,
        avatarThumbhash: null,
        isPrivate: true,
        followersCount: 1,
        followingCount: 0,
        view: "limited",
      });
    }
    for (const auth of [a.auth, follower.auth]) {
      expect((await profileOf(a.id, auth)).body.data).toMatchObject({ view: "full", bio: "Season ticket holder since 2009.", isPrivate: true });
    }
  });

  it("a block either way hides the profile (404) and its lists", async () => {
    const [a, b, c] = await Promise.all([fan(), fan(), fan()]);
    await block(a.auth, b.id);
    for (const [viewer, target] of [
      [a, b],
      [b, a],
    ] as const) {
      expect((await profileOf(target.id, viewer.auth)).status).toBe(404);
      expect((await listOf(target.id, "followers", viewer.auth)).status).toBe(404);
    }
    expect((await profileOf(a.id, c.auth)).status).toBe(200);
  });
});

describe("follows", () => {
  it("follow and unfollow are idempotent; counts and lists move once; the new follower is notified once", async () => {
    const [a, b] = await Promise.all([fan(), fan()]);
    for (let i = 0; i < 2; i++) {
      const res = await followOf(a.auth, b.id);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(rel(b.id, { following: true }));
    }
    expect((await profileOf(b.id)).body.data).toMatchObject({ followersCount: 1, followingCount: 0 });
    expect(idsIn(await listOf(b.id, "followers"), "followers")).toEqual([a.id]);
    expect(idsIn(await listOf(a.id, "following"), "following")).toEqual([b.id]);
    expect(await db().notification.count({ where: { userId: b.id, type: "FOLLOW" } })).toBe(1);

    for (let i = 0; i < 2; i++) expect((await unfollowOf(a.auth, b.id)).body.data).toEqual(rel(b.id));
    expect((await profileOf(b.id)).body.data).toMatchObject({ followersCount: 0, followingCount: 0 });
    expect((await profileOf(a.id)).body.data).toMatchObject({ followersCount: 0, followingCount: 0 });
    // Following again does not notify twice (the cause is the follower).
    expect((await followOf(a.auth, b.id)).body.data.following).toBe(true);
    expect(await db().notification.count({ where: { userId: b.id, type: "FOLLOW" } })).toBe(1);
  });

  it("self-follow is 400; unknown users 404; signed out 401; follows are rate-limited (policy write)", async () => {
    const a = await withProfile(await fan());
    for (const ref of [a.id, `@${a.handle}`]) {
      const res = await followOf(a.auth, ref);
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("CANNOT_FOLLOW_SELF");
    }
    expect((await unfollowOf(a.auth, a.id)).status).toBe(400);
    expect((await followOf(a.auth, randomUUID())).status).toBe(404);
    expect((await api("POST", `${USERS}/${a.id}/follow`)).status).toBe(401);
    expect(await db().userFollow.count({ where: { followerId: a.id } })).toBe(0);
    // The tests' write policy allows 100,000 a minute (tests/setup/global.ts); reads get the user policy's 1,000,000.
    const b = await fan();
    expect((await followOf(a.auth, b.id)).headers.get("ratelimit-limit")).toBe("100000");
    expect((await unfollowOf(a.auth, b.id)).headers.get("ratelimit-limit")).toBe("100000");
  });

  it("followers and following are keyset pages, newest first, never repeating or skipping", async () => {
    const target = await fan();
    const fans = await Promise.all(Array.from({ length: 5 }, () => fan()));
    for (const f of fans) expect((await followOf(f.auth, target.id)).status).toBe(200);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await listOf(target.id, "followers", {}, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.data.followers.length).toBeLessThanOrEqual(2);
      seen.push(...idsIn(res, "followers"));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(fans.map((f) => f.id).reverse());
    expect((await listOf(target.id, "followers", {}, "?cursor=garbage")).status).toBe(400);
    expect((await listOf(target.id, "followers", {}, "?limit=101")).status).toBe(400);
  });
});

describe("private profiles: follow requests", () => {
  it("a follow becomes a request; accepting makes it a follow, rejecting drops it; each once", async () => {
    const owner = await withProfile(await fan());
    await setPrivate(owner.auth, true);
    const [x, y] = await Promise.all([fan(), fan()]);
    for (const f of [x, y]) {
      const res = await followOf(f.auth, owner.id);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(rel(owner.id, { requested: true }));
      expect((await followOf(f.auth, owner.id)).body.data).toEqual(rel(owner.id, { requested: true }));
    }
    expect((await profileOf(owner.id)).body.data.followersCount).toBe(0);
    const requests = await api("GET", REQUESTS, { headers: owner.auth });
    expect(requests.body.data.requests.map((r: { id: string }) => r.id)).toEqual([y.id, x.id]);
    expect(await db().notification.count({ where: { userId: owner.id, type: "FOLLOW_REQUEST" } })).toBe(2);
    // Its lists are for followers only.
    for (const auth of [{}, x.auth]) {
      const res = await listOf(owner.id, "followers", auth);
      expect(res.status).toBe(403);
      expect(errorOf(res).code).toBe("PROFILE_PRIVATE");
    }

    const accepted = await api("POST", `${REQUESTS}/${x.id}/accept`, { headers: owner.auth });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual(rel(x.id, { followedBy: true }));
    expect((await api("POST", `${REQUESTS}/${x.id}/accept`, { headers: owner.auth })).status).toBe(404);
    expect((await relationshipsOf(x.auth, [owner.id])).body.data.relationships).toEqual([rel(owner.id, { following: true })]);
    expect((await profileOf(owner.id, x.auth)).body.data).toMatchObject({ view: "full", followersCount: 1 });
    expect(idsIn(await listOf(owner.id, "followers", x.auth), "followers")).toEqual([x.id]);
    expect(idsIn(await listOf(owner.id, "following", owner.auth), "following")).toEqual([]);

    const rejected = await api("POST", `${REQUESTS}/@${(await withProfile(y)).handle}/reject`, { headers: owner.auth });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toEqual(rel(y.id));
    expect((await api("POST", `${REQUESTS}/${y.id}/reject`, { headers: owner.auth })).status).toBe(404);
    expect((await relationshipsOf(y.auth, [owner.id])).body.data.relationships).toEqual([rel(owner.id)]);
    expect((await api("GET", REQUESTS, { headers: owner.auth })).body.data.requests).toEqual([]);
    expect((await profileOf(owner.id)).body.data.followersCount).toBe(1);
    // Someone who never asked: 404. Unfollowing withdraws a pending request.
    expect((await api("POST", `${REQUESTS}/${randomUUID()}/accept`, { headers: owner.auth })).status).toBe(404);
    expect((await followOf(y.auth, owner.id)).body.data.requested).toBe(true);
    expect((await unfollowOf(y.auth, owner.id)).body.data).toEqual(rel(owner.id));
    expect((await api("GET", REQUESTS, { headers: owner.auth })).body.data.requests).toEqual([]);
  });

  it("making the profile public accepts every pending request; making it private keeps its followers", async () => {
    const owner = await fan();
    const early = await fan();
    expect((await followOf(early.auth, owner.id)).body.data.following).toBe(true);
    await setPrivate(owner.auth, true);
    const askers = await Promise.all(Array.from({ length: 3 }, () => fan()));
    for (const f of askers) expect((await followOf(f.auth, owner.id)).body.data.requested).toBe(true);
    expect((await profileOf(owner.id)).body.data.followersCount).toBe(1);
    await setPrivate(owner.auth, false);
    expect((await api("GET", REQUESTS, { headers: owner.auth })).body.data.requests).toEqual([]);
    expect((await profileOf(owner.id)).body.data.followersCount).toBe(4);
    expect(new Set(idsIn(await listOf(owner.id, "followers"), "followers"))).toEqual(new Set([early.id, ...askers.map((f) => f.id)]));
    const counts = await countsOf([owner.id, ...askers.map((f) => f.id)]);
    for (const c of counts.values()) expect([c.followers, c.following]).toEqual([c.rowsFollowers, c.rowsFollowing]);
  });
});

describe("blocks", () => {
  it("a block removes the follows both ways and pending requests both ways, and refuses new ones", async () => {
    const [a, b] = await Promise.all([fan(), fan()]);
    expect((await followOf(a.auth, b.id)).body.data.following).toBe(true);
    expect((await followOf(b.auth, a.id)).body.data.following).toBe(true);
    await block(a.auth, b.id);
    expect(await db().userFollow.count({ where: { OR: [{ followerId: a.id }, { followerId: b.id }] } })).toBe(0);
    expect((await profileOf(a.id)).body.data).toMatchObject({ followersCount: 0, followingCount: 0 });
    expect((await profileOf(b.id)).body.data).toMatchObject({ followersCount: 0, followingCount: 0 });
    expect((await relationshipsOf(a.auth, [b.id])).body.data.relationships).toEqual([rel(b.id, { blocking: true })]);
    expect((await relationshipsOf(b.auth, [a.id])).body.data.relationships).toEqual([rel(a.id, { blockedBy: true })]);
    for (const [who, target] of [
      [a, b],
      [b, a],
    ] as const) {
      const res = await followOf(who.auth, target.id);
      expect(res.status).toBe(403);
      expect(errorOf(res).code).toBe("FOLLOW_BLOCKED");
    }
    expect(await db().userFollow.count({ where: { OR: [{ followerId: a.id }, { followerId: b.id }] } })).toBe(0);

    // Pending requests, both ways: two private profiles asked by each other, then one blocks the other.
    const [p, q] = await Promise.all([fan(), fan()]);
    await setPrivate(p.auth, true);
    await setPrivate(q.auth, true);
    expect((await followOf(p.auth, q.id)).body.data.requested).toBe(true);
    expect((await followOf(q.auth, p.id)).body.data.requested).toBe(true);
    await block(q.auth, p.id);
    expect(await db().followRequest.count({ where: { OR: [{ requesterId: p.id }, { requesterId: q.id }] } })).toBe(0);
    expect((await api("GET", REQUESTS, { headers: p.auth })).body.data.requests).toEqual([]);
    // Unblocking restores nothing.
    expect((await api("DELETE", `/api/user/blocks/${p.id}`, { headers: q.auth })).status).toBe(200);
    expect((await relationshipsOf(q.auth, [p.id])).body.data.relationships).toEqual([rel(p.id)]);
  });

  it("lists leave out fans in a block relation with the caller", async () => {
    const [target, x, y, viewer] = await Promise.all([fan(), fan(), fan(), fan()]);
    for (const f of [x, y]) expect((await followOf(f.auth, target.id)).status).toBe(200);
    await block(x.auth, viewer.id);
    expect(idsIn(await listOf(target.id, "followers", viewer.auth), "followers")).toEqual([y.id]);
    expect(idsIn(await listOf(target.id, "followers"), "followers")).toEqual([y.id, x.id]);
  });
});

describe("relationships", () => {
  it("one entry per existing user in the order asked: following, followedBy, requested, blocking, blockedBy, muting", async () => {
    const me = await fan();
    const [followed, follower, mutual, asked, blocked, blocker, stranger, muted] = await Promise.all(Array.from({ length: 8 }, () => fan()));
    await setPrivate(asked.auth, true);
    for (const f of [followed, mutual, asked]) expect((await followOf(me.auth, f.id)).status).toBe(200);
    for (const f of [follower, mutual]) expect((await followOf(f.auth, me.id)).status).toBe(200);
    await block(me.auth, blocked.id);
    await block(blocker.auth, me.id);
    expect((await api("POST", "/api/user/mutes", { headers: me.auth, json: { userId: muted.id } })).status).toBe(201);
    // A mute of the caller is the muter's own business: it shows nowhere in the caller's answer.
    expect((await api("POST", "/api/user/mutes", { headers: stranger.auth, json: { userId: me.id } })).status).toBe(201);
    const unknown = randomUUID();
    const ids = [stranger.id, followed.id, unknown, follower.id, mutual.id, asked.id, blocked.id, blocker.id, muted.id];
    const res = await relationshipsOf(me.auth, [...ids, followed.id.toUpperCase()]);
    expect(res.status).toBe(200);
    expect(res.body.data.relationships).toEqual([
      rel(stranger.id),
      rel(followed.id, { following: true }),
      rel(follower.id, { followedBy: true }),
      rel(mutual.id, { following: true, followedBy: true }),
      rel(asked.id, { requested: true }),
      rel(blocked.id, { blocking: true }),
      rel(blocker.id, { blockedBy: true }),
      rel(muted.id, { muting: true }),
    ]);
    // Repeated ids= work the same.
    const repeated = await api("GET", `${USERS}/relationships?ids=${followed.id}&ids=${follower.id}`, { headers: me.auth });
    expect(repeated.body.data.relationships.map((r: { id: string }) => r.id)).toEqual([followed.id, follower.id]);
  });

  it("up to 50 ids, each a UUID: else 400 naming query.ids; signed out 401", async () => {
    const me = await fan();
    const fifty = Array.from({ length: 50 }, () => randomUUID());
    expect((await relationshipsOf(me.auth, fifty)).body.data.relationships).toEqual([]);
    for (const ids of [[...fifty, randomUUID()], ["not-a-uuid"], [""]]) {
      const res = await relationshipsOf(me.auth, ids);
      expect(res.status).toBe(400);
      expect(errorOf(res).details!.some((d) => d.path.startsWith("query.ids"))).toBe(true);
    }
    expect((await api("GET", `${USERS}/relationships`, { headers: me.auth })).status).toBe(400);
    expect((await api("GET", `${USERS}/relationships?ids=${randomUUID()}`)).status).toBe(401);
  });
});

describe("counts under concurrency", () => {
  it("20 fans following one fan at once: 20 follows, 20 followers counted", async () => {
    const target = await fan();
    const fans = await Promise.all(Array.from({ length: 20 }, () => fan()));
    const results = await Promise.all(fans.map((f) => followOf(f.auth, target.id)));
    expect(results.map((r) => r.status)).toEqual(fans.map(() => 200));
    const counts = await countsOf([target.id, ...fans.map((f) => f.id)]);
    expect(counts.get(target.id)).toMatchObject({ followers: 20, rowsFollowers: 20, following: 0 });
    for (const f of fans) expect(counts.get(f.id)).toMatchObject({ following: 1, rowsFollowing: 1 });
  });

  it("follows, unfollows, follow-backs and blocks racing: every count equals its rows, and no request fails", async () => {
    const hub = await fan();
    const fans = await Promise.all(Array.from({ length: 12 }, () => fan()));
    const calls: Promise<{ status: number }>[] = [];
    fans.forEach((f, i) => {
      // Both directions at once (the two users' rows are taken in one order whichever way the follow goes).
      calls.push(followOf(f.auth, hub.id), unfollowOf(f.auth, hub.id), followOf(f.auth, hub.id), followOf(hub.auth, f.id));
      if (i % 3 === 0) calls.push(unfollowOf(hub.auth, f.id));
      if (i % 4 === 1) calls.push(api("POST", "/api/user/blocks", { headers: hub.auth, json: { blockedUserId: f.id } }));
      // Fans following each other too, in a ring.
      calls.push(followOf(f.auth, fans[(i + 1) % fans.length]!.id));
    });
    const results = await Promise.all(calls);
    for (const r of results) expect([200, 403]).toContain(r.status);
    const counts = await countsOf([hub.id, ...fans.map((f) => f.id)]);
    expect(counts.size).toBe(13);
    for (const c of counts.values())
      expect({ id: c.id, followers: c.followers, following: c.following }).toEqual({ id: c.id, followers: c.rowsFollowers, following: c.rowsFollowing });
    // Blocked fans follow and are followed by the hub in neither direction.
    const blocked = fans.filter((_, i) => i % 4 === 1).map((f) => f.id);
    expect(
      await db().userFollow.count({
        where: {
          OR: [
            { followerId: hub.id, followeeId: { in: blocked } },
            { followeeId: hub.id, followerId: { in: blocked } },
          ],
        },
      }),
    ).toBe(0);
  });
});

describe("blocks racing follows", () => {
  it("a follow sent with a block either lands first and is removed by it, or is refused: no follow survives a block", async () => {
    const pairs = await Promise.all(Array.from({ length: 15 }, async () => [await fan(), await fan()] as const));
    const results = await Promise.all(
      pairs.flatMap(([a, b]) => [
        followOf(a.auth, b.id),
        followOf(b.auth, a.id),
        api("POST", "/api/user/blocks", { headers: b.auth, json: { blockedUserId: a.id } }),
      ]),
    );
    for (const r of results) expect([200, 403]).toContain(r.status);
    const ids = pairs.flat().map((f) => f.id);
    expect(await db().userFollow.count({ where: { followerId: { in: ids } } })).toBe(0);
    for (const c of (await countsOf(ids)).values()) expect([c.followers, c.following]).toEqual([0, 0]);
  });
});

describe("the feed's following=true", () => {
  it("covers posts by followed fans as well as followed teams", async () => {
    const author = await poster();
    const [reader, other] = await Promise.all([fan(), fan()]);
    const created = await api("POST", "/api/locker-room", { headers: author.auth, json: { content: `from a fan ${randomUUID()}` } });
    expect(created.status, created.text).toBe(201);
    const feed = (auth: Auth) => api("GET", "/api/locker-room?following=true", { headers: auth });
    expect((await feed(reader.auth)).body.data.posts).toEqual([]);
    expect((await followOf(reader.auth, author.id)).status).toBe(200);
    // The reader follows no team: their following feed is the followed fan's posts.
    expect(idsIn(await feed(reader.auth), "posts")).toEqual([created.body.data.id]);
    expect((await feed(other.auth)).body.data.posts).toEqual([]);
    // Followed teams still count.
    expect((await api("POST", "/api/teams/tm_gfg/follow", { headers: other.auth })).status).toBe(200);
    const teamPost = await api("POST", "/api/locker-room", { headers: author.auth, json: { content: "about a team", teamId: "tm_gfg" } });
    expect(idsIn(await api("GET", `/api/locker-room?following=true&authorId=${author.id}`, { headers: other.auth }), "posts")).toEqual([teamPost.body.data.id]);
    expect((await unfollowOf(reader.auth, author.id)).status).toBe(200);
    expect((await feed(reader.auth)).body.data.posts).toEqual([]);
  });
});

describe("notifications", () => {
  it("a new follower and a follow request notify (grouped per day), unless the recipient turned notifyCommunity off", async () => {
    const target = await fan();
    const [x, y] = await Promise.all([withProfile(await fan()), fan()]);
    for (const f of [x, y]) expect((await followOf(f.auth, target.id)).status).toBe(200);
    const grouped = await api("GET", "/api/notifications/grouped?types=FOLLOW", { headers: target.auth });
    expect(grouped.status).toBe(200);
    const [group] = grouped.body.data.groups;
    expect(grouped.body.data.groups).toHaveLength(1);
    expect(group).toMatchObject({ type: "FOLLOW", notificationsCount: 2, unreadCount: 2 });
    expect(group.groupKey).toBe(`FOLLOW:${group.latestPageNotificationAt.slice(0, 10)}`);
    expect(group.notifications.map((n: { payload: { actor: { id: string } } }) => n.payload.actor.id)).toEqual([y.id, x.id]);
    expect(group.notifications[1].payload).toEqual({
      actor: { id: x.id, handle: x.handle, displayName: `Fan ${x.handle}`, avatarUrl: null },
      title: `Fan ${x.handle} followed you`,
      body: "You have a new follower.",
      href: `/api/v1/users/${x.id}`,
    });

    const quiet = await fan();
    expect((await api("PATCH", "/api/user/settings", { headers: quiet.auth, json: { notifyCommunity: false } })).status).toBe(200);
    expect((await followOf(x.auth, quiet.id)).body.data.following).toBe(true);
    await setPrivate(quiet.auth, true);
    expect((await followOf(y.auth, quiet.id)).body.data.requested).toBe(true);
    expect(await db().notification.count({ where: { userId: quiet.id } })).toBe(0);

    const owner = await fan();
    await setPrivate(owner.auth, true);
    expect((await followOf(x.auth, owner.id)).body.data.requested).toBe(true);
    const requests = await api("GET", "/api/notifications?types=FOLLOW_REQUEST", { headers: owner.auth });
    expect(requests.body.data.notifications).toHaveLength(1);
    expect(requests.body.data.notifications[0].payload).toMatchObject({ actor: { id: x.id }, href: "/api/v1/me/follow-requests" });
  });
});
