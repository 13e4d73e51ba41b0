import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";

// Follow (social), join (leaderboard entry) and star (HQ bookmark) are independent: each route writes only its
// own table. POST/DELETE /api/teams/{id}/follow, POST/DELETE /api/teams/{id}/join, GET /api/teams/followed.

const follow = (id: string) => `/api/teams/${encodeURIComponent(id)}/follow`;
const join = (id: string) => `/api/teams/${encodeURIComponent(id)}/join`;
const star = (id: string) => `/api/me/starred-teams/${encodeURIComponent(id)}`;
const FOLLOWED = "/api/teams/followed";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A new user whose row already exists. */
async function signedUp() {
  const user = newUser();
  const res = await api("GET", FOLLOWED, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

/** What the database holds for the user and team, one flag per table. */
async function stateOf(userId: string, teamId = "tm_hch") {
  const [f, m, s] = await Promise.all([
    db().teamFollow.count({ where: { userId, teamId } }),
    db().teamMember.count({ where: { userId, teamId } }),
    db().starredTeam.count({ where: { userId, teamId } }),
  ]);
  return { follow: f, member: m, star: s };
}

const notFoundBody = { success: false, error: { code: "NOT_FOUND", message: expect.any(String) } };

describe("auth", () => {
  it.each([
    ["GET", FOLLOWED],
    ["POST", follow("tm_hch")],
    ["DELETE", follow("tm_hch")],
    ["POST", join("tm_hch")],
    ["DELETE", join("tm_hch")],
  ])("%s %s without a token is 401 UNAUTHORIZED", async (method, path) => {
    const res = await api(method, path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    const bad = await api(method, path, { headers: { authorization: "Bearer not.a.jwt" } });
    expect(bad.status).toBe(401);
    expect(errorOf(bad).code).toBe("UNAUTHORIZED");
  });

  it("other methods are 405 with Allow", async () => {
    const { auth } = newUser();
    const res = await api("PUT", follow("tm_hch"), { headers: auth });
    expect(res.status).toBe(405);
    expect(errorOf(res).code).toBe("METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toContain("POST");
    expect(res.headers.get("allow")).toContain("DELETE");
    expect((await api("GET", join("tm_hch"), { headers: auth })).status).toBe(405);
    expect((await api("POST", FOLLOWED, { headers: auth })).status).toBe(405);
  });
});

describe("POST/DELETE /api/teams/{id}/follow", () => {
  it("follows only: one follow row, no leaderboard entry, no star; idempotent", async () => {
    const { auth, userId } = await signedUp();
    const res = await api("POST", follow("tm_hch"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { following: true, teamId: "tm_hch", followedAt: expect.stringMatching(ISO) } });
    const row = await db().teamFollow.findUniqueOrThrow({ where: { userId_teamId: { userId, teamId: "tm_hch" } } });
    expect(res.body.data.followedAt).toBe(row.createdAt.toISOString());
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 0, star: 0 });

    const again = await api("POST", follow("tm_hch"), { headers: auth });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 0, star: 0 });
    expect(await db().teamFollow.count({ where: { userId } })).toBe(1);
  });

  it("takes a slug (case-insensitive) and stores the team id", async () => {
    const { auth, userId } = await signedUp();
    const res = await api("POST", follow("Frostport-Polar-Bears"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ following: true, teamId: "tm_fpb" });
    expect(await db().teamFollow.findMany({ where: { userId }, select: { teamId: true } })).toEqual([{ teamId: "tm_fpb" }]);
  });

  it.each(["tm_nope", "tm_dvs", "dune-valley-scorpions", "DUNE-VALLEY-SCORPIONS"])("following %s (unknown or archived) is 404", async (id) => {
    const { auth, userId } = await signedUp();
    const res = await api("POST", follow(id), { headers: auth });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
    expect(await db().teamFollow.count({ where: { userId } })).toBe(0);
  });

  it("unfollow removes only the follow and is idempotent", async () => {
    const { auth, userId } = await signedUp();
    expect((await api("POST", follow("tm_hch"), { headers: auth })).status).toBe(200);
    expect((await api("POST", join("tm_hch"), { headers: auth })).status).toBe(200);
    expect((await api("PUT", star("tm_hch"), { headers: auth })).status).toBe(200);
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 1, star: 1 });

    const res = await api("DELETE", follow("tm_hch"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { following: false, teamId: "tm_hch" } });
    expect(await stateOf(userId)).toEqual({ follow: 0, member: 1, star: 1 });

    const again = await api("DELETE", follow("tm_hch"), { headers: auth });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await stateOf(userId)).toEqual({ follow: 0, member: 1, star: 1 });
  });

  it("unfollowing a team never followed, an archived team, a slug or an unknown id is fine", async () => {
    const { auth, userId } = await signedUp();
    expect((await api("DELETE", follow("tm_lsl"), { headers: auth })).body.data).toEqual({ following: false, teamId: "tm_lsl" });
    expect((await api("DELETE", follow("tm_nope"), { headers: auth })).body.data).toEqual({ following: false, teamId: "tm_nope" });
    // A follow left on a team that was archived later can still be removed, by id or slug.
    await db().teamFollow.create({ data: { userId, teamId: "tm_dvs" } });
    const res = await api("DELETE", follow("dune-valley-scorpions"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ following: false, teamId: "tm_dvs" });
    expect(await db().teamFollow.count({ where: { userId } })).toBe(0);
  });

  it("20 concurrent follows of one team by one new user make one row, all 200", async () => {
    const { auth, sub } = newUser();
    const results = await Promise.all(Array.from({ length: 20 }, () => api("POST", follow("tm_lsl"), { headers: auth })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const userId = await userIdOf(sub);
    expect(await db().teamFollow.count({ where: { userId } })).toBe(1);
    expect(new Set(results.map((r) => r.body.data.followedAt)).size).toBe(1);
    expect(await stateOf(userId, "tm_lsl")).toEqual({ follow: 1, member: 0, star: 0 });
  });
});

