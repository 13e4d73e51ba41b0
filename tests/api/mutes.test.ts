import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, poster } from "../helpers";

// Account mutes (POST, GET /api/user/mutes; DELETE …/{userId}): one-way and invisible to the muted account; a mute
// hides the account's posts from the muter's feed, its comments and reactions from the muter's lists, and (with
// `notifications`) the notifications it causes; a timed mute ends exactly at expiresAt; pages stay exact; the cap holds
// under concurrency.

type Auth = Record<string, string>;
type Who = Awaited<ReturnType<typeof poster>>;
const MUTES = "/api/user/mutes";

const mute = (auth: Auth, json: Record<string, unknown>) => api("POST", MUTES, { headers: auth, json });
const unmute = (auth: Auth, userId: string) => api("DELETE", `${MUTES}/${userId}`, { headers: auth });
const mutesOf = async (auth: Auth) => (await api("GET", MUTES, { headers: auth })).body.data.mutes as { user: { id: string } }[];

/** A team of the test's own, so its feed (?teamId=) holds only the test's posts. */
async function newTeam() {
  const id = `tm_mt_${randomUUID().slice(0, 8)}`;
  // Archived: out of the public team lists other files count; its feed (?teamId=) still reads.
  await db().team.create({ data: { id, slug: id, name: `Mute test ${id}`, archivedAt: new Date() } });
  return id;
}
/** Posts about `teamId`, newest first in the order given (one second apart). */
async function posts(teamId: string, authors: Who[], contents?: string[]) {
  const base = Date.now() - 60_000;
  const made = [];
  for (const [i, author] of authors.entries()) {
    made.push(
      await db().post.create({
        data: { authorId: author.id, teamId, content: contents?.[i] ?? `post ${i} ${randomUUID()}`, publishAt: new Date(base - i * 1000) },
      }),
    );
  }
  return made.map((p) => p.id);
}
async function feedIds(auth: Auth | undefined, teamId: string, limit = 20, cursor?: string) {
  const q = `teamId=${teamId}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
  const res = await api("GET", `/api/locker-room?${q}`, { headers: auth ?? {} });
  expect(res.status, res.text).toBe(200);
  return { ids: (res.body.data.posts as { id: string }[]).map((p) => p.id), nextCursor: res.body.data.nextCursor as string | undefined };
}
/** Every page of the team's feed: the ids in order and each page's length. */
async function walk(auth: Auth, teamId: string, limit: number) {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await feedIds(auth, teamId, limit, cursor);
    ids.push(...page.ids);
    sizes.push(page.ids.length);
    cursor = page.nextCursor;
  } while (cursor);
  return { ids, sizes };
}
const notes = (userId: string, postId: string) =>
  db().notification.findMany({ where: { userId, payload: { path: ["postId"], equals: postId } }, select: { type: true } });

describe("account mutes", () => {
  it("hide the account's posts from the muter's feed only; invisible to the muted account; unmute brings them back", async () => {
    const [viewer, muted, other] = await Promise.all([poster(), poster(), poster()]);
    const team = await newTeam();
    const [m1, o1, m2, v1] = await posts(team, [muted, other, muted, viewer]);

    const first = await mute(viewer.auth, { userId: muted.id });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data.mute).toMatchObject({ user: { id: muted.id }, notifications: true, expiresAt: null });
    const again = await mute(viewer.auth, { userId: muted.id, notifications: false });
    expect(again.status).toBe(200);
    expect(again.body.data.mute).toMatchObject({ notifications: false, mutedAt: first.body.data.mute.mutedAt });
    expect(await db().userMute.count({ where: { muterId: viewer.id } })).toBe(1);

    expect((await feedIds(viewer.auth, team)).ids).toEqual([o1, v1]);
    // The muted account, anyone else and an anonymous reader see every post; the muted account's lists say nothing.
    expect((await feedIds(muted.auth, team)).ids).toEqual([m1, o1, m2, v1]);
    expect((await feedIds(undefined, team)).ids).toEqual([m1, o1, m2, v1]);
    expect(await mutesOf(muted.auth)).toEqual([]);
    expect((await mutesOf(viewer.auth)).map((m) => m.user.id)).toEqual([muted.id]);
    // The muted account still reads and answers the muter's post as before.
    expect((await api("GET", `/api/locker-room/${v1}`, { headers: muted.auth })).status).toBe(200);
    expect((await api("POST", `/api/locker-room/${v1}/comments`, { headers: muted.auth, json: { content: "hi" } })).status).toBe(201);

    for (let i = 0; i < 2; i++) expect((await unmute(viewer.auth, muted.id)).body.data).toEqual({ muted: false, userId: muted.id });
    expect((await feedIds(viewer.auth, team)).ids).toEqual([m1, o1, m2, v1]);
    expect(await mutesOf(viewer.auth)).toEqual([]);
  });

  it("keeps feed pages exact: a muted middle gives a short page whose cursor continues after the last post read", async () => {
    const [viewer, muted, a, b] = await Promise.all([poster(), poster(), poster(), poster()]);
    const team = await newTeam();
    const ids = await posts(team, [a, muted, muted, b, a, b, muted, a, b]);
    expect((await mute(viewer.auth, { userId: muted.id })).status).toBe(201);
    const visible = ids.filter((_, i) => ![1, 2, 6].includes(i));

    const page1 = await feedIds(viewer.auth, team, 4);
    expect(page1.ids).toEqual([ids[0], ids[3]]); // 4 posts read, 2 of them muted
    expect(page1.nextCursor).toBeDefined();
    const page2 = await feedIds(viewer.auth, team, 4, page1.nextCursor);
    expect(page2.ids).toEqual([ids[4], ids[5], ids[7]]);
    const { ids: all, sizes } = await walk(viewer.auth, team, 4);
    expect(all).toEqual(visible);
    expect(sizes).toEqual([2, 3, 1]);
    // Every page size walks the same posts, each once, in order.
    for (const limit of [1, 2, 3, 5]) expect((await walk(viewer.auth, team, limit)).ids).toEqual(visible);
  });

  it("hide the account's comments, replies and reactions from the muter's lists", async () => {
    const [viewer, muted, other] = await Promise.all([poster(), poster(), poster()]);
    const team = await newTeam();
    const [post] = await posts(team, [other]);
    const say = async (who: Who, content: string, parentId?: string) =>
      (await api("POST", `/api/locker-room/${post}/comments`, { headers: who.auth, json: { content, parentId } })).body.data.id as string;
    const top = await say(other, "top");
    const mutedTop = await say(muted, "muted top");
    const otherTop = await say(other, "other top");
    const mutedReply = await say(muted, "muted reply", top);
    const otherReply = await say(other, "other reply", top);
    for (const [who, kind] of [
      [muted, "fire"],
      [other, "love"],
    ] as const) {
      expect((await api("PUT", `/api/locker-room/${post}/reaction`, { headers: who.auth, json: { kind } })).status).toBe(200);
    }
    expect((await mute(viewer.auth, { userId: muted.id })).status).toBe(201);

    const comments = async (auth: Auth, path = "comments") =>
      ((await api("GET", `/api/locker-room/${post}/${path}`, { headers: auth })).body.data.comments as { id: string }[]).map((c) => c.id);
    const reactors = async (auth: Auth) =>
      ((await api("GET", `/api/locker-room/${post}/reactions`, { headers: auth })).body.data.reactions as { user: { id: string } }[]).map((r) => r.user.id);
    expect(await comments(viewer.auth)).toEqual([top, otherTop]);
    expect(await comments(viewer.auth, `comments/${top}/replies`)).toEqual([otherReply]);
    expect(await reactors(viewer.auth)).toEqual([other.id]);
    // Nobody else's lists change, the muted account's included.
    expect(await comments(muted.auth)).toEqual([top, mutedTop, otherTop]);
    expect(await comments(other.auth, `comments/${top}/replies`)).toEqual([mutedReply, otherReply]);
    expect((await reactors(muted.auth)).sort()).toEqual([muted.id, other.id].sort());

    // A short comments page (limit 2: top, mutedTop read) continues after the muted one.
    const first = await api("GET", `/api/locker-room/${post}/comments?limit=2`, { headers: viewer.auth });
    expect(first.body.data.comments.map((c: { id: string }) => c.id)).toEqual([top]);
    const next = await api("GET", `/api/locker-room/${post}/comments?limit=2&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, {
      headers: viewer.auth,
    });
    expect(next.body.data.comments.map((c: { id: string }) => c.id)).toEqual([otherTop]);
    expect(next.body.data.nextCursor).toBeUndefined();
  });

  it("stop the notifications the muted account causes (comments, replies, reactions, team posts) unless notifications is false", async () => {
    const [viewer, muted, other] = await Promise.all([poster(), poster(), poster()]);
    const team = await newTeam();
    const [p1, p2, p3] = await posts(team, [viewer, viewer, viewer]);
    expect((await mute(viewer.auth, { userId: muted.id })).status).toBe(201);
    const comment = (who: Who, postId: string) => api("POST", `/api/locker-room/${postId}/comments`, { headers: who.auth, json: { content: "hey" } });
    const react = (who: Who, postId: string) => api("PUT", `/api/locker-room/${postId}/reaction`, { headers: who.auth, json: { kind: "fire" } });

    expect((await comment(muted, p1!)).status).toBe(201);
    expect((await react(muted, p1!)).status).toBe(200);
    expect((await comment(other, p1!)).status).toBe(201);
    expect((await notes(viewer.id, p1!)).map((n) => n.type)).toEqual(["REPLY"]);

    // A team post by the muted account (team staff) reaches the team's followers but not the muter. (A seeded, live
    // team: an archived one cannot be posted as.)
    const live = "tm_irf";
    await db().teamFollow.createMany({ data: [viewer.id, other.id].map((userId) => ({ userId, teamId: live })) });
    await db().teamStaff.create({ data: { userId: muted.id, teamId: live } });
    const teamPost = await api("POST", "/api/locker-room", { headers: muted.auth, json: { content: "Official", authorTeamId: live } });
    expect(teamPost.status, teamPost.text).toBe(201);
    expect(await notes(viewer.id, teamPost.body.data.id)).toEqual([]);
    expect(await notes(other.id, teamPost.body.data.id)).toEqual([{ type: "TEAM_POST" }]);

    // notifications: false hides the posts but lets the notifications through.
    expect((await mute(viewer.auth, { userId: muted.id, notifications: false })).status).toBe(200);
    expect((await comment(muted, p2!)).status).toBe(201);
    expect(await notes(viewer.id, p2!)).toEqual([{ type: "REPLY" }]);

    expect((await unmute(viewer.auth, muted.id)).status).toBe(200);
    expect((await react(muted, p3!)).status).toBe(200);
    expect(await notes(viewer.id, p3!)).toEqual([{ type: "REACTION" }]);
  });

  it("a timed mute ends exactly at expiresAt, with no job: its row stays but hides nothing", async () => {
    const [viewer, muted] = await Promise.all([poster(), poster()]);
    const team = await newTeam();
    const [post] = await posts(team, [muted]);
    const expiresAt = new Date(Date.now() + 2500);
    const res = await mute(viewer.auth, { userId: muted.id, expiresAt: expiresAt.toISOString() });
    expect(res.status).toBe(201);
    expect(res.body.data.mute.expiresAt).toBe(expiresAt.toISOString());
    expect((await feedIds(viewer.auth, team)).ids).toEqual([]);
    expect(await mutesOf(viewer.auth)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt.getTime() - Date.now()) + 50));
    expect((await feedIds(viewer.auth, team)).ids).toEqual([post]);
    expect(await mutesOf(viewer.auth)).toEqual([]);
    expect(await db().userMute.count({ where: { muterId: viewer.id } })).toBe(1);
    // Muting again after it ended starts a new mute (201).
    expect((await mute(viewer.auth, { userId: muted.id })).status).toBe(201);
    expect((await feedIds(viewer.auth, team)).ids).toEqual([]);
  });

  it("400 naming the field for yourself, a bad id, a past expiresAt or a bad flag; 404 for an unknown user; 401 without a session", async () => {
    const viewer = await poster();
    const self = await mute(viewer.auth, { userId: viewer.id });
    expect([self.status, errorOf(self).code, errorOf(self).details?.[0]?.path]).toEqual([400, "CANNOT_MUTE_SELF", "body.userId"]);
    for (const [json, field] of [
      [{ userId: "nope" }, "body.userId"],
      [{}, "body.userId"],
      [{ userId: randomUUID(), expiresAt: new Date(Date.now() - 1000).toISOString() }, "body.expiresAt"],
      [{ userId: randomUUID(), expiresAt: "tomorrow" }, "body.expiresAt"],
      [{ userId: randomUUID(), notifications: "yes" }, "body.notifications"],
      [{ userId: randomUUID(), extra: 1 }, "body"],
    ] as const) {
      const res = await mute(viewer.auth, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(
        errorOf(res)
          .details!.map((d) => d.path)
          .join(" "),
      ).toContain(field);
    }
    const unknown = await mute(viewer.auth, { userId: randomUUID() });
    expect([unknown.status, errorOf(unknown).code]).toEqual([404, "NOT_FOUND"]);
    expect((await api("POST", MUTES, { json: { userId: randomUUID() } })).status).toBe(401);
    expect((await api("DELETE", `${MUTES}/not-a-uuid`, { headers: viewer.auth })).status).toBe(400);
    expect(await db().userMute.count({ where: { muterId: viewer.id } })).toBe(0);
  });

  it("at most 1,000 mutes, also when several mute at once; ended mutes do not count", async () => {
    const viewer = await poster();
    const tag = randomUUID().slice(0, 8);
    const others = await db().$queryRaw<{ id: string }[]>`
      INSERT INTO users (id, external_id, updated_at)
      SELECT gen_random_uuid(), 'user_mutecap_' || ${tag} || '_' || i, now() FROM generate_series(1, 1006) i
      RETURNING id::text AS id`;
    // 997 live mutes and one that ended: three more fit.
    await db().$executeRaw`
      INSERT INTO user_mutes (muter_id, muted_id, expires_at)
      SELECT ${viewer.id}::uuid, o.id::uuid, CASE WHEN o.n = 998 THEN now() - interval '1 second' END
      FROM unnest(${others.slice(0, 998).map((o) => o.id)}::text[]) WITH ORDINALITY AS o(id, n)`;
    const results = await Promise.all(others.slice(998).map((o) => mute(viewer.auth, { userId: o.id })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => errorOf(r).code === "MUTE_LIMIT")).toBe(true);
    expect(await db().userMute.count({ where: { muterId: viewer.id } })).toBe(1000);
    // Re-muting one already muted is an update, not a new mute: allowed at the cap.
    expect((await mute(viewer.auth, { userId: others[0]!.id, notifications: false })).status).toBe(200);
  });
});
