import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, poster } from "../helpers";

// Feeds (GET /api/v1/feeds, GET /api/v1/feeds/{feedId}): for-you (ranked over a snapshot, or newest first), following
// and team feeds, each post as the locker-room feed serializes it, under the locker room's visibility rule.

type Auth = Record<string, string>;
type Who = { id: string; auth: Auth };
const newPost = (authorId: string, data: Record<string, unknown> = {}) =>
  db().post.create({ data: { authorId, content: `feeds post ${randomUUID()}`, publishAt: new Date(Date.now() - 1000), ...data } });
const page = (auth: Auth | undefined, feedId: string, query = "") => api("GET", `/api/v1/feeds/${feedId}${query}`, { headers: auth ?? {} });
const idsOf = (res: { body: { data: { posts: { id: string }[] } } }) => res.body.data.posts.map((p) => p.id);

/** Every post id of a feed, walking its cursor (`between` runs before each next page). */
async function walk(auth: Auth | undefined, feedId: string, { limit = 50, between }: { limit?: number; between?: (n: number) => Promise<void> } = {}) {
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    if (pages > 0 && between) await between(pages);
    const res = await page(auth, feedId, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status, res.text).toBe(200);
    seen.push(...idsOf(res));
    cursor = res.body.data.nextCursor;
    pages++;
  } while (cursor);
  return seen;
}

/** The ranked post ids of the caller's newest snapshot, in rank order (read from the store to compare with the pages). */
async function snapshotIds(userId: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ ids: Buffer }[]>`
    SELECT c.post_ids AS ids FROM feed_snapshot_chunks c
    WHERE c.snapshot_id = (SELECT id FROM feed_snapshots WHERE user_id = ${userId}::uuid ORDER BY created_at DESC LIMIT 1)
    ORDER BY c.chunk`;
  const out: string[] = [];
  for (const { ids } of rows) {
    for (let i = 0; i < ids.length; i += 16) {
      const h = Buffer.from(ids.subarray(i, i + 16)).toString("hex");
      out.push(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
    }
  }
  return out;
}

/** Makes the caller's snapshots older than the reuse window, so the next load without a cursor ranks anew. */
const ageSnapshots = (userId: string) =>
  db().$executeRaw`UPDATE feed_snapshots SET created_at = created_at - interval '2 minutes' WHERE user_id = ${userId}::uuid`;

const signals = (who: Who, events: Record<string, unknown>[]) =>
  api("POST", "/api/feed/signals", { headers: who.auth, json: { events: events.map((e) => ({ at: new Date().toISOString(), itemType: "post", ...e })) } });