describe("POST/DELETE /api/teams/{id}/join", () => {
  it("joins only: one leaderboard entry, no follow, no star; answers the caller's full lists, bare", async () => {
    const { auth, userId } = await signedUp();
    expect((await api("POST", follow("tm_lsl"), { headers: auth })).status).toBe(200);
    const res = await api("POST", join("tm_hch"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ joinedTeamIds: ["tm_hch"], followedTeamIds: ["tm_lsl"] });
    expect(await stateOf(userId)).toEqual({ follow: 0, member: 1, star: 0 });
    const member = await db().teamMember.findUniqueOrThrow({ where: { userId_teamId: { userId, teamId: "tm_hch" } } });
    expect(member.points).toBe(0n);

    const again = await api("POST", join("tm_hch"), { headers: auth });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await db().teamMember.count({ where: { userId } })).toBe(1);

    // A second join by slug: both lists, oldest first, and they agree with GET /api/user/teams.
    await db().teamMember.update({ where: { userId_teamId: { userId, teamId: "tm_hch" } }, data: { createdAt: new Date("2026-01-01T00:00:00.000Z") } });
    const second = await api("POST", join("Lakeshore-Lights"), { headers: auth });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ joinedTeamIds: ["tm_hch", "tm_lsl"], followedTeamIds: ["tm_lsl"] });
    const mine = await api("GET", "/api/user/teams", { headers: auth });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual(second.body);
  });

  it("a join keeps an existing entry's points (upsert, not reset)", async () => {
    const { auth, userId } = await signedUp();
    await db().teamMember.create({ data: { userId, teamId: "tm_hch", points: 42 } });
    const res = await api("POST", join("tm_hch"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.joinedTeamIds).toEqual(["tm_hch"]);
    expect((await db().teamMember.findUniqueOrThrow({ where: { userId_teamId: { userId, teamId: "tm_hch" } } })).points).toBe(42n);
  });

  it.each(["tm_nope", "tm_dvs", "dune-valley-scorpions"])("joining %s (unknown or archived) is 404", async (id) => {
    const { auth, userId } = await signedUp();
    const res = await api("POST", join(id), { headers: auth });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
    expect(await db().teamMember.count({ where: { userId } })).toBe(0);
  });

  it("leaving removes only the leaderboard entry; the follow and star stay; idempotent", async () => {
    const { auth, userId } = await signedUp();
    expect((await api("POST", follow("tm_hch"), { headers: auth })).status).toBe(200);
    expect((await api("PUT", star("tm_hch"), { headers: auth })).status).toBe(200);
    expect((await api("POST", join("tm_hch"), { headers: auth })).status).toBe(200);
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 1, star: 1 });

    const res = await api("DELETE", join("tm_hch"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ joinedTeamIds: [], followedTeamIds: ["tm_hch"] });
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 0, star: 1 });

    const again = await api("DELETE", join("tm_hch"), { headers: auth });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it("leaving a team not joined, by slug, or an unknown id is fine", async () => {
    const { auth, userId } = await signedUp();
    await db().teamMember.create({ data: { userId, teamId: "tm_fpb" } });
    for (const id of ["tm_hch", "tm_nope", "tm_dvs"]) {
      const res = await api("DELETE", join(id), { headers: auth });
      expect(res.status, id).toBe(200);
      expect(res.body).toEqual({ joinedTeamIds: ["tm_fpb"], followedTeamIds: [] });
    }
    const bySlug = await api("DELETE", join("frostport-polar-bears"), { headers: auth });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual({ joinedTeamIds: [], followedTeamIds: [] });
  });

  it("20 concurrent joins of one team by one new user make one row, all 200", async () => {
    const { auth, sub } = newUser();
    const results = await Promise.all(Array.from({ length: 20 }, () => api("POST", join("tm_hch"), { headers: auth })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const r of results) expect(r.body).toEqual({ joinedTeamIds: ["tm_hch"], followedTeamIds: [] });
    const userId = await userIdOf(sub);
    expect(await db().user.count({ where: { externalId: sub } })).toBe(1);
    expect(await db().teamMember.count({ where: { userId } })).toBe(1);
    expect(await stateOf(userId)).toEqual({ follow: 0, member: 1, star: 0 });
  });

  it("20 concurrent joins by a user who already exists make one row too", async () => {
    const { auth, userId } = await signedUp();
    const results = await Promise.all(Array.from({ length: 20 }, () => api("POST", join("tm_fpb"), { headers: auth })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await db().teamMember.count({ where: { userId } })).toBe(1);
  });
});

