import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";

// Starred teams (HQ bookmarks): GET/POST /api/me/starred-teams, PUT/DELETE /api/me/starred-teams/{teamId}.

const LIST = "/api/me/starred-teams";
const one = (teamId: string) => `/api/me/starred-teams/${encodeURIComponent(teamId)}`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CAP = 50;

/** A new user whose row already exists (the first authenticated request creates it). */
async function signedUp() {
  const user = newUser();
  const res = await api("GET", LIST, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

/** Stars `n` ids directly in the database (arrangement only). */
async function seedStars(userId: string, n: number, prefix = "seed") {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}_${String(i).padStart(3, "0")}`);
  await db().starredTeam.createMany({ data: ids.map((teamId) => ({ userId, teamId, name: `Club ${teamId}` })) });
  return ids;
}

const starCount = (userId: string) => db().starredTeam.count({ where: { userId } });

async function hawks() {
  const t = await db().team.findUniqueOrThrow({ where: { id: "tm_hch" } });
  expect(t).toMatchObject({ slug: "harbor-city-hawks", name: "Harbor City Hawks", source: "provider", providerId: "prov_101" });
  return t;
}

describe("GET /api/me/starred-teams", () => {
  it("answers an empty list in the envelope for a new user", async () => {
    const { auth } = newUser();
    const res = await api("GET", LIST, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { teams: [] } });
  });

  it.each([
    ["GET", LIST],
    ["POST", LIST],
    ["PUT", one("tm_hch")],
    ["DELETE", one("tm_hch")],
  ])("%s %s without a token is 401 UNAUTHORIZED", async (method, path) => {
    const res = await api(method, path, { json: method === "POST" ? { teams: [{ id: "tm_hch" }] } : undefined });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });

  it("rejects a malformed or wrongly signed token with 401", async () => {
    const bad = await api("GET", LIST, { headers: { authorization: "Bearer not.a.jwt" } });
    expect(bad.status).toBe(401);
    expect(errorOf(bad).code).toBe("UNAUTHORIZED");
    const scheme = await api("GET", LIST, { headers: { authorization: "Basic abc" } });
    expect(scheme.status).toBe(401);
    expect(errorOf(scheme).code).toBe("UNAUTHORIZED");
  });

  it("lists every star, newest first, with live team data where a row exists", async () => {
    const { auth, userId } = await signedUp();
    const t = await hawks();
    await db().starredTeam.createMany({
      data: [
        { userId, teamId: "prov_old", name: "Old", slug: "old", logo: null, starredAt: new Date("2026-01-01T00:00:00.000Z") },
        { userId, teamId: "tm_hch", name: "Stale", starredAt: new Date("2026-02-01T00:00:00.000Z") },
      ],
    });
    const res = await api("GET", LIST, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        teams: [
          { id: "tm_hch", slug: t.slug, name: t.name, logo: t.logo, source: "provider", providerId: "prov_101", starredAt: "2026-02-01T00:00:00.000Z" },
          { id: "prov_old", slug: "old", name: "Old", logo: null, source: null, providerId: null, starredAt: "2026-01-01T00:00:00.000Z" },
        ],
      },
    });
  });
});

describe("PUT /api/me/starred-teams/{teamId}", () => {
  it("stars a seeded team with no body: bare { starred, team } from the live row", async () => {
    const { auth, sub } = newUser();
    const t = await hawks();
    const before = Date.now();
    const res = await api("PUT", one("tm_hch"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      starred: true,
      team: {
        id: "tm_hch",
        slug: "harbor-city-hawks",
        name: "Harbor City Hawks",
        logo: t.logo,
        source: "provider",
        providerId: "prov_101",
        starredAt: expect.stringMatching(ISO),
      },
    });
    const at = Date.parse(res.body.team.starredAt);
    expect(at).toBeGreaterThanOrEqual(before - 5_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 5_000);

    const list = await api("GET", LIST, { headers: auth });
    expect(list.body).toEqual({ success: true, data: { teams: [res.body.team] } });
    const userId = await userIdOf(sub);
    expect(await db().starredTeam.findMany({ where: { userId } })).toEqual([
      { userId, teamId: "tm_hch", slug: null, name: null, logo: null, starredAt: new Date(res.body.team.starredAt) },
    ]);
  });

  it("works with an empty JSON object body too", async () => {
    const { auth } = newUser();
    const res = await api("PUT", one("prov_empty"), { headers: auth, json: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      starred: true,
      team: { id: "prov_empty", slug: null, name: null, logo: null, source: null, providerId: null, starredAt: expect.stringMatching(ISO) },
    });
  });

  it("is idempotent: a second PUT keeps starredAt and one row", async () => {
    const { auth, sub } = newUser();
    const first = await api("PUT", one("tm_hch"), { headers: auth });
    expect(first.status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const second = await api("PUT", one("tm_hch"), { headers: auth });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const third = await api("PUT", one("tm_hch"), { headers: auth, json: { name: "x" } });
    expect(third.status).toBe(200);
    expect(third.body.team.starredAt).toBe(first.body.team.starredAt);
    expect(await starCount(await userIdOf(sub))).toBe(1);
  });

  it("allows an id with no team row: source and providerId null, snapshot values returned", async () => {
    const { auth, sub } = newUser();
    const res = await api("PUT", one("prov_club_9001"), {
      headers: auth,
      json: { slug: "river-fc", name: "River FC", logo: "https://cdn.example.com/river.png" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      starred: true,
      team: {
        id: "prov_club_9001",
        slug: "river-fc",
        name: "River FC",
        logo: "https://cdn.example.com/river.png",
        source: null,
        providerId: null,
        starredAt: expect.stringMatching(ISO),
      },
    });
    const row = await db().starredTeam.findUniqueOrThrow({
      where: { userId_teamId: { userId: await userIdOf(sub), teamId: "prov_club_9001" } },
    });
    expect(row).toMatchObject({ slug: "river-fc", name: "River FC", logo: "https://cdn.example.com/river.png" });
  });

  it("refreshes only the snapshot keys sent", async () => {
    const { auth } = newUser();
    const first = await api("PUT", one("prov_a"), { headers: auth, json: { slug: "a", name: "A", logo: "l" } });
    expect(first.status).toBe(200);
    const second = await api("PUT", one("prov_a"), { headers: auth, json: { name: "B" } });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      starred: true,
      team: { id: "prov_a", slug: "a", name: "B", logo: "l", source: null, providerId: null, starredAt: first.body.team.starredAt },
    });
    // No body at all changes nothing.
    const third = await api("PUT", one("prov_a"), { headers: auth });
    expect(third.body).toEqual(second.body);
    const list = await api("GET", LIST, { headers: auth });
    expect(list.body.data.teams).toEqual([second.body.team]);
  });

  it("clears a value on explicit null and keeps the others", async () => {
    const { auth, sub } = newUser();
    await api("PUT", one("prov_n"), { headers: auth, json: { slug: "n", name: "N", logo: "l" } });
    const res = await api("PUT", one("prov_n"), { headers: auth, json: { logo: null, name: null } });
    expect(res.status).toBe(200);
    expect(res.body.team).toMatchObject({ slug: "n", name: null, logo: null });
    const row = await db().starredTeam.findUniqueOrThrow({ where: { userId_teamId: { userId: await userIdOf(sub), teamId: "prov_n" } } });
    expect(row).toMatchObject({ slug: "n", name: null, logo: null });
  });

  it("shows the live team row over the snapshot (the snapshot is still stored)", async () => {
    const { auth, sub } = newUser();
    const t = await hawks();
    const res = await api("PUT", one("tm_hch"), { headers: auth, json: { name: "Fake", slug: "fake", logo: "https://evil.example/x.png" } });
    expect(res.status).toBe(200);
    expect(res.body.team).toEqual({
      id: "tm_hch",
      slug: "harbor-city-hawks",
      name: "Harbor City Hawks",
      logo: t.logo,
      source: "provider",
      providerId: "prov_101",
      starredAt: expect.stringMatching(ISO),
    });
    const list = await api("GET", LIST, { headers: auth });
    expect(list.body.data.teams).toEqual([res.body.team]);
    const row = await db().starredTeam.findUniqueOrThrow({ where: { userId_teamId: { userId: await userIdOf(sub), teamId: "tm_hch" } } });
    expect(row).toMatchObject({ name: "Fake", slug: "fake", logo: "https://evil.example/x.png" });
  });

  it("can star the archived team (a bookmark, not a team lookup)", async () => {
    const { auth, sub } = newUser();
    const res = await api("PUT", one("tm_dvs"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ starred: true, team: { id: "tm_dvs", starredAt: expect.stringMatching(ISO) } });
    expect(await starCount(await userIdOf(sub))).toBe(1);
  });

  it("creates no team follow", async () => {
    const { auth, sub } = newUser();
    expect((await api("PUT", one("tm_hch"), { headers: auth })).status).toBe(200);
    const merged = await api("POST", LIST, { headers: auth, json: { teams: [{ id: "tm_fpb" }] } });
    expect(merged.status).toBe(200);
    const userId = await userIdOf(sub);
    expect(await db().teamFollow.count({ where: { userId } })).toBe(0);
    expect(await db().teamMember.count({ where: { userId } })).toBe(0);
    expect(await starCount(userId)).toBe(2);
  });

  it("rejects an unknown body key with 400 VALIDATION_ERROR and stores nothing", async () => {
    const { auth, sub } = newUser();
    const res = await api("PUT", one("prov_x"), { headers: auth, json: { name: "X", color: "red" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path: "body.color", message: "Unknown field" }] },
    });
    expect(await starCount(await userIdOf(sub))).toBe(0);
  });

  it.each([
    [{ name: 5 }, ["body.name"]],
    [{ slug: true }, ["body.slug"]],
    [{ logo: ["x"] }, ["body.logo"]],
    [{ slug: 1, name: {}, logo: false }, ["body.slug", "body.name", "body.logo"]],
    [{ slug: "s".repeat(129) }, ["body.slug"]],
    [{ name: "n".repeat(201) }, ["body.name"]],
  ])("rejects wrong snapshot types %j with 400 naming %j", async (json, paths) => {
    const { auth, sub } = newUser();
    const res = await api("PUT", one("prov_types"), { headers: auth, json });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(
      errorOf(res)
        .details!.map((d) => d.path)
        .sort(),
    ).toEqual([...paths].sort());
    expect(await starCount(await userIdOf(sub))).toBe(0);
  });

  it.each([[["a"]], ["name"], [null], [42]])("rejects a non-object body %j with 400", async (json) => {
    const { auth } = newUser();
    const res = await api("PUT", one("prov_types"), { headers: auth, json });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
  });

  it("decodes a percent-encoded team id and rejects one that decodes to a slash", async () => {
    const { auth, sub } = newUser();
    const res = await api("PUT", "/api/me/starred-teams/club%3A42", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.team.id).toBe("club:42");
    const userId = await userIdOf(sub);
    expect(await db().starredTeam.findMany({ where: { userId }, select: { teamId: true } })).toEqual([{ teamId: "club:42" }]);
    expect((await api("DELETE", "/api/me/starred-teams/club%3A42", { headers: auth })).status).toBe(200);
    expect(await starCount(userId)).toBe(0);
    const slash = await api("PUT", "/api/me/starred-teams/a%2Fb", { headers: auth });
    expect(slash.status).toBe(400);
    expect(errorOf(slash).code).toBe("VALIDATION_ERROR");
    expect(await starCount(userId)).toBe(0);
  });

  it("rejects a team id longer than 128 characters and accepts exactly 128", async () => {
    const { auth, sub } = newUser();
    const long = await api("PUT", one("x".repeat(129)), { headers: auth });
    expect(long.status).toBe(400);
    expect(errorOf(long).code).toBe("VALIDATION_ERROR");
    expect(errorOf(long).details!.map((d) => d.path)).toEqual(["params.teamId"]);
    const del = await api("DELETE", one("x".repeat(129)), { headers: auth });
    expect(del.status).toBe(400);
    expect(errorOf(del).code).toBe("VALIDATION_ERROR");
    const max = await api("PUT", one("y".repeat(128)), { headers: auth });
    expect(max.status).toBe(200);
    expect(max.body.team.id).toBe("y".repeat(128));
    expect(await starCount(await userIdOf(sub))).toBe(1);
  });
});

describe("DELETE /api/me/starred-teams/{teamId}", () => {
  it("unstars and answers bare { starred: false }; other stars stay", async () => {
    const { auth, sub } = newUser();
    await api("PUT", one("tm_hch"), { headers: auth });
    const keep = await api("PUT", one("prov_keep"), { headers: auth, json: { name: "Keep" } });
    const res = await api("DELETE", one("tm_hch"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ starred: false });
    const list = await api("GET", LIST, { headers: auth });
    expect(list.body).toEqual({ success: true, data: { teams: [keep.body.team] } });
    const userId = await userIdOf(sub);
    expect(await db().starredTeam.findMany({ where: { userId }, select: { teamId: true } })).toEqual([{ teamId: "prov_keep" }]);
  });

  it("answers { starred: false } when the team was not starred, and again after unstarring", async () => {
    const { auth } = newUser();
    const never = await api("DELETE", one("prov_never"), { headers: auth });
    expect(never.status).toBe(200);
    expect(never.body).toEqual({ starred: false });
    await api("PUT", one("prov_twice"), { headers: auth });
    expect((await api("DELETE", one("prov_twice"), { headers: auth })).body).toEqual({ starred: false });
    const again = await api("DELETE", one("prov_twice"), { headers: auth });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ starred: false });
  });

  it("only touches the caller's star", async () => {
    const a = await signedUp();
    const b = await signedUp();
    await api("PUT", one("tm_hch"), { headers: a.auth });
    await api("PUT", one("tm_hch"), { headers: b.auth });
    expect((await api("DELETE", one("tm_hch"), { headers: a.auth })).status).toBe(200);
    expect(await starCount(a.userId)).toBe(0);
    expect(await starCount(b.userId)).toBe(1);
  });

  it("re-starring after unstarring stamps a new starredAt", async () => {
    const { auth } = newUser();
    const first = await api("PUT", one("prov_re"), { headers: auth, json: { name: "R" } });
    await api("DELETE", one("prov_re"), { headers: auth });
    await new Promise((r) => setTimeout(r, 20));
    const again = await api("PUT", one("prov_re"), { headers: auth });
    expect(again.status).toBe(200);
    // The old snapshot went with the star.
    expect(again.body.team.name).toBeNull();
    expect(Date.parse(again.body.team.starredAt)).toBeGreaterThan(Date.parse(first.body.team.starredAt));
  });
});

describe("starred-teams cap (50)", () => {
  it("the 50th star succeeds and the 51st new id is 409 STARRED_TEAMS_LIMIT", async () => {
    const { auth, userId } = await signedUp();
    await seedStars(userId, CAP - 1);
    const fiftieth = await api("PUT", one("prov_50th"), { headers: auth });
    expect(fiftieth.status).toBe(200);
    expect(await starCount(userId)).toBe(CAP);
    const over = await api("PUT", one("prov_51st"), { headers: auth, json: { name: "Over" } });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ success: false, error: { code: "STARRED_TEAMS_LIMIT", message: expect.any(String) } });
    expect(await starCount(userId)).toBe(CAP);
    expect(await db().starredTeam.findUnique({ where: { userId_teamId: { userId, teamId: "prov_51st" } } })).toBeNull();
  });

  it("at the cap an already-starred id still refreshes; after a DELETE a new one succeeds", async () => {
    const { auth, userId } = await signedUp();
    const ids = await seedStars(userId, CAP);
    expect((await api("PUT", one("prov_new"), { headers: auth })).status).toBe(409);

    const refresh = await api("PUT", one(ids[7]!), { headers: auth, json: { name: "Renamed" } });
    expect(refresh.status).toBe(200);
    expect(refresh.body.team).toMatchObject({ id: ids[7], name: "Renamed", slug: null });
    const plain = await api("PUT", one(ids[8]!), { headers: auth });
    expect(plain.status).toBe(200);
    expect(plain.body.team).toMatchObject({ id: ids[8], name: `Club ${ids[8]}` });

    expect((await api("DELETE", one(ids[0]!), { headers: auth })).body).toEqual({ starred: false });
    const now = await api("PUT", one("prov_new"), { headers: auth });
    expect(now.status).toBe(200);
    expect(now.body.team.id).toBe("prov_new");
    expect(await starCount(userId)).toBe(CAP);
    const again = await api("PUT", one("prov_newer"), { headers: auth });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("STARRED_TEAMS_LIMIT");
    const list = await api("GET", LIST, { headers: auth });
    expect(list.body.data.teams).toHaveLength(CAP);
  });

  it("the cap is per user", async () => {
    const full = await signedUp();
    await seedStars(full.userId, CAP);
    const other = newUser();
    const res = await api("PUT", one("prov_free"), { headers: other.auth });
    expect(res.status).toBe(200);
  });

  it("100 concurrent PUTs of distinct ids: exactly 50 starred, 50 refused", async () => {
    const { auth, userId } = await signedUp();
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => api("PUT", one(`race_${i}`), { headers: auth, json: { name: `Race ${i}` } })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(CAP);
    expect(refused).toHaveLength(100 - CAP);
    for (const r of refused) expect(errorOf(r).code).toBe("STARRED_TEAMS_LIMIT");
    expect(await starCount(userId)).toBe(CAP);
    const starredIds = (await db().starredTeam.findMany({ where: { userId }, select: { teamId: true } })).map((s) => s.teamId).sort();
    expect(starredIds).toEqual(ok.map((r) => r.body.team.id).sort());
  });

  it("a merge racing with PUTs never passes the cap", async () => {
    const { auth, userId } = await signedUp();
    await seedStars(userId, 10);
    const mergeTeams = Array.from({ length: 40 }, (_, i) => ({ id: `merge_${i}` }));
    const [merge, ...puts] = await Promise.all([
      api("POST", LIST, { headers: auth, json: { teams: mergeTeams } }),
      ...Array.from({ length: 40 }, (_, i) => api("PUT", one(`put_${i}`), { headers: auth })),
    ]);
    expect(merge!.status).toBe(200);
    const putOk = puts.filter((r) => r.status === 200).length;
    const putRefused = puts.filter((r) => r.status === 409 && errorOf(r).code === "STARRED_TEAMS_LIMIT").length;
    expect(putOk + putRefused).toBe(40);
    expect(merge!.body.added + merge!.body.skipped).toBe(40);
    expect(10 + merge!.body.added + putOk).toBe(CAP);
    expect(await starCount(userId)).toBe(CAP);
  });

  it("concurrent merges never pass the cap", async () => {
    const { auth, userId } = await signedUp();
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, k) => api("POST", LIST, { headers: auth, json: { teams: Array.from({ length: 20 }, (_, i) => ({ id: `m${k}_${i}` })) } })),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(results.reduce((n, r) => n + r.body.added, 0)).toBe(CAP);
    expect(results.reduce((n, r) => n + r.body.skipped, 0)).toBe(80 - CAP);
    expect(await starCount(userId)).toBe(CAP);
  });
});

describe("POST /api/me/starred-teams (merge)", () => {
  it("stars new ids and answers bare { teams, added, skipped, rejected }", async () => {
    const { auth, sub } = newUser();
    const t = await hawks();
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { id: "prov_m1", slug: "m1", name: "M1", logo: "l1" },
          { id: "tm_hch", name: "Fake" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["added", "rejected", "skipped", "teams"]);
    expect(res.body.added).toBe(2);
    expect(res.body.skipped).toBe(0);
    expect(res.body.rejected).toEqual([]);
    const byId = Object.fromEntries(res.body.teams.map((x: { id: string }) => [x.id, x]));
    expect(res.body.teams).toHaveLength(2);
    expect(byId.prov_m1).toEqual({ id: "prov_m1", slug: "m1", name: "M1", logo: "l1", source: null, providerId: null, starredAt: expect.stringMatching(ISO) });
    expect(byId.tm_hch).toEqual({
      id: "tm_hch",
      slug: "harbor-city-hawks",
      name: "Harbor City Hawks",
      logo: t.logo,
      source: "provider",
      providerId: "prov_101",
      starredAt: expect.stringMatching(ISO),
    });
    const list = await api("GET", LIST, { headers: auth });
    expect(list.body.data.teams).toEqual(res.body.teams);
    expect(await starCount(await userIdOf(sub))).toBe(2);
  });

  it("is additive: existing stars stay, existing ids refresh only keys sent and keep starredAt", async () => {
    const { auth, sub } = newUser();
    const a = await api("PUT", one("prov_a"), { headers: auth, json: { slug: "a", name: "A", logo: "la" } });
    const b = await api("PUT", one("prov_b"), { headers: auth, json: { slug: "b", name: "B", logo: "lb" } });
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { id: "prov_a", name: "A2" },
          { id: "prov_c", name: "C" },
          { id: "prov_b", logo: null },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 1, skipped: 0, rejected: [] });
    const byId = Object.fromEntries(res.body.teams.map((x: { id: string }) => [x.id, x]));
    expect(Object.keys(byId).sort()).toEqual(["prov_a", "prov_b", "prov_c"]);
    expect(byId.prov_a).toEqual({ ...a.body.team, name: "A2" });
    expect(byId.prov_b).toEqual({ ...b.body.team, logo: null });
    expect(byId.prov_c).toMatchObject({ slug: null, name: "C", logo: null, source: null, providerId: null });
    expect(await starCount(await userIdOf(sub))).toBe(3);
  });

  it("an empty list changes nothing", async () => {
    const { auth } = newUser();
    const a = await api("PUT", one("prov_a"), { headers: auth });
    const res = await api("POST", LIST, { headers: auth, json: { teams: [] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ teams: [a.body.team], added: 0, skipped: 0, rejected: [] });
  });

  it("stars new ids until the cap and reports the rest as skipped / over_cap", async () => {
    const { auth, userId } = await signedUp();
    const ids = await seedStars(userId, CAP - 2);
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { id: "new_0" },
          { id: ids[0], name: "Refreshed" },
          { id: "new_1" },
          { id: "new_2" },
          { id: ids[1], name: "Refreshed too" },
          { id: "new_3", name: "N3" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.added).toBe(2);
    expect(res.body.skipped).toBe(2);
    expect(res.body.rejected).toEqual([
      { index: 3, id: "new_2", reason: "over_cap" },
      { index: 5, id: "new_3", reason: "over_cap" },
    ]);
    expect(res.body.teams).toHaveLength(CAP);
    const ids2 = res.body.teams.map((x: { id: string }) => x.id);
    expect(ids2).toContain("new_0");
    expect(ids2).toContain("new_1");
    expect(ids2).not.toContain("new_2");
    expect(ids2).not.toContain("new_3");
    // Existing ids refresh even past the cap.
    const byId = Object.fromEntries(res.body.teams.map((x: { id: string }) => [x.id, x]));
    expect(byId[ids[0]!].name).toBe("Refreshed");
    expect(byId[ids[1]!].name).toBe("Refreshed too");
    expect(await starCount(userId)).toBe(CAP);

    const full = await api("POST", LIST, { headers: auth, json: { teams: [{ id: "late" }] } });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ added: 0, skipped: 1, rejected: [{ index: 0, id: "late", reason: "over_cap" }] });
    expect(await starCount(userId)).toBe(CAP);
  });

  it("a batch longer than the cap stars exactly 50 for a new user", async () => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, { headers: auth, json: { teams: Array.from({ length: 60 }, (_, i) => ({ id: `bulk_${i}` })) } });
    expect(res.status).toBe(200);
    expect(res.body.added).toBe(CAP);
    expect(res.body.skipped).toBe(10);
    expect(res.body.rejected).toEqual(Array.from({ length: 10 }, (_, i) => ({ index: 50 + i, id: `bulk_${50 + i}`, reason: "over_cap" })));
    expect(res.body.teams).toHaveLength(CAP);
    expect(await starCount(await userIdOf(sub))).toBe(CAP);
  });

  it("rejects malformed items as invalid (with their index) without failing the batch", async () => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { slug: "no-id" }, // 0 missing id
          { id: 42 }, // 1 id not a string
          { id: "prov_ok" }, // 2 valid
          { id: "prov_badname", name: 7 }, // 3 bad snapshot type
          { id: "prov_extra", color: "red" }, // 4 unknown key
          null, // 5
          "prov_string", // 6
          { id: "" }, // 7 empty id
          { id: "x".repeat(129) }, // 8 too long
          { id: "has space" }, // 9 whitespace
          { id: "prov_ok2", logo: null }, // 10 valid
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.added).toBe(2);
    expect(res.body.skipped).toBe(0);
    expect(res.body.rejected).toEqual([
      { index: 0, id: null, reason: "invalid" },
      { index: 1, id: null, reason: "invalid" },
      { index: 3, id: "prov_badname", reason: "invalid" },
      { index: 4, id: "prov_extra", reason: "invalid" },
      { index: 5, id: null, reason: "invalid" },
      { index: 6, id: null, reason: "invalid" },
      { index: 7, id: "", reason: "invalid" },
      { index: 8, id: "x".repeat(129), reason: "invalid" },
      { index: 9, id: "has space", reason: "invalid" },
    ]);
    expect(res.body.teams.map((x: { id: string }) => x.id).sort()).toEqual(["prov_ok", "prov_ok2"]);
    const userId = await userIdOf(sub);
    expect((await db().starredTeam.findMany({ where: { userId }, select: { teamId: true } })).map((s) => s.teamId).sort()).toEqual(["prov_ok", "prov_ok2"]);
  });

  it("invalid items do not use up the cap and mix with over_cap in index order", async () => {
    const { auth, userId } = await signedUp();
    await seedStars(userId, CAP - 1);
    const res = await api("POST", LIST, {
      headers: auth,
      json: { teams: [{ id: 1 }, { id: "fits" }, { id: "bad", slug: 3 }, { id: "past" }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      added: 1,
      skipped: 1,
      rejected: [
        { index: 0, id: null, reason: "invalid" },
        { index: 2, id: "bad", reason: "invalid" },
        { index: 3, id: "past", reason: "over_cap" },
      ],
    });
    expect(await starCount(userId)).toBe(CAP);
  });

  it("a repeated id in one batch is starred once; later keys refine it", async () => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, {
      headers: auth,
      json: {
        teams: [
          { id: "dup", slug: "d", name: "D1" },
          { id: "dup", name: "D2" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 1, skipped: 0, rejected: [] });
    expect(res.body.teams).toEqual([{ id: "dup", slug: "d", name: "D2", logo: null, source: null, providerId: null, starredAt: expect.stringMatching(ISO) }]);
    expect(await starCount(await userIdOf(sub))).toBe(1);
  });

  it.each([
    ["teams missing", {}, "body.teams"],
    ["teams not an array", { teams: { id: "x" } }, "body.teams"],
    ["teams a string", { teams: "tm_hch" }, "body.teams"],
    ["teams null", { teams: null }, "body.teams"],
  ])("%s is 400 VALIDATION_ERROR", async (_label, json, path) => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, { headers: auth, json });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details!.map((d) => d.path)).toContain(path);
    expect(await starCount(await userIdOf(sub))).toBe(0);
  });

  it("an unknown top-level key, a non-object body or no body is 400", async () => {
    const { auth } = newUser();
    const extra = await api("POST", LIST, { headers: auth, json: { teams: [], replace: true } });
    expect(extra.status).toBe(400);
    expect(errorOf(extra).code).toBe("VALIDATION_ERROR");
    const arr = await api("POST", LIST, { headers: auth, json: [{ id: "x" }] });
    expect(arr.status).toBe(400);
    expect(errorOf(arr).code).toBe("VALIDATION_ERROR");
    const none = await api("POST", LIST, { headers: auth });
    expect(none.status).toBe(400);
    expect(errorOf(none).code).toBe("VALIDATION_ERROR");
  });

  it("more than 200 items is 400", async () => {
    const { auth, sub } = newUser();
    const res = await api("POST", LIST, { headers: auth, json: { teams: Array.from({ length: 201 }, (_, i) => ({ id: `t${i}` })) } });
    expect(res.status).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    expect(errorOf(res).details!.map((d) => d.path)).toEqual(["body.teams"]);
    expect(await starCount(await userIdOf(sub))).toBe(0);
  });
});