describe("feeds", () => {
  it("lists for-you, following and a feed per team followed or joined; signed out, for-you only", async () => {
    const reader = await poster();
    await db().teamFollow.create({ data: { userId: reader.id, teamId: "tm_smp" } });
    await db().teamMember.create({ data: { userId: reader.id, teamId: "tm_hch" } });
    const res = await api("GET", "/api/v1/feeds", { headers: reader.auth });
    expect(res.status).toBe(200);
    const feeds = res.body.data.feeds as { id: string; kind: string; order: string; team: { id: string } | null }[];
    expect(feeds.slice(0, 2).map((f) => [f.id, f.kind, f.order])).toEqual([
      ["for-you", "for-you", "ranked"],
      ["following", "following", "newest"],
    ]);
    expect(new Set(feeds.slice(2).map((f) => f.id))).toEqual(new Set(["team:tm_smp", "team:tm_hch"]));
    expect(
      feeds
        .slice(2)
        .map((f) => f.team?.id)
        .sort(),
    ).toEqual(["tm_hch", "tm_smp"]);

    const anon = await api("GET", "/api/v1/feeds");
    expect(anon.body.data.feeds.map((f: { id: string; order: string }) => [f.id, f.order])).toEqual([["for-you", "newest"]]);
  });

  it("following: posts by followed fans and about or as teams followed or joined, nothing else; 401 signed out", async () => {
    const [reader, followed, stranger] = await Promise.all([poster(), poster(), poster()]);
    // The file's own teams, archived so the public team lists other files count stay as seeded (following reads
    // memberships whatever the team's state).
    const team = `tm_fd_${randomUUID().slice(0, 8)}`;
    const other = `tm_fe_${randomUUID().slice(0, 8)}`;
    const archivedAt = new Date();
    await db().team.createMany({
      data: [
        { id: team, slug: team.replace(/_/g, "-"), name: `Feeds ${team}`, archivedAt },
        { id: other, slug: other.replace(/_/g, "-"), name: `Feeds ${other}`, archivedAt },
      ],
    });
    await db().userFollow.create({ data: { followerId: reader.id, followeeId: followed.id } });
    await db().teamMember.create({ data: { userId: reader.id, teamId: team } });
    const [byFollowed, aboutTeam, asTeam, byStranger, aboutOther] = await Promise.all([
      newPost(followed.id),
      newPost(stranger.id, { teamId: team }),
      newPost(stranger.id, { authorTeamId: team }),
      newPost(stranger.id),
      newPost(stranger.id, { teamId: other }),
    ]);
    const ids = await walk(reader.auth, "following", { limit: 2 });
    expect(new Set(ids)).toEqual(new Set([byFollowed.id, aboutTeam.id, asTeam.id]));
    expect(ids).not.toContain(byStranger.id);
    expect(ids).not.toContain(aboutOther.id);
    // Same serialization as the locker-room feed.
    const first = (await page(reader.auth, "following", "?limit=1")).body.data;
    const detail = (await api("GET", `/api/locker-room/${first.posts[0].id}`, { headers: reader.auth })).body.data;
    expect(first.posts[0]).toEqual(detail);
    expect(first.order).toBe("newest");

    const anon = await page(undefined, "following");
    expect([anon.status, errorOf(anon).code]).toEqual([401, "UNAUTHORIZED"]);

    // The team feed (a seeded team: an archived one is 404): its posts, about it or posted as it, newest first.
    const [aboutLive, asLive] = await Promise.all([newPost(stranger.id, { teamId: "tm_lsl" }), newPost(stranger.id, { authorTeamId: "tm_lsl" })]);
    const teamFeed = (await page(undefined, "team:tm_lsl", "?limit=50")).body.data.posts as {
      id: string;
      team: { id: string } | null;
      authorTeam: { id: string } | null;
    }[];
    expect(teamFeed.map((p) => p.id)).toEqual(expect.arrayContaining([aboutLive.id, asLive.id]));
    expect(teamFeed.every((p) => p.team?.id === "tm_lsl" || p.authorTeam?.id === "tm_lsl")).toBe(true);
    expect(teamFeed.map((p) => p.id)).not.toContain(aboutOther.id);
    for (const archivedTeam of [team, "tm_nope_nope"]) {
      const unknown = await page(reader.auth, `team:${archivedTeam}`);
      expect([unknown.status, errorOf(unknown).code]).toEqual([404, "NOT_FOUND"]);
    }
    for (const bad of ["bogus", "team:", "team:a%20b"]) expect((await page(reader.auth, bad)).status).toBe(404);
    for (const q of ["?limit=0", "?limit=51", "?cursor=nope!"]) expect((await page(reader.auth, "following", q)).status).toBe(400);
  });

  it("following: posts with a tag the caller follows and posts reposted by fans they follow, each once, under visibility", async () => {
    const [reader, followed, stranger, other, blocker] = await Promise.all([poster(), poster(), poster(), poster(), poster()]);
    const tag = `feedtag${randomUUID().slice(0, 8)}`;
    await db().userFollow.create({ data: { followerId: reader.id, followeeId: followed.id } });
    expect((await api("PUT", `/api/v1/tags/${tag}/follow`, { headers: reader.auth })).status).toBe(200);
    const post = async (who: { auth: Auth }, content: string) => {
      const res = await api("POST", "/api/locker-room", { headers: who.auth, json: { content } });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string;
    };
    const tagged = await post(stranger, `Big match tonight #${tag}`);
    const untagged = await post(stranger, "No tag here");
    const repostedByFollowed = await post(stranger, "Worth a repost");
    const repostedByOther = await post(stranger, "Reposted by a fan the reader does not follow");
    const taggedByBlocker = await post(blocker, `Also #${tag}`);
    for (const [who, id] of [
      [followed, repostedByFollowed],
      [other, repostedByOther],
      [followed, tagged],
    ] as const) {
      expect((await api("PUT", `/api/locker-room/${id}/repost`, { headers: who.auth })).status).toBe(200);
    }
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: reader.id } });

    const ids = await walk(reader.auth, "following", { limit: 2 });
    expect(ids.filter((id) => id === tagged)).toHaveLength(1); // tagged and reposted by a followed fan: listed once
    expect(new Set(ids)).toEqual(new Set([tagged, repostedByFollowed]));
    for (const id of [untagged, repostedByOther, taggedByBlocker]) expect(ids).not.toContain(id);
  });

  it("for-you pages over a frozen snapshot: no repeat, no skip, across the whole feed while posts and signals arrive", async () => {
    const [reader, author] = await Promise.all([poster(), poster()]);
    const mine: { id: string }[] = [];
    for (let i = 0; i < 12; i++) mine.push(await newPost(author.id, { publishAt: new Date(Date.now() - 1000 - i * 60_000) }));
    const first = await page(reader.auth, "for-you", "?limit=5");
    expect([first.status, first.body.data.order]).toEqual([200, "ranked"]);
    const snapshot = await snapshotIds(reader.id);
    expect(snapshot.length).toBeGreaterThan(12);
    expect(new Set(snapshot).size).toBe(snapshot.length);
    for (const p of mine) expect(snapshot).toContain(p.id);

    const arrived: string[] = [];
    const seen = await walk(reader.auth, "for-you", {
      limit: 7,
      between: async (n) => {
        if (n > 3) return;
        // New posts, new signals (a like, a hide) and a re-scored post arrive between pages.
        arrived.push((await newPost(author.id)).id);
        await signals(reader, [
          { type: "like", itemId: mine[11]!.id },
          { type: "hide", itemId: mine[10]!.id },
        ]);
        await db().post.update({ where: { id: mine[9]!.id }, data: { commentCount: 500 } });
      },
    });
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of arrived) expect(seen).not.toContain(id);
    // Every page read the snapshot in order; what is missing became invisible to the reader since (other tests' posts).
    const inSnapshot = snapshot.filter((id) => seen.includes(id));
    expect(seen).toEqual(inSnapshot);
    for (const p of mine) expect(seen).toContain(p.id);
    // The walk's first page reused the young snapshot.
    expect(await snapshotIds(reader.id)).toEqual(snapshot);
  });

  it("signals change the ranking of a new snapshot: a liked and dwelt author's posts rise, a hidden post disappears and its author sinks", async () => {
    const [reader, liked, plain, hidden] = await Promise.all([poster(), poster(), poster(), poster()]);
    const t = Date.now() - 5_000;
    // Oldest to newest: liked's, hidden's, plain's: without signals plain's come first.
    const likedPosts = [await newPost(liked.id, { publishAt: new Date(t - 3000) }), await newPost(liked.id, { publishAt: new Date(t - 2900) })];
    const hiddenPosts = [await newPost(hidden.id, { publishAt: new Date(t - 2000) }), await newPost(hidden.id, { publishAt: new Date(t - 1900) })];
    const plainPosts = [await newPost(plain.id, { publishAt: new Date(t - 1000) }), await newPost(plain.id, { publishAt: new Date(t - 900) })];
    const order = async () => {
      expect((await page(reader.auth, "for-you")).status).toBe(200);
      const ids = await snapshotIds(reader.id);
      return (p: { id: string }) => ids.indexOf(p.id);
    };
    const before = await order();
    expect(before(plainPosts[0]!)).toBeLessThan(before(likedPosts[1]!));
    expect(before(hiddenPosts[0]!)).toBeLessThan(before(likedPosts[1]!));

    const sent = await signals(reader, [
      { type: "like", itemId: likedPosts[0]!.id },
      { type: "dwell", itemId: likedPosts[0]!.id, durationMs: 30_000 },
      { type: "hide", itemId: hiddenPosts[1]!.id },
    ]);
    expect(sent.body.data.accepted).toBe(3);
    // A young snapshot is reused: the ranking only changes with a new one.
    const reused = await order();
    expect(reused(plainPosts[0]!)).toBe(before(plainPosts[0]!));
    await ageSnapshots(reader.id);
    const after = await order();
    for (const p of likedPosts) for (const q of plainPosts) expect(after(p)).toBeLessThan(after(q));
    expect(after(hiddenPosts[1]!)).toBe(-1);
    for (const q of plainPosts) expect(after(hiddenPosts[0]!)).toBeGreaterThan(after(q));
  });

  it("with analyticsPersonalization off (and signed out), for-you is the chronological feed", async () => {
    const [reader, liked] = await Promise.all([poster(), poster()]);
    const old = await newPost(liked.id, { publishAt: new Date(Date.now() - 3_600_000) });
    await signals(reader, [{ type: "like", itemId: old.id }]);
    expect((await api("PATCH", "/api/user/settings", { headers: reader.auth, json: { analyticsPersonalization: false } })).status).toBe(200);
    for (const auth of [reader.auth, undefined]) {
      const res = await page(auth, "for-you", "?limit=50");
      expect([res.status, res.body.data.order]).toEqual([200, "newest"]);
      const times = res.body.data.posts.map((p: { publishAt: string }) => Date.parse(p.publishAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      if (res.body.data.nextCursor) expect((await page(auth, "for-you", `?limit=50&cursor=${res.body.data.nextCursor}`)).body.data.order).toBe("newest");
    }
    expect(await db().feedSnapshot.count({ where: { userId: reader.id } })).toBe(0);
    const listed = await api("GET", "/api/v1/feeds", { headers: reader.auth });
    expect(listed.body.data.feeds[0]).toMatchObject({ id: "for-you", order: "newest" });
    // Turned on again: ranked.
    expect((await api("PATCH", "/api/user/settings", { headers: reader.auth, json: { analyticsPersonalization: true } })).status).toBe(200);
    expect((await page(reader.auth, "for-you")).body.data.order).toBe("ranked");
  });

  it("blocked either way, muted, keyword-filtered, private (non-fan), hidden and deleted posts appear in no feed, also when hidden after the snapshot", async () => {
    const [reader, friend, blocker, blocked, muted] = await Promise.all([poster(), poster(), poster(), poster(), poster()]);
    const tag = randomUUID().slice(0, 8);
    for (const f of [friend, blocker, blocked, muted]) await db().userFollow.create({ data: { followerId: reader.id, followeeId: f.id } });
    await db().teamFollow.create({ data: { userId: reader.id, teamId: "tm_gfg" } });
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: reader.id } });
    await db().userBlock.create({ data: { blockerId: reader.id, blockedId: blocked.id } });
    await db().userMute.create({ data: { muterId: reader.id, mutedId: muted.id } });
    const filter = { title: `filter ${tag}`, keywords: [{ keyword: `spoiler${tag}` }], contexts: ["feed"] };
    expect((await api("POST", "/api/v1/me/filters", { headers: reader.auth, json: filter })).status).toBe(201);

    const good = await newPost(friend.id, { teamId: "tm_gfg" });
    const laterHidden = await newPost(friend.id, { teamId: "tm_gfg" });
    const laterDeleted = await newPost(friend.id, { teamId: "tm_gfg" });
    const bad = await Promise.all([
      newPost(blocker.id, { teamId: "tm_gfg" }),
      newPost(blocked.id, { teamId: "tm_gfg" }),
      newPost(muted.id, { teamId: "tm_gfg" }),
      newPost(friend.id, { teamId: "tm_gfg", content: `a spoiler${tag} here` }),
      newPost(friend.id, { teamId: "tm_smp", visibility: "PRIVATE" }),
      newPost(friend.id, { teamId: "tm_gfg", hiddenAt: new Date(), hiddenBy: "user_staff" }),
      newPost(friend.id, { teamId: "tm_gfg", deletedAt: new Date() }),
    ]);
    // The snapshot is made now; then two posts become invisible.
    expect((await page(reader.auth, "for-you")).status).toBe(200);
    const snapshot = await snapshotIds(reader.id);
    expect(snapshot).toContain(laterHidden.id);
    await db().post.update({ where: { id: laterHidden.id }, data: { hiddenAt: new Date(), hiddenBy: "user_staff" } });
    expect((await api("DELETE", `/api/locker-room/${laterDeleted.id}`, { headers: friend.auth })).status).toBe(200);

    const never = [...bad.map((p) => p.id), laterHidden.id, laterDeleted.id];
    for (const feedId of ["for-you", "following", "team:tm_gfg"]) {
      const ids = await walk(reader.auth, feedId);
      expect(ids, feedId).toContain(good.id);
      for (const id of never) expect(ids, feedId).not.toContain(id);
    }
    const anon = await walk(undefined, "for-you", { limit: 50 });
    expect(anon).toContain(good.id);
    expect(anon).not.toContain(bad[4]!.id);
  });

  it("a ranked cursor of another fan's or an expired snapshot is 410 FEED_SNAPSHOT_EXPIRED; a forged cursor is 400", async () => {
    const [a, b] = await Promise.all([poster(), poster()]);
    await newPost(b.id);
    const first = await page(a.auth, "for-you", "?limit=1");
    const cursor = first.body.data.nextCursor as string;
    expect(cursor).toBeTruthy();
    const theirs = await page(b.auth, "for-you", `?cursor=${cursor}`);
    expect([theirs.status, errorOf(theirs).code]).toEqual([410, "FEED_SNAPSHOT_EXPIRED"]);
    await db().$executeRaw`UPDATE feed_snapshots SET created_at = created_at - interval '2 hours' WHERE user_id = ${a.id}::uuid`;
    const expired = await page(a.auth, "for-you", `?cursor=${cursor}`);
    expect([expired.status, errorOf(expired).code]).toEqual([410, "FEED_SNAPSHOT_EXPIRED"]);
    const forged = Buffer.from(JSON.stringify(["v1", "r5", "not-a-uuid"])).toString("base64url");
    expect((await page(a.auth, "for-you", `?cursor=${forged}`)).status).toBe(400);
  });

  it("concurrent first loads of one fan share one snapshot per process and answer the same page", async () => {
    const reader = await poster();
    const results = await Promise.all(Array.from({ length: 6 }, () => page(reader.auth, "for-you", "?limit=10")));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(new Set(results.map((r) => JSON.stringify(idsOf(r)))).size).toBe(1);
    // One per process: behind the fleet's load balancer, one per instance at most.
    const snapshots = await db().feedSnapshot.count({ where: { userId: reader.id } });
    expect(snapshots).toBeGreaterThanOrEqual(1);
    expect(snapshots).toBeLessThanOrEqual(inject("instances"));
  });
});
