import { randomBytes, randomUUID } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, db, errorOf, newUser, poster } from "../helpers";

// Tags, mentions and trends (lib/features/tags): parsing at write time (Unicode, NFKC + lower-case keys, edits re-parse), the
// tag page under the feed's visibility, following tags, MENTION notifications once per post or comment and fan, and
// trends of staff-approved tags ranked by distinct fans.

type Auth = Record<string, string>;
type User = Awaited<ReturnType<typeof poster>>;
const suffix = () => randomBytes(4).toString("hex");
const tagUrl = (tag: string, query = "") => `/api/v1/tags/${encodeURIComponent(tag)}${query}`;
const follow = (auth: Auth, tag: string) => api("PUT", tagUrl(tag, "/follow"), { headers: auth });
const unfollow = (auth: Auth, tag: string) => api("DELETE", tagUrl(tag, "/follow"), { headers: auth });
const createPost = (auth: Auth, content: string, extra: Record<string, unknown> = {}, headers: Auth = {}) =>
  api("POST", "/api/locker-room", { headers: { ...auth, ...headers }, json: { content, ...extra } });
const tagPostIds = async (tag: string, auth: Auth = {}, query = "?limit=50") => {
  const res = await api("GET", tagUrl(tag, query), { headers: auth });
  expect(res.status).toBe(200);
  return (res.body.data.posts as { id: string }[]).map((p) => p.id);
};
const tagsOfPost = async (postId: string) => (await db().postTag.findMany({ where: { postId } })).map((t) => t.tag).sort();
const mentionsOf = (userId: string) => db().notification.findMany({ where: { userId, type: "MENTION" } });

/** A poster with a handle (mentions resolve handles). */
async function withHandle(user?: User) {
  const u = user ?? (await poster());
  const handle = `m_${suffix()}${suffix()}`;
  await db().user.update({ where: { id: u.id }, data: { handle, handleKey: handle.toLowerCase() } });
  return { ...u, handle };
}

/** A post written straight to the database, then indexed through the API's edit (so it has tags like any post). */
async function taggedPost(author: User, content: string, data: Record<string, unknown> = {}) {
  const p = await db().post.create({ data: { authorId: author.id, content: "x", publishAt: new Date(Date.now() - 1000), ...data } });
  const res = await api("PATCH", `/api/locker-room/${p.id}`, { headers: author.auth, json: { content } });
  expect(res.status).toBe(200);
  return p;
}