describe("follow, join and star are independent", () => {
  it("a star creates no follow and no join; unstarring leaves both", async () => {
    const { auth, userId } = await signedUp();
    expect((await api("PUT", star("tm_hch"), { headers: auth })).status).toBe(200);
    expect(await stateOf(userId)).toEqual({ follow: 0, member: 0, star: 1 });
    expect((await api("GET", FOLLOWED, { headers: auth })).body.data.teams).toEqual([]);
    expect((await api("GET", "/api/user/teams", { headers: auth })).body).toEqual({ joinedTeamIds: [], followedTeamIds: [] });

    expect((await api("POST", follow("tm_hch"), { headers: auth })).status).toBe(200);
    expect((await api("POST", join("tm_hch"), { headers: auth })).status).toBe(200);
    expect((await api("DELETE", star("tm_hch"), { headers: auth })).status).toBe(200);
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 1, star: 0 });
  });

  it("a follow creates no join and no star; a join creates no follow and no star", async () => {
    const { auth, userId } = await signedUp();
    expect((await api("POST", follow("tm_hch"), { headers: auth })).status).toBe(200);
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 0, star: 0 });
    expect((await api("POST", join("tm_lsl"), { headers: auth })).status).toBe(200);
    expect(await stateOf(userId, "tm_lsl")).toEqual({ follow: 0, member: 1, star: 0 });
    expect(await stateOf(userId, "tm_hch")).toEqual({ follow: 1, member: 0, star: 0 });
    expect((await api("GET", "/api/me/starred-teams", { headers: auth })).body.data.teams).toEqual([]);
  });

  it("each removal leaves the other two", async () => {
    const { auth, userId } = await signedUp();
    const all = async () => {
      for (const [m, p] of [
        ["POST", follow("tm_hch")],
        ["POST", join("tm_hch")],
        ["PUT", star("tm_hch")],
      ] as const) {
        expect((await api(m, p, { headers: auth })).status).toBe(200);
      }
      expect(await stateOf(userId)).toEqual({ follow: 1, member: 1, star: 1 });
    };
    await all();
    await api("DELETE", follow("tm_hch"), { headers: auth });
    expect(await stateOf(userId)).toEqual({ follow: 0, member: 1, star: 1 });
    await all();
    await api("DELETE", join("tm_hch"), { headers: auth });
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 0, star: 1 });
    await all();
    await api("DELETE", star("tm_hch"), { headers: auth });
    expect(await stateOf(userId)).toEqual({ follow: 1, member: 1, star: 0 });
  });
});

