import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { signSessionToken } from "../../lib/auth/sign";
import { api, db, errorOf, newUser, poster } from "../helpers";

// GET /api/v1/search: one type per call. Posts by full-text search (stemmed in the query's language, also exact
// words), newest first, through the feed's visibility, mutes and keyword filters; users, teams, players and cards by
// trigram similarity. Every test searches for words of its own (a random token), so the shared database's other
// posts and names never meet its results.

type Auth = Record<string, string>;
const SEARCH = "/api/v1/search";
const search = (query: Record<string, string>, auth: Auth = {}) => api("GET", `${SEARCH}?${new URLSearchParams(query)}`, { headers: auth });
const ids = (res: { body: { data: { results: { id: string }[] } } }) => res.body.data.results.map((r) => r.id);
/** A word no other test writes: letters only, so no configuration splits or stems it. */
const token = () => `zq${Array.from(randomBytes(8), (b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]).join("")}x`;
const newPost = (authorId: string, content: string, data: Record<string, unknown> = {}) =>
  db().post.create({ data: { authorId, content, publishAt: new Date(Date.now() - 1000), ...data } });

/** Every page of a search, following nextCursor. */
async function allPages(query: Record<string, string>, auth: Auth = {}) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const res = await search({ ...query, ...(cursor ? { cursor } : {}) }, auth);
    expect(res.status).toBe(200);
    seen.push(...ids(res));
    cursor = res.body.data.nextCursor;
    if (!cursor) break;
  }
  return seen;
}

describe("search: posts", () => {
  it("finds by stemmed word both ways (goals → goal, goal → goals), the feed's post for each, exact words across languages", async () => {
    const author = await poster();
    const t = token();
    const plural = await newPost(author.id, `Three goals tonight ${t}`);
    const singular = await newPost(author.id, `What a goal, ${t}!`, { publishAt: new Date(Date.now() - 2000) });
    const other = await newPost(author.id, `Nothing scored ${t}`, { publishAt: new Date(Date.now() - 3000) });

    const res = await search({ q: `goals ${t}`, type: "posts" });
    expect(res.status).toBe(200);
    expect(res.body.data.type).toBe("posts");
    expect(ids(res)).toEqual([plural.id, singular.id]);
    expect(ids(await search({ q: `goal ${t}`, type: "posts" }))).toEqual([plural.id, singular.id]);
    expect(ids(await search({ q: t, type: "posts" }))).toEqual([plural.id, singular.id, other.id]);
    // Web-search syntax: -word.
    expect(ids(await search({ q: `${t} -goal`, type: "posts" }))).toEqual([other.id]);
    // Each item is the post as the feed serializes it.
    const feedPost = (await api("GET", `/api/locker-room/${plural.id}`, { headers: author.auth })).body.data;
    expect((await search({ q: `goals ${t}`, type: "posts", limit: "1" }, author.auth)).body.data.results[0]).toEqual(feedPost);

    // A German post (language on create): stemmed in German for a German query, exact words for any query.
    const created = await api("POST", "/api/locker-room", { headers: author.auth, json: { content: `Die Spiele waren stark ${t}`, language: "de" } });
    expect(created.status).toBe(201);
    expect((await db().post.findUniqueOrThrow({ where: { id: created.body.data.id } })).language).toBe("de");
    expect(ids(await search({ q: `Spiel ${t}`, type: "posts", language: "de" }))).toEqual([created.body.data.id]);
    expect(ids(await search({ q: `Spiele ${t}`, type: "posts" }))).toEqual([created.body.data.id]);
    const bad = await api("POST", "/api/locker-room", { headers: author.auth, json: { content: "x", language: "german" } });
    expect([bad.status, errorOf(bad).details?.[0]?.path]).toEqual([400, "body.language"]);

    // An edit re-indexes the post (the search vector follows content): the old words no longer find it, the new ones do.
    const edited = await api("PATCH", `/api/locker-room/${created.body.data.id}`, { headers: author.auth, json: { content: `Ein Elfmeter ${t}` } });
    expect(edited.status, edited.text).toBe(200);
    expect(ids(await search({ q: `Spiele ${t}`, type: "posts" }))).toEqual([]);
    expect(ids(await search({ q: `Elfmeter ${t}`, type: "posts" }))).toEqual([created.body.data.id]);
  });

  it("pages newest first by (publish time, id) and never repeat or skip, equal times included", async () => {
    const author = await poster();
    const t = token();
    const base = Date.now() - 60_000;
    const times = [base, base + 1000, base + 1000, base + 1000, base + 2000, base + 3000, base - 5000];
    const posts = await Promise.all(times.map((at, i) => newPost(author.id, `Match ${i} ${t}`, { publishAt: new Date(at) })));
    const expected = posts
      .map((p, i) => ({ id: p.id, at: times[i]! }))
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((p) => p.id);
    for (const limit of ["1", "2", "3"]) expect(await allPages({ q: t, type: "posts", limit })).toEqual(expected);
  });

  it("never shows a post blocked either way, muted, keyword-filtered, private to a team the caller is no fan of, hidden, deleted or scheduled", async () => {
    const [author, blocker, blocked, muted, reader] = await Promise.all([poster(), poster(), poster(), poster(), poster()]);
    const t = token();
    const secret = token();
    const kept = await newPost(author.id, `kept ${t}`);
    const own = await newPost(reader.id, `mine ${t} ${secret}`);
    const invisible = await Promise.all([
      newPost(blocker.id, `by a blocker ${t}`),
      newPost(blocked.id, `by the blocked ${t}`),
      newPost(muted.id, `by the muted ${t}`),
      newPost(author.id, `filtered ${t} ${secret}`),
      newPost(author.id, `private ${t}`, { teamId: "tm_smp", visibility: "PRIVATE" }),
      newPost(author.id, `hidden ${t}`, { hiddenAt: new Date(), hiddenBy: "user_staff" }),
      newPost(author.id, `deleted ${t}`, { deletedAt: new Date() }),
      newPost(author.id, `scheduled ${t}`, { publishAt: new Date(Date.now() + 3_600_000), scheduled: true }),
    ]);
    const [byBlocker, byBlocked, byMuted, filtered, priv] = invisible;
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: reader.id } });
    await db().userBlock.create({ data: { blockerId: reader.id, blockedId: blocked.id } });
    expect((await api("POST", "/api/user/mutes", { headers: reader.auth, json: { userId: muted.id } })).status).toBeLessThan(300);
    const filter = { title: "spoilers", keywords: [{ keyword: secret, wholeWord: true }], contexts: ["feed"] };
    expect((await api("POST", "/api/v1/me/filters", { headers: reader.auth, json: filter })).status).toBe(201);

    // The reader: neither invisible post; their own post despite their filter.
    expect(new Set(await allPages({ q: t, type: "posts", limit: "2" }, reader.auth))).toEqual(new Set([kept.id, own.id]));
    // Signed out: public, live, published posts only (blocks, mutes and filters are the reader's).
    expect(new Set(await allPages({ q: t, type: "posts" }))).toEqual(new Set([kept.id, own.id, byBlocker!.id, byBlocked!.id, byMuted!.id, filtered!.id]));
    // A fan of the team sees its private post.
    const fanOf = await poster();
    expect((await api("POST", "/api/teams/tm_smp/follow", { headers: fanOf.auth })).status).toBeLessThan(300);
    expect(await allPages({ q: t, type: "posts" }, fanOf.auth)).toContain(priv!.id);
    expect(await allPages({ q: t, type: "posts" }, fanOf.auth)).not.toContain(invisible[5]!.id);
  });

  it("a q of only stop words or punctuation finds nothing (200, empty)", async () => {
    for (const q of ["the", "and of the", "!!! ???", "-", '"'])
      expect([q, (await search({ q, type: "posts" })).status, (await search({ q, type: "posts" })).body.data]).toEqual([
        q,
        200,
        { type: "posts", results: [] },
      ]);
  });
});