describe("parsing", () => {
  it("stores Unicode hashtags under NFKC lower-case keys, in posts and comments; an edit re-parses; limits hold", async () => {
    const s = suffix();
    const [author, reader] = await Promise.all([poster(), poster()]);
    const created = await createPost(author.auth, `Match day #Fußball${s} #日本${s} #FUSSBALL${s} #fußball${s} #ＡＢＣ${s} #2026 a#no${s} #${"a".repeat(65)}`);
    expect(created.status).toBe(201);
    const postId = created.body.data.id as string;
    expect(await tagsOfPost(postId)).toEqual([`abc${s}`, `fussball${s}`, `fußball${s}`, `日本${s}`].sort());
    const tag = await db().tag.findUnique({ where: { tag: `fußball${s}` } });
    expect(tag?.name).toBe(`Fußball${s}`);

    // Any case and compatibility form of the path reaches the same tag.
    for (const path of [`Fußball${s}`, `FUßBALL${s}`, `fußball${s}`]) expect(await tagPostIds(path, reader.auth)).toEqual([postId]);
    const page = await api("GET", tagUrl(`日本${s}`), { headers: reader.auth });
    expect(page.body.data.tag).toEqual({ tag: `日本${s}`, name: `日本${s}`, following: false });
    const feedPost = (await api("GET", `/api/locker-room/${postId}`, { headers: reader.auth })).body.data;
    expect(page.body.data.posts).toEqual([feedPost]);

    // An edit re-parses: the old tags go, new ones come.
    const edited = await api("PATCH", `/api/locker-room/${postId}`, { headers: author.auth, json: { content: `now #Neu${s} and #日本${s}` } });
    expect(edited.status).toBe(200);
    expect(await tagsOfPost(postId)).toEqual([`neu${s}`, `日本${s}`].sort());
    expect(await tagPostIds(`fußball${s}`, reader.auth)).toEqual([]);
    expect(await tagPostIds(`neu${s}`, reader.auth)).toEqual([postId]);

    // Comments: their tags are rows too.
    const comment = await api("POST", `/api/locker-room/${postId}/comments`, { headers: reader.auth, json: { content: `great #Tor${s}!` } });
    expect(comment.status).toBe(201);
    expect((await db().commentTag.findMany({ where: { commentId: comment.body.data.id } })).map((t) => t.tag)).toEqual([`tor${s}`]);

    // At most 10 tags a post.
    const many = await createPost(author.auth, Array.from({ length: 12 }, (_, i) => `#t${i}x${s}`).join(" "));
    expect(await tagsOfPost(many.body.data.id)).toHaveLength(10);
  });

  it("400 for a path that is not a hashtag; 404 for a tag nobody used", async () => {
    const reader = await poster();
    for (const bad of ["2026", "a-b", "a".repeat(65), "%20"]) {
      const res = await api("GET", tagUrl(bad), { headers: reader.auth });
      expect([bad, res.status, errorOf(res).code]).toEqual([bad, 400, "VALIDATION_ERROR"]);
    }
    const res = await api("GET", tagUrl(`never${suffix()}`));
    expect([res.status, errorOf(res).code]).toEqual([404, "NOT_FOUND"]);
    expect((await api("GET", tagUrl(`x${suffix()}`, "?cursor=nope!"))).status).toBe(400);
  });
});

describe("tag page", () => {
  it("never shows posts blocked either way, muted, private to a team the reader is not a fan of, hidden, deleted or scheduled; pages newest first", async () => {
    const s = suffix();
    const tag = `Vis${s}`;
    const [author, blocker, blocked, muted, reader] = await Promise.all([poster(), poster(), poster(), poster(), poster()]);
    const content = `#${tag}`;
    const kept = await taggedPost(author, content);
    const others = await Promise.all([
      taggedPost(author, content),
      taggedPost(author, content),
      taggedPost(blocker, content),
      taggedPost(blocked, content),
      taggedPost(muted, content),
      taggedPost(author, content, { teamId: "tm_smp", visibility: "PRIVATE" }),
    ]);
    const [hidden, deleted, byBlocker, byBlocked, byMuted, priv] = others;
    const scheduled = await createPost(author.auth, content, { scheduledFor: new Date(Date.now() + 3_600_000).toISOString() });
    expect(scheduled.status).toBe(201);
    await db().post.update({ where: { id: hidden.id }, data: { hiddenAt: new Date(), hiddenBy: "user_staff" } });
    expect((await api("DELETE", `/api/locker-room/${deleted.id}`, { headers: author.auth })).status).toBe(200);
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: reader.id } });
    await db().userBlock.create({ data: { blockerId: reader.id, blockedId: blocked.id } });
    await db().userMute.create({ data: { muterId: reader.id, mutedId: muted.id } });

    expect(await tagPostIds(tag, reader.auth)).toEqual([kept.id]);
    // Signed out: public posts only (no blocks or mutes apply).
    expect(new Set(await tagPostIds(tag))).toEqual(new Set([kept.id, byBlocker.id, byBlocked.id, byMuted.id]));
    // A team fan sees the private post; the author sees their own scheduled post, as in the feed.
    expect((await api("POST", "/api/teams/tm_smp/follow", { headers: reader.auth })).status).toBeLessThan(300);
    expect(new Set(await tagPostIds(tag, reader.auth))).toEqual(new Set([kept.id, priv.id]));
    expect(await tagPostIds(tag, author.auth)).toContain(scheduled.body.data.id);

    // Keyset pages: newest first, never repeating or skipping (equal times by post id).
    const base = Date.now() - 60_000;
    const visible = [kept, byBlocker, byBlocked, byMuted];
    await Promise.all(visible.map((p, i) => db().post.update({ where: { id: p.id }, data: { publishAt: new Date(base + (i < 2 ? 0 : i) * 1000) } })));
    const expected = [byMuted.id, byBlocked.id, ...[kept.id, byBlocker.id].sort().reverse()];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api("GET", tagUrl(tag, `?limit=1${cursor ? `&cursor=${cursor}` : ""}`));
      seen.push(...res.body.data.posts.map((p: { id: string }) => p.id));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });
});

