import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { uuidv7 } from "../../lib/db/ids";
import { api, db, errorOf, poster } from "../helpers";

// Keyword filters (GET, POST /api/v1/me/filters; PATCH, DELETE …/{filterId}): applied by the server in their contexts
// (feed, comments, notifications), case-insensitive and Unicode-aware, whole-word or not, literal text (never a regular
// expression), never hiding the caller's own posts; expiry; exact pages; caps under concurrency; 400s naming the field.

type Auth = Record<string, string>;
type Who = Awaited<ReturnType<typeof poster>>;
const FILTERS = "/api/v1/me/filters";

const addFilter = (auth: Auth, json: Record<string, unknown>) => api("POST", FILTERS, { headers: auth, json });
const kw = (...keywords: (string | [string, boolean])[]) => keywords.map((k) => (typeof k === "string" ? { keyword: k } : { keyword: k[0], wholeWord: k[1] }));

async function newTeam() {
  const id = `tm_ft_${randomUUID().slice(0, 8)}`;
  // Archived: out of the public team lists other files count; its feed (?teamId=) still reads.
  await db().team.create({ data: { id, slug: id, name: `Filter test ${id}`, archivedAt: new Date() } });
  return id;
}
async function posts(teamId: string, author: Who, contents: string[]) {
  const base = Date.now() - 60_000;
  const made = [];
  for (const [i, content] of contents.entries()) {
    made.push(await db().post.create({ data: { authorId: author.id, teamId, content, publishAt: new Date(base - i * 1000) } }));
  }
  return made.map((p) => p.id);
}
async function feed(auth: Auth, teamId: string, limit = 50, cursor?: string) {
  const res = await api("GET", `/api/locker-room?teamId=${teamId}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
    headers: auth,
  });
  expect(res.status, res.text).toBe(200);
  return { ids: (res.body.data.posts as { id: string }[]).map((p) => p.id), nextCursor: res.body.data.nextCursor as string | undefined };
}
async function walk(auth: Auth, teamId: string, limit: number) {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await feed(auth, teamId, limit, cursor);
    ids.push(...page.ids);
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe("keyword filters", () => {
  it("hide matching posts from the feed: case-insensitive, Unicode, whole-word or not, literal text, never the caller's own", async () => {
    const [viewer, author] = await Promise.all([poster(), poster()]);
    const team = await newTeam();
    const contents = [
      "What a GOAL!", // 0 goal (whole word)
      "Our goalkeeper was great", // 1 not a whole-word goal; "keeper" (part of a word) hides it
      "Un CAFÉ avant le match", // 2 café
      "Red   card for the captain", // 3 "red card" across a run of spaces
      "Score was a1b2", // 4 "a.b" is literal: no match
      "We need more a.b tactics", // 5 literal "a.b"
      "Derby day", // 6
      "#VAR again", // 7 "#var" whole-word (starts with a non-word character)
      "Σοφία scored", // 8 Greek, lower-cased keyword
    ];
    const ids = await posts(team, author, contents);
    const created = await addFilter(viewer.auth, {
      title: "Spoilers",
      keywords: kw("goal", ["keeper", false], "café", "red card", "a.b", "#var", "σοφία"),
      contexts: ["feed"],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.filter).toMatchObject({ title: "Spoilers", contexts: ["feed"], expiresAt: null, expired: false });
    expect(created.body.data.filter.keywords[1]).toEqual({ keyword: "keeper", wholeWord: false });

    expect((await feed(viewer.auth, team)).ids).toEqual([ids[4], ids[6]]);
    expect((await feed(author.auth, team)).ids).toEqual(ids);
    // The caller's own posts are never hidden.
    const [own] = await posts(team, viewer, ["my goal of the season"]);
    expect((await feed(viewer.auth, team)).ids).toContain(own);
  });

  it("apply per context: comments and notifications filters leave the feed alone", async () => {
    const [viewer, other] = await Promise.all([poster(), poster()]);
    const team = await newTeam();
    const [post] = await posts(team, viewer, ["Match thread: the referee was awful"]);
    const comment = async (content: string) =>
      (await api("POST", `/api/locker-room/${post}/comments`, { headers: other.auth, json: { content } })).body.data.id as string;
    const hidden = await comment("Total SPOILER: they win");
    const shown = await comment("Great atmosphere");
    const commentIds = async () =>
      ((await api("GET", `/api/locker-room/${post}/comments`, { headers: viewer.auth })).body.data.comments as { id: string }[]).map((c) => c.id);
    const inbox = async () =>
      ((await api("GET", "/api/notifications?filter=all", { headers: viewer.auth })).body.data.notifications as { payload: { commentId?: string } }[]).map(
        (n) => n.payload.commentId,
      );
    expect(await commentIds()).toEqual([hidden, shown]);
    expect((await inbox()).sort()).toEqual([hidden, shown].sort());

    const onComments = await addFilter(viewer.auth, { keywords: kw("spoiler", "referee"), contexts: ["comments"] });
    expect(onComments.body.data.filter.title).toBe("spoiler");
    expect(await commentIds()).toEqual([shown]);
    expect((await inbox()).sort()).toEqual([hidden, shown].sort());
    // A comments filter leaves the feed alone.
    const [referee] = await posts(team, other, ["The referee again"]);
    expect((await feed(viewer.auth, team)).ids).toContain(referee);

    const onInbox = await addFilter(viewer.auth, { keywords: kw("spoiler", "referee"), contexts: ["notifications"] });
    expect(onInbox.status).toBe(201);
    expect(await inbox()).toEqual([shown]);
    // A reaction's notification quotes the caller's own post ("referee"): never filtered.
    expect((await api("PUT", `/api/locker-room/${post}/reaction`, { headers: other.auth, json: { kind: "fire" } })).status).toBe(200);
    expect(await inbox()).toEqual([undefined, shown]);

    // PATCH narrows and widens; DELETE removes.
    const id = onComments.body.data.filter.id as string;
    const patched = await api("PATCH", `${FILTERS}/${id}`, { headers: viewer.auth, json: { keywords: kw("atmosphere") } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.filter.keywords).toEqual([{ keyword: "atmosphere", wholeWord: true }]);
    expect(await commentIds()).toEqual([hidden]);
    expect((await api("DELETE", `${FILTERS}/${id}`, { headers: viewer.auth })).body.data).toEqual({ removed: true });
    expect((await api("DELETE", `${FILTERS}/${id}`, { headers: viewer.auth })).status).toBe(404);
    expect(await commentIds()).toEqual([hidden, shown]);
    // Another user's filter is 404 to change or remove.
    const otherFilter = (await addFilter(other.auth, { keywords: kw("x"), contexts: ["feed"] })).body.data.filter.id as string;
    expect((await api("PATCH", `${FILTERS}/${otherFilter}`, { headers: viewer.auth, json: { title: "mine" } })).status).toBe(404);
    expect((await api("DELETE", `${FILTERS}/${otherFilter}`, { headers: viewer.auth })).status).toBe(404);
    const listed = (await api("GET", FILTERS, { headers: viewer.auth })).body.data.filters as { id: string }[];
    expect(listed.map((f) => f.id)).toEqual([onInbox.body.data.filter.id]);
  });

  it("keep pages exact: filtered posts and notifications in a page's middle give a short page whose cursor skips and repeats nothing", async () => {
    const [viewer, author] = await Promise.all([poster(), poster()]);
    const team = await newTeam();
    const contents = ["one", "two spoiler", "three", "four SPOILER", "five", "six", "seven spoiler", "eight"];
    const ids = await posts(team, author, contents);
    expect((await addFilter(viewer.auth, { keywords: kw("spoiler"), contexts: ["feed", "notifications"] })).status).toBe(201);
    const visible = ids.filter((_, i) => !contents[i]!.toLowerCase().includes("spoiler"));
    const page1 = await feed(viewer.auth, team, 3);
    expect(page1.ids).toEqual([ids[0], ids[2]]);
    const page2 = await feed(viewer.auth, team, 3, page1.nextCursor);
    expect(page2.ids).toEqual([ids[4], ids[5]]);
    for (const limit of [1, 2, 3, 4, 8]) expect(await walk(viewer.auth, team, limit)).toEqual(visible);

    // The inbox: notifications written newest last; the filtered ones drop out of their pages.
    const bodies = ["n1", "n2 spoiler", "n3", "n4"];
    const noteIds: string[] = [];
    for (const body of bodies) {
      const id = uuidv7();
      await db().notification.create({
        data: {
          id,
          userId: viewer.id,
          type: "MILESTONE",
          causeKey: `test:${id}`,
          payload: { metric: "rep_balance", threshold: 100, title: "t", body, href: "/api/rewards" },
        },
      });
      noteIds.push(id);
      await new Promise((r) => setTimeout(r, 2));
    }
    const inboxPage = (cursor?: string) =>
      api("GET", `/api/notifications?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers: viewer.auth });
    const n1 = await inboxPage();
    expect(n1.body.data.notifications.map((n: { id: string }) => n.id)).toEqual([noteIds[3], noteIds[2]]);
    const n2 = await inboxPage(n1.body.data.nextCursor);
    expect(n2.body.data.notifications.map((n: { id: string }) => n.id)).toEqual([noteIds[0]]); // n2 read and left out
    expect(n2.body.data.nextCursor).toBeUndefined();
  });

  it("expire: a filter stops applying exactly at expiresAt, stays listed as expired, and a new expiresAt brings it back", async () => {
    const [viewer, author] = await Promise.all([poster(), poster()]);
    const team = await newTeam();
    const [post] = await posts(team, author, ["Transfer rumours again"]);
    const expiresAt = new Date(Date.now() + 2500);
    const res = await addFilter(viewer.auth, { keywords: kw("rumours"), contexts: ["feed"], expiresAt: expiresAt.toISOString() });
    expect(res.status).toBe(201);
    expect(res.body.data.filter.expiresAt).toBe(expiresAt.toISOString());
    expect((await feed(viewer.auth, team)).ids).toEqual([]);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt.getTime() - Date.now()) + 50));
    expect((await feed(viewer.auth, team)).ids).toEqual([post]);
    const [listed] = (await api("GET", FILTERS, { headers: viewer.auth })).body.data.filters;
    expect(listed).toMatchObject({ id: res.body.data.filter.id, expired: true });
    const renewed = await api("PATCH", `${FILTERS}/${listed.id}`, { headers: viewer.auth, json: { expiresAt: null } });
    expect(renewed.body.data.filter).toMatchObject({ expiresAt: null, expired: false });
    expect((await feed(viewer.auth, team)).ids).toEqual([]);
  });

  it("at most 100 filters and 200 keywords in all, also under concurrent requests", async () => {
    const viewer = await poster();
    const keywords = JSON.stringify([{ keyword: "k", wholeWord: true }]);
    await db().$executeRaw`
      INSERT INTO keyword_filters (id, user_id, title, keywords, contexts)
      SELECT gen_random_uuid(), ${viewer.id}::uuid, 'f' || i, ${keywords}::jsonb, ARRAY['feed'] FROM generate_series(1, 97) i`;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => addFilter(viewer.auth, { keywords: kw(`word${i}`), contexts: ["feed"] })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => errorOf(r).code === "FILTER_LIMIT")).toBe(true);
    expect(await db().keywordFilter.count({ where: { userId: viewer.id } })).toBe(100);

    // Keywords in all: 100 filters of 1 keyword; one grown to 10 at once from several requests stays within 200.
    const other = await poster();
    const nine = JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ keyword: `w${i}`, wholeWord: true })));
    await db().$executeRaw`
      INSERT INTO keyword_filters (id, user_id, title, keywords, contexts)
      SELECT gen_random_uuid(), ${other.id}::uuid, 'f' || i, ${nine}::jsonb, ARRAY['feed'] FROM generate_series(1, 18) i`;
    const ten = kw(...Array.from({ length: 10 }, (_, i) => `x${i}`));
    const more = await Promise.all(Array.from({ length: 4 }, () => addFilter(other.auth, { keywords: ten, contexts: ["comments"] })));
    expect(more.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
    const [total] = await db().$queryRaw<{ n: number }[]>`
      SELECT sum(jsonb_array_length(keywords))::int AS n FROM keyword_filters WHERE user_id = ${other.id}::uuid`;
    expect(total!.n).toBe(200);
  });

  it("400 naming the field for bad bodies; 404 for unknown ids; 401 without a session; nothing stored", async () => {
    const viewer = await poster();
    for (const [json, field] of [
      [{ keywords: [], contexts: ["feed"] }, "body.keywords"],
      [{ contexts: ["feed"] }, "body.keywords"],
      [{ keywords: kw("   "), contexts: ["feed"] }, "body.keywords.0.keyword"],
      [{ keywords: kw("x".repeat(61)), contexts: ["feed"] }, "body.keywords.0.keyword"],
      [{ keywords: kw(...Array.from({ length: 11 }, (_, i) => `k${i}`)), contexts: ["feed"] }, "body.keywords"],
      [{ keywords: kw("a"), contexts: [] }, "body.contexts"],
      [{ keywords: kw("a"), contexts: ["home"] }, "body.contexts.0"],
      [{ keywords: kw("a"), contexts: ["feed"], expiresAt: new Date(Date.now() - 1000).toISOString() }, "body.expiresAt"],
      [{ keywords: kw("a"), contexts: ["feed"], title: "" }, "body.title"],
      [{ keywords: kw("a\u0000b"), contexts: ["feed"] }, "body.keywords.0.keyword"],
      [{ keywords: kw("a"), contexts: ["feed"], title: "x\u0007" }, "body.title"],
      [{ keywords: [{ keyword: "a", wholeWord: "yes" }], contexts: ["feed"] }, "body.keywords.0.wholeWord"],
    ] as const) {
      const res = await addFilter(viewer.auth, json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(errorOf(res).details!.map((d) => d.path)).toContain(field);
    }
    const id = (await addFilter(viewer.auth, { keywords: kw("ok"), contexts: ["feed"] })).body.data.filter.id as string;
    expect((await api("PATCH", `${FILTERS}/${id}`, { headers: viewer.auth, json: {} })).status).toBe(400);
    expect((await api("PATCH", `${FILTERS}/${id}`, { headers: viewer.auth, json: { contexts: ["nowhere"] } })).status).toBe(400);
    expect((await api("PATCH", `${FILTERS}/${randomUUID()}`, { headers: viewer.auth, json: { title: "x" } })).status).toBe(404);
    expect((await api("PATCH", `${FILTERS}/not-a-uuid`, { headers: viewer.auth, json: { title: "x" } })).status).toBe(400);
    expect((await api("GET", FILTERS)).status).toBe(401);
    expect(await db().keywordFilter.count({ where: { userId: viewer.id } })).toBe(1);
  });
});