describe("search: names", () => {
  it("users by handle with a typo, exact handle first then prefixes, by display name; never blocked either way, erased or awaiting deletion", async () => {
    const [exact, prefixed, similar, byName, blocker, blocked, erased, leaving, reader] = await Promise.all(Array.from({ length: 9 }, () => poster()));
    const t = token();
    const set = (u: { id: string }, handle: string | null, displayName: string | null = null) =>
      db().user.update({ where: { id: u.id }, data: { handle, handleKey: handle?.toLowerCase() ?? null, displayName } });
    await set(exact, t);
    await set(prefixed, `${t}_fc`);
    await set(similar, `x${t.slice(0, -1)}`);
    await set(byName, `other_${randomUUID().slice(0, 8)}`, `The ${t} Supporter`);
    await set(blocker, `${t}_blocker`);
    await set(blocked, `${t}_blocked`);
    await set(erased, null);
    await db().user.update({ where: { id: erased.id }, data: { handleKey: `${t}_erased` } });
    await set(leaving, `${t}_leaving`);
    await db().accountDeletion.create({ data: { userId: leaving.id, dueAt: new Date(Date.now() + 86_400_000), notBefore: new Date(Date.now() + 86_400_000) } });
    await db().userBlock.create({ data: { blockerId: blocker.id, blockedId: reader.id } });
    await db().userBlock.create({ data: { blockerId: reader.id, blockedId: blocked.id } });

    const found = await allPages({ q: t, type: "users", limit: "2" }, reader.auth);
    expect(found.slice(0, 2)).toEqual([exact.id, prefixed.id]);
    expect(new Set(found)).toEqual(new Set([exact.id, prefixed.id, similar.id, byName.id]));
    // A typo still finds the handle.
    const typo = `${t.slice(0, 3)}${t.slice(4)}`;
    expect(await allPages({ q: typo, type: "users" }, reader.auth)).toContain(exact.id);
    // Signed out, no blocks apply; erased and leaving accounts never show.
    const anonymous = new Set(await allPages({ q: t, type: "users" }));
    expect(anonymous.has(blocker.id) && anonymous.has(blocked.id)).toBe(true);
    expect(anonymous.has(erased.id) || anonymous.has(leaving.id)).toBe(false);
    const item = (await search({ q: t, type: "users", limit: "1" })).body.data.results[0];
    expect(item).toEqual({ id: exact.id, handle: t, displayName: null, avatarUrl: null });
  });

  it("teams by name, short name or city (not archived), players by name, cards by name: typos tolerated, pages never repeat", async () => {
    // Seeded teams and players: a test team or player would change the public lists other files count.
    const t = token();
    const team = await db().team.findUniqueOrThrow({ where: { id: "tm_ccc" } }); // Copper Canyon Coyotes
    const archived = await db().team.create({
      data: { id: `tm_s_${t}`, slug: `s-${t}`, name: `${team.name} Old`, city: team.city, archivedAt: new Date() },
    });
    expect(ids(await search({ q: "Coyots", type: "teams" }))).toContain(team.id); // a typo in the short name
    expect(ids(await search({ q: "Coper Canyon", type: "teams" }))).toContain(team.id); // the name and city
    for (const q of [team.name, team.city!]) expect(ids(await search({ q, type: "teams", limit: "50" }))).not.toContain(archived.id);
    const pages = await allPages({ q: "Harbor", type: "teams", limit: "1" }); // Harbor City Hawks, Maple Harbor Moose
    expect(pages).toEqual(expect.arrayContaining(["tm_hch"]));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(new Set(pages).size).toBe(pages.length);

    const player = await db().player.findUniqueOrThrow({ where: { id: "pl_ccc_02" } }); // Noah Lindqvist
    const players = await search({ q: "Lindqvst", type: "players" });
    expect(ids(players)).toContain(player.id);
    expect(players.body.data.results.find((p: { id: string }) => p.id === player.id).team.id).toBe("tm_ccc");
    const inactive = await db().player.create({ data: { id: `pl_s_${t}`, teamId: "tm_ccc", name: `Jonas ${t}`, active: false } });
    expect(ids(await search({ q: `Jonas ${t}`, type: "players" }))).not.toContain(inactive.id);

    const cards = await Promise.all(
      ["Gold", "Silver", "Bronze"].map((n, i) =>
        db().collectibleCard.create({ data: { id: `cc_s_${t}_${i}`, kind: "team", teamId: "tm_ccc", name: `${t} ${n}`, rarity: "common", editionSize: 10 } }),
      ),
    );
    expect(new Set(await allPages({ q: t, type: "cards", limit: "1" }))).toEqual(new Set(cards.map((c) => c.id)));
    const card = (await search({ q: `${t} gold`, type: "cards", limit: "1" })).body.data.results[0];
    expect(card).toMatchObject({ id: cards[0]!.id, name: `${t} Gold`, rarity: "common", editionSize: 10, minted: 0 });
  });
});