describe("following tags", () => {
  it("PUT is idempotent, also concurrently; DELETE is idempotent; the list is the caller's own, newest first", async () => {
    const s = suffix();
    const [fanA, fanB] = await Promise.all([poster(), poster()]);
    const racing = await Promise.all(Array.from({ length: 8 }, () => follow(fanA.auth, `Neu${s}`)));
    expect(new Set(racing.map((r) => `${r.status} ${r.body.data.followedAt}`)).size).toBe(1);
    expect(racing[0].body.data).toEqual({ tag: `neu${s}`, following: true, followedAt: expect.any(String) });
    expect(await db().tagFollow.count({ where: { userId: fanA.id } })).toBe(1);
    expect((await follow(fanA.auth, `日本${s}`)).status).toBe(200);

    const list = await api("GET", "/api/v1/me/followed-tags?limit=1", { headers: fanA.auth });
    expect(list.body.data.tags).toEqual([{ tag: `日本${s}`, name: `日本${s}`, following: true, followedAt: expect.any(String) }]);
    const next = await api("GET", `/api/v1/me/followed-tags?limit=1&cursor=${list.body.data.nextCursor}`, { headers: fanA.auth });
    expect(next.body.data.tags.map((t: { tag: string }) => t.tag)).toEqual([`neu${s}`]);
    expect(next.body.data.nextCursor).toBeUndefined();
    expect((await api("GET", tagUrl(`NEU${s}`), { headers: fanA.auth })).body.data.tag.following).toBe(true);
    expect((await api("GET", "/api/v1/me/followed-tags", { headers: fanB.auth })).body.data.tags).toEqual([]);

    for (let i = 0; i < 2; i++) {
      const res = await unfollow(fanA.auth, `neu${s}`);
      expect([res.status, res.body.data]).toEqual([200, { tag: `neu${s}`, following: false, followedAt: null }]);
    }
    expect(await db().tagFollow.count({ where: { userId: fanA.id } })).toBe(1);
  });

  it("caps followed tags under concurrency: exactly one of the racing follows takes the last place", async () => {
    const s = suffix();
    const fanA = await poster();
    const filler = Array.from({ length: 499 }, (_, i) => `cap${i}x${s}`);
    await db().tag.createMany({ data: filler.map((tag) => ({ tag, name: tag })) });
    await db().tagFollow.createMany({ data: filler.map((tag) => ({ userId: fanA.id, tag })) });
    const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => follow(fanA.auth, `last${i}x${s}`)));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(1);
    expect(racing.filter((r) => r.status === 409).map((r) => errorOf(r).code)).toEqual(Array(5).fill("TAG_FOLLOW_LIMIT"));
    expect(await db().tagFollow.count({ where: { userId: fanA.id } })).toBe(500);
    // Following one already followed still answers 200 at the cap.
    expect((await follow(fanA.auth, filler[0])).status).toBe(200);
  });

  it("401 without a token; 400 for a bad tag", async () => {
    const fanA = await poster();
    expect((await follow({}, "abc")).status).toBe(401);
    expect((await unfollow({}, "abc")).status).toBe(401);
    expect((await api("GET", "/api/v1/me/followed-tags")).status).toBe(401);
    const res = await follow(fanA.auth, "1234");
    expect([res.status, errorOf(res).code]).toEqual([400, "VALIDATION_ERROR"]);
  });
});

