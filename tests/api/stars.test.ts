import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { hawks, ISO, LIST, one, signedUp, starCount } from "./stars-fixtures";

// Starred teams (HQ bookmarks): GET /api/me/starred-teams, PUT/DELETE /api/me/starred-teams/{teamId}. The cap and
// POST /api/me/starred-teams (merge) are in stars-merge.test.ts.

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