describe("GET /api/teams/followed", () => {
  it("answers an empty list for a new user", async () => {
    const { auth } = newUser();
    const res = await api("GET", FOLLOWED, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { teams: [] } });
  });

  it("lists followed teams newest first with team payloads and followedAt; archived teams left out", async () => {
    const { auth, userId } = await signedUp();
    const at = (s: string) => new Date(s);
    await db().teamFollow.createMany({
      data: [
        { userId, teamId: "tm_hch", createdAt: at("2026-03-01T00:00:00.000Z") },
        { userId, teamId: "tm_lsl", createdAt: at("2026-05-01T00:00:00.000Z") },
        { userId, teamId: "tm_cwt", createdAt: at("2026-04-01T00:00:00.000Z") },
        { userId, teamId: "tm_dvs", createdAt: at("2026-06-01T00:00:00.000Z") },
      ],
    });
    const res = await api("GET", FOLLOWED, { headers: auth });
    expect(res.status).toBe(200);
    const teams = res.body.data.teams;
    expect(teams.map((t: { id: string }) => t.id)).toEqual(["tm_lsl", "tm_cwt", "tm_hch"]);
    expect(teams.map((t: { followedAt: string }) => t.followedAt)).toEqual([
      "2026-05-01T00:00:00.000Z",
      "2026-04-01T00:00:00.000Z",
      "2026-03-01T00:00:00.000Z",
    ]);
    expect(teams[2]).toMatchObject({
      id: "tm_hch",
      slug: "harbor-city-hawks",
      sport: "football",
      leagueInfo: { id: "lg_nfl", sport: "football" },
      division: { id: "div_nfl_afc_east" },
    });
    expect(teams[1]).toMatchObject({ id: "tm_cwt", sport: "other", leagueInfo: { sport: "soccer" } });
    expect(res.body.data).not.toHaveProperty("nextCursor");
    // Joins and stars do not appear.
    await api("POST", join("tm_fpb"), { headers: auth });
    await api("PUT", star("tm_mhm"), { headers: auth });
    expect((await api("GET", FOLLOWED, { headers: auth })).body.data.teams).toHaveLength(3);
  });

  it("a follow made through the API shows at the top", async () => {
    const { auth, userId } = await signedUp();
    await db().teamFollow.create({ data: { userId, teamId: "tm_hch", createdAt: new Date("2026-01-01T00:00:00.000Z") } });
    const made = await api("POST", follow("tm_whu"), { headers: auth });
    const res = await api("GET", FOLLOWED, { headers: auth });
    expect(res.body.data.teams.map((t: { id: string }) => t.id)).toEqual(["tm_whu", "tm_hch"]);
    expect(res.body.data.teams[0].followedAt).toBe(made.body.data.followedAt);
  });

  it("paginates with ties on followedAt broken by team id (descending), each team once", async () => {
    const { auth, userId } = await signedUp();
    const same = new Date("2026-07-01T12:00:00.000Z");
    const ids = ["tm_afa", "tm_bhb", "tm_ccc", "tm_gfg", "tm_kbf"];
    await db().teamFollow.createMany({ data: ids.map((teamId) => ({ userId, teamId, createdAt: same })) });
    await db().teamFollow.create({ data: { userId, teamId: "tm_mlw", createdAt: new Date("2026-08-01T00:00:00.000Z") } });
    const expected = ["tm_mlw", ...[...ids].reverse()];
    for (const limit of [1, 2, 4]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 20; i++) {
        const res = await api("GET", `${FOLLOWED}?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth });
        expect(res.status).toBe(200);
        expect(res.body.data.teams.length).toBeLessThanOrEqual(limit);
        seen.push(...res.body.data.teams.map((t: { id: string }) => t.id));
        cursor = res.body.data.nextCursor;
        if (!cursor) break;
      }
      expect(seen, `limit ${limit}`).toEqual(expected);
    }
  });

  it("bad limit or cursor is 400 VALIDATION_ERROR naming the field", async () => {
    const { auth } = newUser();
    for (const [query, path] of [
      ["limit=0", "query.limit"],
      ["limit=101", "query.limit"],
      ["limit=x", "query.limit"],
      ["cursor=nope!", "query.cursor"],
      ["cursor=abc", "query.cursor"],
      ["foo=1", "query.foo"],
    ]) {
      const res = await api("GET", `${FOLLOWED}?${query}`, { headers: auth });
      expect(res.status, query).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.[0]?.path).toBe(path);
    }
  });
});