describe("mentions", () => {
  it("notify the mentioned fan once per post, even under concurrent retries with an Idempotency-Key and after edits; never oneself", async () => {
    const [author, target, other] = await Promise.all([withHandle(), withHandle(), withHandle()]);
    const key = randomUUID();
    const content = `hey @${target.handle.toUpperCase()} and @${author.handle} and a@${other.handle}`;
    const racing = await Promise.all(Array.from({ length: 6 }, () => createPost(author.auth, content, {}, { "Idempotency-Key": key })));
    expect(racing.every((r) => r.status === 201)).toBe(true);
    const postId = racing[0].body.data.id as string;
    expect(new Set(racing.map((r) => r.body.data.id))).toEqual(new Set([postId]));
    const notes = await mentionsOf(target.id);
    expect(notes).toHaveLength(1);
    expect(notes[0].payload).toMatchObject({ postId, commentId: null, actor: { id: author.id, handle: author.handle } });
    expect(await mentionsOf(author.id)).toHaveLength(0);
    expect(await mentionsOf(other.id)).toHaveLength(0); // a@handle is not a mention

    // Edits: dropping and re-adding the mention never notifies again; a new mention notifies once.
    for (const text of ["no mention", `again @${target.handle}`, `@${target.handle} and @${other.handle}`]) {
      expect((await api("PATCH", `/api/locker-room/${postId}`, { headers: author.auth, json: { content: text } })).status).toBe(200);
    }
    expect(await mentionsOf(target.id)).toHaveLength(1);
    expect(await mentionsOf(other.id)).toHaveLength(1);
    expect((await db().postMention.findMany({ where: { postId } })).map((m) => m.userId).sort()).toEqual([target.id, other.id].sort());

    // A comment's mention: its own notification, grouped with the post's under MENTION:<postId>.
    const comment = await api("POST", `/api/locker-room/${postId}/comments`, { headers: other.auth, json: { content: `right @${target.handle}` } });
    expect(comment.status).toBe(201);
    expect(await mentionsOf(target.id)).toHaveLength(2);
    const grouped = await api("GET", "/api/notifications/grouped?types=MENTION", { headers: target.auth });
    expect(grouped.status).toBe(200);
    expect(grouped.body.data.groups).toEqual([expect.objectContaining({ groupKey: `MENTION:${postId}`, notificationsCount: 2 })]);
    const inbox = await api("GET", "/api/notifications?types=MENTION", { headers: target.auth });
    expect(inbox.body.data.notifications.map((n: { payload: { commentId: string | null } }) => n.payload.commentId)).toEqual([comment.body.data.id, null]);
  });

  it("do not notify across a block either way, when the fan muted the author, with notifyCommunity off, or when the fan may not see the post", async () => {
    const [author, blocker, blocked, muter, quiet, outsider, teamFan] = await Promise.all([
      withHandle(),
      withHandle(),
      withHandle(),
      withHandle(),
      withHandle(),
      withHandle(),
      withHandle(),
    ]);
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: author.id } });
    await db().userBlock.create({ data: { blockerId: author.id, blockedId: blocked.id } });
    await db().userMute.create({ data: { muterId: muter.id, mutedId: author.id } });
    await db().user.update({ where: { id: quiet.id }, data: { notifyCommunity: false } });
    expect((await api("POST", "/api/teams/tm_smp/follow", { headers: teamFan.auth })).status).toBeLessThan(300);

    const refused = [blocker, blocked, muter, quiet];
    const mentioning = (users: { handle: string }[]) => users.map((u) => `@${u.handle}`).join(" ");
    const pub = await createPost(author.auth, `public ${mentioning([...refused, outsider])}`);
    expect(pub.status).toBe(201);
    for (const u of refused) expect([u.handle, (await mentionsOf(u.id)).length]).toEqual([u.handle, 0]);
    expect(await mentionsOf(outsider.id)).toHaveLength(1);

    // A private post: only fans of its team may see it, so only they are notified.
    const priv = await createPost(author.auth, `private ${mentioning([outsider, teamFan])}`, { teamId: "tm_smp", visibility: "private" });
    expect(priv.status).toBe(201);
    expect(await mentionsOf(outsider.id)).toHaveLength(1);
    expect(await mentionsOf(teamFan.id)).toHaveLength(1);

    // In a comment on someone else's post: the same rules against the commenter.
    const host = await createPost(teamFan.auth, "a public post");
    const c = await api("POST", `/api/locker-room/${host.body.data.id}/comments`, {
      headers: author.auth,
      json: { content: mentioning([...refused, outsider]) },
    });
    expect(c.status).toBe(201);
    for (const u of refused) expect([u.handle, (await mentionsOf(u.id)).length]).toEqual([u.handle, 0]);
    expect(await mentionsOf(outsider.id)).toHaveLength(2);

    // Once the block is gone and notifyCommunity is back on, new mentions reach them.
    await db().userBlock.deleteMany({ where: { blockerId: blocker.id } });
    await db().user.update({ where: { id: quiet.id }, data: { notifyCommunity: true } });
    expect((await createPost(author.auth, mentioning([blocker, quiet]))).status).toBe(201);
    expect((await mentionsOf(blocker.id)).length + (await mentionsOf(quiet.id)).length).toBe(2);
  });
});