describe("search: input", () => {
  it("400 naming the parameter for a missing, empty or too long q, an unknown type, a bad language, limit or cursor", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ type: "posts" }, "query.q"],
      [{ q: "", type: "posts" }, "query.q"],
      [{ q: "   ", type: "posts" }, "query.q"],
      [{ q: "a".repeat(101), type: "users" }, "query.q"],
      [{ q: "goal" }, "query.type"],
      [{ q: "goal", type: "hashtags" }, "query.type"],
      [{ q: "goal", type: "posts", language: "english" }, "query.language"],
      [{ q: "goal", type: "posts", limit: "0" }, "query.limit"],
      [{ q: "goal", type: "posts", limit: "51" }, "query.limit"],
      [{ q: "goal", type: "posts", cursor: "nope!" }, "query.cursor"],
      [{ q: "goal", type: "users", cursor: Buffer.from(JSON.stringify(["v1", "1.5", "not-a-uuid"])).toString("base64url") }, "query.cursor"],
      [{ q: "goal", type: "teams", cursor: Buffer.from(JSON.stringify(["v1", "1732000000000", "x"])).toString("base64url") }, "query.cursor"],
      [{ q: "goal", type: "posts", cursor: Buffer.from(JSON.stringify(["v1", "1.5", randomUUID()])).toString("base64url") }, "query.cursor"],
    ];
    for (const [query, path] of cases) {
      const res = await search(query);
      expect([query, res.status, errorOf(res).code, errorOf(res).details?.map((d) => d.path)]).toEqual([query, 400, "VALIDATION_ERROR", [path]]);
    }
    // 100 characters after trimming is fine.
    expect((await search({ q: `  ${"b".repeat(100)}  `, type: "users" })).status).toBe(200);
    const unknown = await search({ q: "goal", type: "hashtags" });
    expect(errorOf(unknown).details?.[0]?.message).toMatch(/posts, users, teams, players, cards/);
  });
});

