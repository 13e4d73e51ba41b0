import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { nextGamesOf } from "../../lib/features/games/service";
import { seedGameLineup } from "../../lib/features/games/service";
import { EVENTS, ISO, LINEUP_NFL_007, LINEUP_WHU_KBF, rate, ratings, signedUp } from "./events-fixtures";

// Events: GET /api/events, GET /api/events/{gameId}. The ratings are in events-ratings.test.ts; the seeded games
// both files rely on are listed in events-fixtures.ts.

const event = (id: string) => `/api/events/${encodeURIComponent(id)}`;
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url");

/** A user who follows tm_hch and has joined tm_whu. */
async function fan() {
  const user = await signedUp();
  expect((await api("POST", "/api/teams/tm_hch/follow", { headers: user.auth })).status).toBe(200);
  expect((await api("POST", "/api/teams/tm_whu/join", { headers: user.auth })).status).toBe(200);
  return user;
}

describe("auth", () => {
  it.each([
    ["GET", EVENTS],
    ["GET", event("gm_nfl_007")],
    ["POST", ratings("gm_nfl_007")],
  ])("%s %s without a token is 401 UNAUTHORIZED", async (method, path) => {
    const res = await api(method, path, method === "POST" ? { json: { ratings: [{ playerId: "pl_hch_01", score: 5 }] } } : {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });

  it("GET ratings is open to signed-out callers (myScore null)", async () => {
    const res = await api("GET", ratings("gm_nfl_007"));
    expect(res.status).toBe(200);
    expect(res.body.data.players.length).toBe(LINEUP_NFL_007.length);
    for (const p of res.body.data.players) expect(p.myScore).toBeNull();
  });
});

describe("GET /api/events", () => {
  it("a user with no teams has no events", async () => {
    const { auth } = await signedUp();
    for (const status of ["upcoming", "finished", "all"]) {
      const res = await api("GET", `${EVENTS}?status=${status}`, { headers: auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { events: [] } });
    }
  });

  it("upcoming (the default): followed and joined teams' undecided games, soonest first, keyset pages", async () => {
    const { auth } = await fan();
    const all = await api("GET", EVENTS, { headers: auth });
    expect(all.status).toBe(200);
    expect(all.body.data.events.map((e: { id: string }) => e.id)).toEqual(["gm_nfl_013", "gm_psl_011", "gm_nfl_016"]);
    expect(all.body.data.nextCursor).toBeUndefined();

    const first = await api("GET", `${EVENTS}?status=upcoming&limit=2`, { headers: auth });
    expect(first.body.data.events.map((e: { id: string }) => e.id)).toEqual(["gm_nfl_013", "gm_psl_011"]);
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const second = await api("GET", `${EVENTS}?status=upcoming&limit=2&cursor=${first.body.data.nextCursor}`, { headers: auth });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ events: [expect.objectContaining({ id: "gm_nfl_016" })] });
  });

  it("an event carries league, teams, score, ratable and the caller's rating", async () => {
    const { auth } = await fan();
    const res = await api("GET", `${EVENTS}?limit=1`, { headers: auth });
    expect(res.body.data.events[0]).toEqual({
      id: "gm_nfl_013",
      league: { id: "lg_nfl", slug: "nfl", name: "National Football League", shortName: "NFL", sport: "football" },
      season: "2026",
      startsAt: "2027-01-10T21:30:00.000Z",
      status: "scheduled",
      venue: "Granite Falls Stadium",
      homeTeam: {
        id: "tm_gfg",
        slug: "granite-falls-grizzlies",
        name: "Granite Falls Grizzlies",
        shortName: "Grizzlies",
        abbreviation: "GFG",
        logo: expect.any(String),
      },
      awayTeam: { id: "tm_hch", slug: "harbor-city-hawks", name: "Harbor City Hawks", shortName: "Hawks", abbreviation: "HCH", logo: expect.any(String) },
      score: null,
      ratable: false,
      myRating: null,
    });
  });

  it("finished: final games most recent first; ratable only where both rosters can seed a lineup; myRating after rating", async () => {
    const { auth } = await fan();
    const res = await api("GET", `${EVENTS}?status=finished`, { headers: auth });
    expect(res.status).toBe(200);
    const events = res.body.data.events as { id: string; ratable: boolean; status: string; score: unknown }[];
    expect(events.map((e) => [e.id, e.ratable])).toEqual([
      ["gm_psl_010", false],
      ["gm_nfl_010", false],
      ["gm_psl_009", true],
      ["gm_nfl_007", true],
      ["gm_psl_005", true],
      ["gm_nfl_005", false],
      ["gm_nfl_001", false],
      ["gm_psl_001", true],
    ]);
    for (const e of events) expect(e.status).toBe("final");
    expect(events.find((e) => e.id === "gm_nfl_007")!.score).toEqual({ home: 17, away: 14, overtime: false });

    expect(
      (
        await rate(auth, "gm_nfl_007", [
          ["pl_hch_01", 8],
          ["pl_rmr_01", 6],
        ])
      ).status,
    ).toBe(201);
    const after = await api("GET", `${EVENTS}?status=finished&limit=4`, { headers: auth });
    const rated = after.body.data.events.find((e: { id: string }) => e.id === "gm_nfl_007");
    expect(rated.myRating).toEqual({ playersRated: 2, ratedAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    expect(after.body.data.events.filter((e: { myRating: unknown }) => e.myRating !== null)).toHaveLength(1);
  });

  it("finished pages with limit 3 walk every game exactly once; all is chronological and includes both lists", async () => {
    const { auth } = await fan();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api("GET", `${EVENTS}?status=finished&limit=3${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.events.map((e: { id: string }) => e.id));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["gm_psl_010", "gm_nfl_010", "gm_psl_009", "gm_nfl_007", "gm_psl_005", "gm_nfl_005", "gm_nfl_001", "gm_psl_001"]);

    const all = await api("GET", `${EVENTS}?status=all&limit=50`, { headers: auth });
    const ids = all.body.data.events.map((e: { id: string }) => e.id);
    expect(ids).toEqual([...seen].reverse().concat(["gm_nfl_013", "gm_psl_011", "gm_nfl_016"]));
  });

  it("unfollowing and leaving removes a team's games", async () => {
    const { auth } = await fan();
    await api("DELETE", "/api/teams/tm_hch/follow", { headers: auth });
    const res = await api("GET", EVENTS, { headers: auth });
    expect(res.body.data.events.map((e: { id: string }) => e.id)).toEqual(["gm_psl_011"]);
    await api("DELETE", "/api/teams/tm_whu/join", { headers: auth });
    expect((await api("GET", EVENTS, { headers: auth })).body.data.events).toEqual([]);
  });

  it("bad query: status, limit, malformed cursor, a cursor of another list → 400 naming the field", async () => {
    const { auth } = await fan();
    const cases: [string, string][] = [
      ["status=past", "query.status"],
      ["limit=0", "query.limit"],
      ["limit=51", "query.limit"],
      ["limit=abc", "query.limit"],
      ["cursor=%%%", "query.cursor"],
      [`cursor=${b64(JSON.stringify(["v1", "upcoming:abc", "gm_x"]))}`, "query.cursor"],
      ["foo=1", "query.foo"],
    ];
    for (const [qs, path] of cases) {
      const res = await api("GET", `${EVENTS}?${qs}`, { headers: auth });
      expect(res.status, qs).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    }
    const page = await api("GET", `${EVENTS}?status=upcoming&limit=1`, { headers: auth });
    const res = await api("GET", `${EVENTS}?status=finished&cursor=${page.body.data.nextCursor}`, { headers: auth });
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toEqual([{ path: "query.cursor", message: "Cursor belongs to status=upcoming" }]);
  });
});

describe("GET /api/events/{gameId}", () => {
  it("a final game with both rosters: its lineup seeded from available, active players, home first, in roster order", async () => {
    const { auth } = await signedUp();
    const res = await api("GET", event("gm_nfl_007"), { headers: auth });
    expect(res.status).toBe(200);
    const e = res.body.data.event;
    expect(e).toMatchObject({ id: "gm_nfl_007", status: "final", ratable: true, myRating: null, score: { home: 17, away: 14, overtime: false } });
    expect(e.lineup.status).toBe("seeded");
    expect(e.lineup.players.map((p: { playerId: string }) => p.playerId)).toEqual(LINEUP_NFL_007);
    expect(e.lineup.players.map((p: { slot: number }) => p.slot)).toEqual(LINEUP_NFL_007.map((_, i) => i + 1));
    expect(e.lineup.players[0]).toEqual({
      slot: 1,
      side: "home",
      teamId: "tm_hch",
      playerId: "pl_hch_07",
      name: "Sam Kowalski",
      jersey: "4",
      position: "K",
      photo: expect.any(String),
    });
    expect(e.lineup.players[8]).toMatchObject({ slot: 9, side: "away", teamId: "tm_rmr", playerId: "pl_rmr_06" });
    // Injured, suspended, unavailable and inactive players are left out.
    for (const out of ["pl_hch_09", "pl_hch_10", "pl_hch_11", "pl_hch_12", "pl_rmr_05", "pl_rmr_08"]) expect(LINEUP_NFL_007).not.toContain(out);
    expect(await db().gameLineupSlot.count({ where: { gameId: "gm_nfl_007" } })).toBe(LINEUP_NFL_007.length);
  });

  it("any game is visible, followed or not; the caller's own scores come with it", async () => {
    const { auth } = await signedUp();
    expect(
      (
        await rate(auth, "gm_nfl_007", [
          ["pl_rmr_04", 9],
          ["pl_hch_01", 4],
        ])
      ).status,
    ).toBe(201);
    const res = await api("GET", event("gm_nfl_007"), { headers: auth });
    expect(res.body.data.event.myRating).toEqual({
      playersRated: 2,
      ratedAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      scores: [
        { playerId: "pl_hch_01", score: 4 },
        { playerId: "pl_rmr_04", score: 9 },
      ],
    });
  });

  it("a scheduled game: lineup pending, not ratable", async () => {
    const { auth } = await signedUp();
    const res = await api("GET", event("gm_nfl_013"), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data.event).toMatchObject({ status: "scheduled", ratable: false, lineup: { status: "pending", players: [] }, score: null });
    expect(await db().gameLineupSlot.count({ where: { gameId: "gm_nfl_013" } })).toBe(0);
  });

  it.each(["gm_nfl_003", "gm_nfl_006"])("final game %s with one or no roster: lineup unavailable, not ratable, nothing seeded", async (gameId) => {
    const { auth } = await signedUp();
    const res = await api("GET", event(gameId), { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data.event).toMatchObject({ status: "final", ratable: false, lineup: { status: "unavailable", players: [] } });
    expect(await db().gameLineupSlot.count({ where: { gameId } })).toBe(0);
  });

  it("unknown game → 404 NOT_FOUND", async () => {
    const { auth } = await signedUp();
    for (const path of [event("gm_nope"), ratings("gm_nope")]) {
      const res = await api("GET", path, { headers: auth });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Game not found." } });
    }
    const res = await rate(auth, "gm_nope", [["pl_hch_01", 5]]);
    expect(res.status).toBe(404);
    expect(errorOf(res).code).toBe("NOT_FOUND");
  });

  it("10 concurrent first reads seed the lineup once: every answer the same, one row per player, slots 1..n", async () => {
    const { auth } = await signedUp();
    expect(await db().gameLineupSlot.count({ where: { gameId: "gm_psl_009" } })).toBe(0);
    const results = await Promise.all(Array.from({ length: 10 }, () => api("GET", event("gm_psl_009"), { headers: auth })));
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.data.event.lineup.players.map((p: { playerId: string }) => p.playerId)).toEqual(LINEUP_WHU_KBF);
    }
    const rows = await db().gameLineupSlot.findMany({ where: { gameId: "gm_psl_009" }, orderBy: { slot: "asc" } });
    expect(rows.map((r) => [r.slot, r.playerId])).toEqual(LINEUP_WHU_KBF.map((p, i) => [i + 1, p]));
  });
});

describe("exports for other modules", () => {
  it("nextGamesOf: the next n undecided games of the teams tm_hch and tm_whu, soonest first", async () => {
    const teams = ["tm_hch", "tm_whu"];
    expect((await nextGamesOf(db(), teams, 2)).map((e) => e.id)).toEqual(["gm_nfl_013", "gm_psl_011"]);
    expect((await nextGamesOf(db(), teams, 10)).map((e) => e.id)).toEqual(["gm_nfl_013", "gm_psl_011", "gm_nfl_016"]);
    expect(await nextGamesOf(db(), teams, 0)).toEqual([]);
  });

  it("seedGameLineup is idempotent and tells seeded, unavailable and pending apart", async () => {
    expect(await seedGameLineup(db(), "gm_nfl_007")).toEqual({ status: "seeded", slots: LINEUP_NFL_007.length });
    expect(await seedGameLineup(db(), "gm_nfl_007")).toEqual({ status: "seeded", slots: LINEUP_NFL_007.length });
    expect(await seedGameLineup(db(), "gm_nfl_006")).toEqual({ status: "unavailable", slots: 0 });
    expect(await seedGameLineup(db(), "gm_nfl_013")).toEqual({ status: "pending", slots: 0 });
    expect(await db().gameLineupSlot.count({ where: { gameId: "gm_nfl_007" } })).toBe(LINEUP_NFL_007.length);
  });
});