describe("scheduled posts", () => {
  it("mention nobody before publication, then notify once when the publish cron announces the post", async () => {
    const [author, target] = await Promise.all([withHandle(), withHandle()]);
    const cron = () =>
      api("GET", "/api/cron/locker-room-publish", {
        headers: { authorization: `Bearer ${(inject("fixtures").sync as { cronSecret: string }).cronSecret}` },
      });
    const s = suffix();
    const res = await createPost(author.auth, `soon @${target.handle} #later${s}`, { scheduledFor: new Date(Date.now() + 3_600_000).toISOString() });
    expect(res.status).toBe(201);
    expect(await mentionsOf(target.id)).toHaveLength(0);
    expect(await tagPostIds(`later${s}`, target.auth)).toEqual([]);

    await db().post.update({ where: { id: res.body.data.id }, data: { publishAt: new Date(Date.now() - 1000) } });
    const runs = await Promise.all([cron(), cron()]);
    expect(runs.map((r) => r.status)).toEqual([200, 200]);
    expect(await cron()).toMatchObject({ status: 200 });
    expect(await mentionsOf(target.id)).toHaveLength(1);
    // The tag rows followed the new publish time (a trigger), so the tag page lists it.
    expect(await tagPostIds(`later${s}`, target.auth)).toEqual([res.body.data.id]);
  });
});

