import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { nextGamesOf } from "../../lib/features/games/service";
import { seedGameLineup } from "../../lib/features/games/service";

// Events: GET /api/events, GET /api/events/{gameId}, GET and POST /api/events/{gameId}/ratings.
// Seeded games this file relies on (dev/seed/data.ts): rosters exist for hch, rmr, kpk, lsl, ccc, fpb, gbo, whu, kbf.
//   gm_nfl_007 hch–rmr final (both rosters): rating flow.   gm_psl_001 whu–kbf final: averages (only here).
//   gm_psl_009 whu–kbf final: concurrent seeding (only here).   gm_psl_005 whu–kbf final: concurrent ratings.
//   gm_nfl_003 irf–kpk final (one roster), gm_nfl_006 bsb–tbw final (no roster): LINEUP_UNAVAILABLE.
//   gm_nfl_013 gfg–hch scheduled: GAME_NOT_FINISHED.

const EVENTS = "/api/events";
const event = (id: string) => `/api/events/${encodeURIComponent(id)}`;
const ratings = (id: string) => `/api/events/${encodeURIComponent(id)}/ratings`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url");

async function signedUp() {
  const user = newUser();
  const res = await api("GET", EVENTS, { headers: user.auth });
  expect(res.status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

/** A user who follows tm_hch and has joined tm_whu. */
async function fan() {
  const user = await signedUp();
  expect((await api("POST", "/api/teams/tm_hch/follow", { headers: user.auth })).status).toBe(200);
  expect((await api("POST", "/api/teams/tm_whu/join", { headers: user.auth })).status).toBe(200);
  return user;
}

const rate = (auth: Record<string, string>, gameId: string, list: [string, number][]) =>
  api("POST", ratings(gameId), { headers: auth, json: { ratings: list.map(([playerId, score]) => ({ playerId, score })) } });

/** The caller's rating rows with the scores they hold (a lineup player left unrated has no row, or a null score once replaced). */
const ratingRows = async (userId: string, gameId: string) =>
  (await db().gameRating.findMany({ where: { userId, gameId }, include: { scores: true } })).map((r) => ({
    ...r,
    scores: r.scores.flatMap((s) => (s.score === null ? [] : [{ ...s, score: s.score }])),
  }));
const repRows = (userId: string) => db().repEntry.findMany({ where: { userId } });
const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);

// Home team's available active players in roster order, then the away team's (see the seed's rosters).
const LINEUP_NFL_007 = [
  "pl_hch_07", "pl_hch_01", "pl_hch_08", "pl_hch_06", "pl_hch_02", "pl_hch_05", "pl_hch_04", "pl_hch_03",
  "pl_rmr_06", "pl_rmr_01", "pl_rmr_03", "pl_rmr_02", "pl_rmr_04", "pl_rmr_07",
]; // prettier-ignore
const LINEUP_WHU_KBF = [
  "pl_whu_01", "pl_whu_02", "pl_whu_05", "pl_whu_03", "pl_whu_04", "pl_whu_06", "pl_whu_09", "pl_whu_07", "pl_whu_11",
  "pl_kbf_01", "pl_kbf_02", "pl_kbf_06", "pl_kbf_04", "pl_kbf_07", "pl_kbf_03", "pl_kbf_08",
]; // prettier-ignore

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

describe("POST /api/events/{gameId}/ratings", () => {
  it("first submission: 201, scores stored, 15 Club Rep once; a second one replaces every score (200), no more Rep", async () => {
    const { auth, userId } = await signedUp();
    const first = await rate(auth, "gm_nfl_007", [
      ["pl_hch_01", 8],
      ["pl_rmr_02", 3],
    ]);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      success: true,
      data: {
        gameId: "gm_nfl_007",
        rating: {
          playersRated: 2,
          ratedAt: expect.stringMatching(ISO),
          updatedAt: first.body.data.rating.ratedAt,
          scores: [
            { playerId: "pl_hch_01", score: 8 },
            { playerId: "pl_rmr_02", score: 3 },
          ],
        },
        replaced: false,
        rep: { awarded: true, amount: 15 },
      },
    });
    expect(await balanceOf(userId)).toBe(15);

    const second = await rate(auth, "gm_nfl_007", [["pl_hch_05", 10]]);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({
      gameId: "gm_nfl_007",
      rating: {
        playersRated: 1,
        ratedAt: first.body.data.rating.ratedAt,
        updatedAt: expect.stringMatching(ISO),
        scores: [{ playerId: "pl_hch_05", score: 10 }],
      },
      replaced: true,
      rep: { awarded: false, amount: 0 },
    });
    const rows = await ratingRows(userId, "gm_nfl_007");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.scores.map((s) => [s.playerId, s.score])).toEqual([["pl_hch_05", 10]]);
    const rep = await repRows(userId);
    expect(rep.map((r) => [r.earnKind, r.grantKey, r.amount, r.source, r.targetId])).toEqual([
      ["game_rating", "game_rating:gm_nfl_007", 15n, "club", "gm_nfl_007"],
    ]);
    expect(await balanceOf(userId)).toBe(15);
  });

  it("Rep is per game: rating another game awards again", async () => {
    const { auth, userId } = await signedUp();
    expect((await rate(auth, "gm_nfl_007", [["pl_hch_01", 5]])).body.data.rep).toEqual({ awarded: true, amount: 15 });
    expect((await rate(auth, "gm_psl_005", [["pl_whu_01", 5]])).body.data.rep).toEqual({ awarded: true, amount: 15 });
    expect(await balanceOf(userId)).toBe(30);
  });

  it("a final game whose lineup was never read: the first submission seeds it, then is stored", async () => {
    const { auth } = await signedUp();
    // A copy of gm_psl_009 (whu–kbf, final, both rosters) long ago, so no list of recent games shows it meanwhile.
    const gameId = `gm_test_${randomUUID().slice(0, 8)}`;
    await db().$executeRaw`
      INSERT INTO games SELECT (jsonb_populate_record(NULL::games, to_jsonb(g) || jsonb_build_object('id', ${gameId}::text, 'starts_at', '2001-01-01T00:00:00Z'))).*
      FROM games g WHERE g.id = 'gm_psl_009'`;
    try {
      expect(await db().gameLineupSlot.count({ where: { gameId } })).toBe(0);
      const res = await rate(auth, gameId, [[LINEUP_WHU_KBF[1]!, 7]]);
      expect(res.status).toBe(201);
      expect(res.body.data.rating.scores).toEqual([{ playerId: LINEUP_WHU_KBF[1], score: 7 }]);
      const slots = await db().gameLineupSlot.findMany({ where: { gameId }, orderBy: { slot: "asc" } });
      expect(slots.map((r) => r.playerId)).toEqual(LINEUP_WHU_KBF);
    } finally {
      await db().game.delete({ where: { id: gameId } });
    }
  });

  it("a game that is not final → 409 GAME_NOT_FINISHED, nothing written", async () => {
    const { auth, userId } = await signedUp();
    const res = await rate(auth, "gm_nfl_013", [["pl_hch_01", 5]]);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: { code: "GAME_NOT_FINISHED", message: expect.stringContaining("scheduled") } });
    expect(await ratingRows(userId, "gm_nfl_013")).toEqual([]);
    expect(await repRows(userId)).toEqual([]);
  });

  it.each([
    ["gm_nfl_003", "pl_kpk_01"],
    ["gm_nfl_006", "pl_hch_01"],
  ])("final game %s whose lineup cannot be seeded → 409 LINEUP_UNAVAILABLE", async (gameId, playerId) => {
    const { auth, userId } = await signedUp();
    const res = await rate(auth, gameId, [[playerId, 5]]);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: { code: "LINEUP_UNAVAILABLE", message: expect.any(String) } });
    expect(await ratingRows(userId, gameId)).toEqual([]);
    expect(await db().gameLineupSlot.count({ where: { gameId } })).toBe(0);
    expect(await balanceOf(userId)).toBe(0);
  });

  it("players outside the lineup (benched by injury, another team, unknown) → 400 naming each, nothing written", async () => {
    const { auth, userId } = await signedUp();
    const res = await rate(auth, "gm_nfl_007", [
      ["pl_hch_01", 5],
      ["pl_hch_09", 6],
      ["pl_whu_01", 7],
      ["pl_nobody", 8],
    ]);
    expect(res.status).toBe(400);
    expect(errorOf(res)).toEqual({
      code: "VALIDATION_ERROR",
      message: expect.any(String),
      details: [
        { path: "body.ratings.1.playerId", message: "Not in this game's lineup" },
        { path: "body.ratings.2.playerId", message: "Not in this game's lineup" },
        { path: "body.ratings.3.playerId", message: "Not in this game's lineup" },
      ],
    });
    expect(await ratingRows(userId, "gm_nfl_007")).toEqual([]);
    expect(await repRows(userId)).toEqual([]);
  });

  it("the same player twice → 400 at the repeat", async () => {
    const { auth, userId } = await signedUp();
    const res = await rate(auth, "gm_nfl_007", [
      ["pl_hch_01", 5],
      ["pl_hch_02", 6],
      ["pl_hch_01", 7],
    ]);
    expect(res.status).toBe(400);
    expect(errorOf(res).details).toEqual([{ path: "body.ratings.2.playerId", message: "Each player may be rated only once per submission" }]);
    expect(await ratingRows(userId, "gm_nfl_007")).toEqual([]);
  });

  it("scores outside 1..10, non-integers, an empty list, unknown fields → 400 naming the field", async () => {
    const { auth, userId } = await signedUp();
    const cases: [unknown, string][] = [
      [{ ratings: [{ playerId: "pl_hch_01", score: 0 }] }, "body.ratings.0.score"],
      [{ ratings: [{ playerId: "pl_hch_01", score: 11 }] }, "body.ratings.0.score"],
      [{ ratings: [{ playerId: "pl_hch_01", score: 7.5 }] }, "body.ratings.0.score"],
      [{ ratings: [{ playerId: "pl_hch_01", score: "7" }] }, "body.ratings.0.score"],
      [{ ratings: [{ playerId: "pl_hch_01", score: -3 }] }, "body.ratings.0.score"],
      [{ ratings: [{ playerId: "", score: 5 }] }, "body.ratings.0.playerId"],
      [{ ratings: [{ score: 5 }] }, "body.ratings.0.playerId"],
      [{ ratings: [] }, "body.ratings"],
      [{}, "body.ratings"],
      [{ ratings: "x" }, "body.ratings"],
      [{ ratings: [{ playerId: "pl_hch_01", score: 5, extra: 1 }] }, "body.ratings.0.extra"],
      [{ ratings: [{ playerId: "pl_hch_01", score: 5 }], gameId: "x" }, "body.gameId"],
      [{ ratings: Array.from({ length: 101 }, (_, i) => ({ playerId: `p${i}`, score: 5 })) }, "body.ratings"],
    ];
    for (const [json, path] of cases) {
      const res = await api("POST", ratings("gm_nfl_007"), { headers: auth, json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
      expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    }
    const bounds = await rate(auth, "gm_nfl_007", [
      ["pl_hch_01", 1],
      ["pl_hch_02", 10],
    ]);
    expect(bounds.status).toBe(201);
    expect((await ratingRows(userId, "gm_nfl_007"))[0]!.scores.map((s) => s.score).sort((a, b) => a - b)).toEqual([1, 10]);
  });

  it("10 concurrent submissions by one user: one 201, nine 200, one rating row holding one whole submission, one Rep entry", async () => {
    const { auth, userId } = await signedUp();
    const submissions: [string, number][][] = Array.from({ length: 10 }, (_, i) => [
      ["pl_whu_01", i + 1],
      [LINEUP_WHU_KBF[1 + i]!, 10 - i],
    ]);
    const results = await Promise.all(submissions.map((s) => rate(auth, "gm_psl_005", s)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    expect(results.filter((r) => r.body.data.rep.awarded)).toHaveLength(1);
    expect(results.find((r) => r.body.data.rep.awarded)!.status).toBe(201);

    const rows = await ratingRows(userId, "gm_psl_005");
    expect(rows).toHaveLength(1);
    const stored = rows[0]!.scores.map((s) => [s.playerId, s.score]).sort();
    expect(submissions.map((s) => [...s].sort())).toContainEqual(stored);
    const rep = await repRows(userId);
    expect(rep.map((r) => r.grantKey)).toEqual(["game_rating:gm_psl_005"]);
    expect(await balanceOf(userId)).toBe(15);
  });
  it("concurrent submissions of many fans (written together): each holds its own scores and Rep once; refusals answer alone", async () => {
    const fans = await Promise.all(Array.from({ length: 8 }, () => signedUp()));
    const valid = fans.map((f, i) => ({
      f,
      gameId: "gm_psl_005",
      list: [
        [LINEUP_WHU_KBF[i]!, 1 + i],
        [LINEUP_WHU_KBF[15 - i]!, 10 - i],
      ] as [string, number][],
    }));
    const wrong = [
      { f: fans[0]!, gameId: "gm_psl_005", list: [["pl_hch_01", 5]] as [string, number][], refused: [400, "VALIDATION_ERROR"] },
      { f: fans[1]!, gameId: "gm_nfl_013", list: [["pl_hch_01", 5]] as [string, number][], refused: [409, "GAME_NOT_FINISHED"] },
      { f: fans[2]!, gameId: "gm_nope", list: [["pl_hch_01", 5]] as [string, number][], refused: [404, "NOT_FOUND"] },
    ];
    const all = [...valid, ...wrong].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(all.map((s) => rate(s.f.auth, s.gameId, s.list)));
    for (const w of wrong) {
      const r = answers[all.indexOf(w)]!;
      expect([r.status, errorOf(r).code]).toEqual(w.refused);
    }
    for (const v of valid) {
      const r = answers[all.indexOf(v)]!;
      expect(r.status).toBe(201);
      expect(r.body.data.rep).toEqual({ awarded: true, amount: 15 });
      const stored = (await ratingRows(v.f.userId, "gm_psl_005"))[0]!.scores.map((s) => [s.playerId, s.score]);
      expect(stored.sort()).toEqual([...v.list].sort());
      expect((await repRows(v.f.userId)).map((e) => e.grantKey)).toEqual(["game_rating:gm_psl_005"]);
      expect(await balanceOf(v.f.userId)).toBe(15);
    }
  });
});

describe("GET /api/events/{gameId}/ratings", () => {
  it("averages per lineup player to 1 decimal with counts, the caller's own score, replaced scores counted once", async () => {
    const a = await signedUp();
    const b = await signedUp();
    const c = await signedUp();
    expect(
      (
        await rate(a.auth, "gm_psl_001", [
          ["pl_whu_01", 7],
          ["pl_kbf_01", 5],
        ])
      ).status,
    ).toBe(201);
    expect(
      (
        await rate(b.auth, "gm_psl_001", [
          ["pl_whu_01", 8],
          ["pl_kbf_01", 6],
        ])
      ).status,
    ).toBe(201);
    expect((await rate(c.auth, "gm_psl_001", [["pl_whu_01", 8]])).status).toBe(201);

    const res = await api("GET", ratings("gm_psl_001"), { headers: a.auth });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.gameId).toBe("gm_psl_001");
    expect(data.lineupStatus).toBe("seeded");
    expect(data.raters).toBe(3);
    expect(data.players.map((p: { playerId: string }) => p.playerId)).toEqual(LINEUP_WHU_KBF);
    const byId = Object.fromEntries(data.players.map((p: { playerId: string }) => [p.playerId, p]));
    expect(byId.pl_whu_01).toEqual({
      slot: 1,
      side: "home",
      teamId: "tm_whu",
      playerId: "pl_whu_01",
      name: "Tom Ashworth",
      jersey: "1",
      position: "GK",
      photo: expect.any(String),
      average: 7.7, // (7 + 8 + 8) / 3 = 7.67
      count: 3,
      myScore: 7,
    });
    expect(byId.pl_kbf_01).toMatchObject({ side: "away", average: 5.5, count: 2, myScore: 5 });
    expect(byId.pl_whu_02).toMatchObject({ average: null, count: 0, myScore: null });

    // a replaces: pl_whu_01 → 10, drops pl_kbf_01.
    expect((await rate(a.auth, "gm_psl_001", [["pl_whu_01", 10]])).status).toBe(200);
    const after = await api("GET", ratings("gm_psl_001"));
    const again = Object.fromEntries(after.body.data.players.map((p: { playerId: string }) => [p.playerId, p]));
    expect(after.body.data.raters).toBe(3);
    expect(again.pl_whu_01).toMatchObject({ average: 8.7, count: 3, myScore: null }); // (10 + 8 + 8) / 3 = 8.67
    expect(again.pl_kbf_01).toMatchObject({ average: 6, count: 1 });
  });

  it("a game that is not final or cannot be seeded: empty players with its lineup status", async () => {
    expect((await api("GET", ratings("gm_nfl_013"))).body.data).toEqual({ gameId: "gm_nfl_013", lineupStatus: "pending", raters: 0, players: [] });
    expect((await api("GET", ratings("gm_nfl_006"))).body.data).toEqual({ gameId: "gm_nfl_006", lineupStatus: "unavailable", raters: 0, players: [] });
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