describe("search: hostile queries", () => {
  const run = (s: string, n: number) => s.repeat(n);
  // websearch_to_tsquery stacks each `-` before a word on a stack of 32: past it, "tsquery stack too small" (a 500).
  const STACKING = [
    run("-", 17),
    run("-", 33),
    run("-", 100),
    `${run("- ", 40)}goal`,
    `goal ${run("-!", 40)}x`,
    run("-|", 50),
    run("-(", 50),
    run("-)", 50),
    run("-&", 50),
    run("-<", 50),
    `"a" ${run("-\t", 40)}b`,
  ];
  const OTHERS = [
    run("!", 100),
    run("|", 100),
    run("&", 100),
    run("(", 100),
    run(")", 100),
    run('"', 100),
    run("<->", 33),
    run("<", 100),
    run(":*", 50),
    run("\\", 100),
    run("%", 100),
    run("'", 100),
    run("or ", 33),
    run("-or ", 25),
    run("a or ", 20),
    run("-a ", 33),
    run('-"a ', 25),
    run("a-", 50),
    run("--a ", 25),
    `${run("-", 16)}goal`,
    "\u0000",
    "goal\u0000",
    "\uFFFD\uFFFE",
    "𝔤𝔬𝔞𝔩",
    "_%\\",
    "' OR 1=1 --",
  ];

  it("a posts q stacking more than 16 `-` (not) operators before a word is 400 naming query.q; 16 still searches", async () => {
    for (const q of STACKING) {
      const res = await search({ q, type: "posts" });
      expect([q, res.status, errorOf(res).code, errorOf(res).details]).toEqual([
        q,
        400,
        "VALIDATION_ERROR",
        [{ path: "query.q", message: "A posts query may stack at most 16 - (not) operators before a word" }],
      ]);
    }
    // Names have no operators: the same q is a name search like any other.
    expect((await search({ q: run("-", 33), type: "users" })).status).toBe(200);
    // Sixteen in a row, and any number apart (one per word), still search: `--goal` is `!!goal`.
    const word = token();
    const { id } = await poster();
    const post = await newPost(id, `${word} pitch report`);
    for (const q of [`${run("-", 16)}${word}`, `${run("-x ", 25)}${word}`]) {
      const res = await search({ q, type: "posts" });
      expect([q, res.status, res.body.data?.results.map((r: { id: string }) => r.id)]).toEqual([q, 200, [post.id]]);
    }
    // Fifteen: not the word (every other post).
    const odd = await search({ q: `${run("-", 15)}${word}`, type: "posts" });
    expect(odd.status).toBe(200);
    expect(ids(odd)).not.toContain(post.id);
  });

  it("no search endpoint answers 5xx for hostile q", { timeout: 120_000 }, async () => {
    const staff = signSessionToken(inject("privateKey"), `user_search_staff_${randomUUID().slice(0, 8)}`, {
      admin: true,
      extra: { azp: "https://admin.example.com" },
    });
    const failures: string[] = [];
    let ip = 0;
    for (const q of [...STACKING, ...OTHERS]) {
      // A fresh fan and address per q: the sweep stays under the search policy's per-user and per-address limits.
      const { auth } = newUser();
      const from = { "x-forwarded-for": `198.51.100.${(ip++ % 250) + 1}, 10.0.0.1` };
      const qs = (extra: Record<string, string>) => new URLSearchParams({ q, ...extra });
      const answers = [
        ...["posts", "users", "teams", "players", "cards"].flatMap((type) => [
          api("GET", `${SEARCH}?${qs({ type })}`, { headers: auth }),
          api("GET", `${SEARCH}?${qs({ type })}`, { headers: from }),
        ]),
        api("GET", `${SEARCH}?${qs({ type: "posts", language: "de" })}`, { headers: auth }),
        api("GET", `/api/leaderboard/search?${qs({})}`, { headers: auth }),
        api("GET", `/api/teams/search?${qs({})}`, { headers: auth }),
        api("GET", `/admin/search?${qs({})}`, { headers: { cookie: `__session=${staff}` } }),
        api("GET", `/admin/teams?${qs({})}`, { headers: { cookie: `__session=${staff}` } }),
      ];
      for (const res of await Promise.all(answers)) {
        if (res.status >= 500 || res.status === 429) failures.push(`${JSON.stringify(q).slice(0, 40)} → ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