describe("trends", () => {
  const staff = () => newUser({ admin: true });
  const review = (auth: Auth, tag: string, status: string) =>
    api("PUT", `/api/admin/trends/tags/${encodeURIComponent(tag)}`, { headers: auth, json: { status } });
  const trendTags = async () => {
    const res = await api("GET", "/api/v1/trends?limit=20");
    expect(res.status).toBe(200);
    return res.body.data.tags as { tag: string; fans: number }[];
  };

  it("only approved tags trend, ranked by distinct fans, not by posts; staff review is audited; rejected ones never trend", async () => {
    const s = suffix();
    const [a, b, c] = await Promise.all([poster(), poster(), poster()]);
    // #many: one fan, four posts. #wide: three fans, one post each. #hidden: three fans, but in posts nobody else may see.
    for (let i = 0; i < 4; i++) expect((await createPost(a.auth, `#many${s} ${i}`)).status).toBe(201);
    for (const u of [a, b, c]) expect((await createPost(u.auth, `#Wide${s}`)).status).toBe(201);
    for (const u of [a, b]) expect((await createPost(u.auth, `#secret${s}`, { teamId: "tm_smp", visibility: "private" })).status).toBe(201);
    const pub = await createPost(c.auth, "a post");
    expect((await api("POST", `/api/locker-room/${pub.body.data.id}/comments`, { headers: b.auth, json: { content: `#many${s} too` } })).status).toBe(201);

    const mine = (tags: { tag: string }[]) => tags.filter((t) => t.tag.endsWith(s));
    expect(mine(await trendTags())).toEqual([]);

    const admin = staff();
    const pending = await api("GET", "/api/admin/trends?status=pending&limit=100", { headers: admin.auth });
    expect(pending.status).toBe(200);
    expect(mine(pending.body.data.tags)).toEqual([
      expect.objectContaining({ tag: `wide${s}`, name: `Wide${s}`, status: "pending", fans: 3, posts: 3 }),
      expect.objectContaining({ tag: `many${s}`, status: "pending", fans: 2, posts: 4 }),
    ]);
    expect((await api("GET", "/api/admin/trends", { headers: (await poster()).auth })).status).toBe(403);

    for (const tag of [`many${s}`, `WIDE${s}`, `secret${s}`]) {
      const res = await review(admin.auth, tag, "approved");
      expect([res.status, res.body.data.tag.status]).toEqual([200, "approved"]);
    }
    expect((await review(admin.auth, `many${s}`, "approved")).status).toBe(200); // unchanged: no second entry
    expect(await db().auditEntry.count({ where: { targetType: "tag", targetId: `many${s}`, action: "tag.trend_review" } })).toBe(1);
    expect((await db().tag.findUnique({ where: { tag: `many${s}` } }))?.reviewedBy).toBe(admin.sub);

    // Ranked by distinct fans: #wide (3) above #many (2 fans, 5 uses); private posts count for nobody.
    expect(mine(await trendTags())).toEqual([
      { tag: `wide${s}`, name: `Wide${s}`, fans: 3 },
      { tag: `many${s}`, name: `many${s}`, fans: 2 },
    ]);

    expect((await review(admin.auth, `wide${s}`, "rejected")).status).toBe(200);
    expect(mine(await trendTags()).map((t) => t.tag)).toEqual([`many${s}`]);
    const rejected = await api("GET", "/api/admin/trends?status=rejected&limit=100", { headers: admin.auth });
    expect(mine(rejected.body.data.tags).map((t: { tag: string }) => t.tag)).toEqual([`wide${s}`]);

    const unknown = await review(admin.auth, `nobody${s}`, "approved");
    expect([unknown.status, errorOf(unknown).code]).toEqual([404, "NOT_FOUND"]);
    expect((await review(admin.auth, `many${s}`, "maybe")).status).toBe(400);
  });

  it("trending posts are ranked by distinct fans interacting and never include posts the caller may not see", async () => {
    const [author, blocker, reader, ...fans] = await Promise.all(Array.from({ length: 9 }, () => poster()));
    const top = await taggedPost(author, "top");
    const second = await taggedPost(author, "second");
    const hidden = await taggedPost(author, "hidden");
    const priv = await taggedPost(author, "private", { teamId: "tm_smp", visibility: "PRIVATE" });
    const byBlocker = await taggedPost(blocker, "blocker");
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: reader.id } });
    const react = (postId: string, users: User[]) => db().postReaction.createMany({ data: users.map((u) => ({ postId, userId: u.id, kind: "like" })) });
    await react(top.id, fans.slice(0, 5));
    await react(second.id, fans.slice(0, 3));
    // Comments by the same fans count once; the author's own interactions never count.
    for (const u of fans.slice(0, 3)) {
      expect((await api("POST", `/api/locker-room/${top.id}/comments`, { headers: u.auth, json: { content: "yes" } })).status).toBe(201);
    }
    await react(hidden.id, fans);
    await react(priv.id, fans);
    await react(byBlocker.id, fans);
    await db().post.update({ where: { id: hidden.id }, data: { hiddenAt: new Date(), hiddenBy: "user_staff" } });

    const read = async (auth: Auth = {}) => {
      const res = await api("GET", "/api/v1/trends?limit=20", { headers: auth });
      expect(res.status).toBe(200);
      return res.body.data.posts as { id: string; trendFans: number }[];
    };
    const ours = new Set([top.id, second.id, hidden.id, priv.id, byBlocker.id]);
    const forReader = (await read(reader.auth)).filter((p) => ours.has(p.id));
    expect(forReader.map((p) => [p.id, p.trendFans])).toEqual([
      [top.id, 5],
      [second.id, 3],
    ]);
    const anonymous = (await read()).filter((p) => ours.has(p.id)).map((p) => p.id);
    expect(anonymous).toEqual([byBlocker.id, top.id, second.id]);
    expect(anonymous).not.toContain(priv.id);
    expect((await api("GET", "/api/v1/trends?limit=21")).status).toBe(400);
  });
});

describe("account erasure", () => {
  const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;

  it("deletes the fan's tag follows, the mentions of them and their comments' tags and mentions", async () => {
    const s = suffix();
    const [gone, other] = await Promise.all([withHandle(), withHandle()]);
    expect((await follow(gone.auth, `bye${s}`)).status).toBe(200);
    const post = await createPost(other.auth, `hi @${gone.handle} #stay${s}`);
    const comment = await api("POST", `/api/locker-room/${post.body.data.id}/comments`, {
      headers: gone.auth,
      json: { content: `@${other.handle} #left${s}` },
    });
    expect(comment.status).toBe(201);
    expect(await db().postMention.count({ where: { userId: gone.id } })).toBe(1);

    expect((await api("POST", "/api/v1/me/deletion", { headers: gone.auth, json: { confirm: true } })).status).toBeLessThan(300);
    await db().$executeRaw`UPDATE account_deletions SET requested_at = now() - interval '8 days', due_at = now() - interval '1 second',
                           not_before = now() - interval '1 second' WHERE user_id = ${gone.id}::uuid`;
    const run = await api("GET", "/api/cron/account-erasure", { headers: { authorization: `Bearer ${cronSecret()}` } });
    expect(run.status).toBe(200);
    expect((await db().accountDeletion.findUnique({ where: { userId: gone.id } }))?.state).toBe("erased");

    expect(await db().tagFollow.count({ where: { userId: gone.id } })).toBe(0);
    expect(await db().postMention.count({ where: { userId: gone.id } })).toBe(0);
    expect(await db().commentTag.count({ where: { authorId: gone.id } })).toBe(0);
    expect(await db().commentMention.count({ where: { commentId: comment.body.data.id } })).toBe(0);
    // The other fan's post keeps its tags.
    expect(await tagsOfPost(post.body.data.id)).toEqual([`stay${s}`]);
  });
});

describe("data export", () => {
  it("lists the fan's followed tags in comments.json", async () => {
    const s = suffix();
    const fanA = await poster();
    for (const t of [`Eins${s}`, `zwei${s}`]) expect((await follow(fanA.auth, t)).status).toBe(200);
    const requested = await api("POST", "/api/v1/me/exports", { headers: fanA.auth });
    expect(requested.status).toBe(202);
    const cronSecret = (inject("fixtures").sync as { cronSecret: string }).cronSecret;
    let ready: { status: string; downloadUrl: string } | undefined;
    for (let i = 0; i < 20 && !ready; i++) {
      expect((await api("GET", "/api/cron/exports", { headers: { authorization: `Bearer ${cronSecret}` } })).status).toBe(200);
      const e = (await api("GET", `/api/v1/me/exports/${requested.body.data.export.id}`, { headers: fanA.auth })).body.data.export;
      if (e.status !== "pending" && e.status !== "building") ready = e;
    }
    expect(ready?.status).toBe("ready");
    const u = new URL(ready!.downloadUrl);
    const zip = new Uint8Array(await (await fetch(`${baseUrl}${u.pathname}${u.search}`)).arrayBuffer());
    const comments = JSON.parse(strFromU8(unzipSync(zip)["comments.json"]!)) as { followedTags: { tag: string; followedAt: string }[] };
    expect(comments.followedTags.map((f) => f.tag)).toEqual([`eins${s}`, `zwei${s}`]);
  });
});
