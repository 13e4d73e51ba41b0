import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { ISO, LINEUP_WHU_KBF, rate, ratings, signedUp } from "./events-fixtures";

// Events: GET and POST /api/events/{gameId}/ratings (the seeded games they use are listed in events-fixtures.ts).

/** The caller's rating rows with the scores they hold (a lineup player left unrated has no row, or a null score once replaced). */
const ratingRows = async (userId: string, gameId: string) =>
  (await db().gameRating.findMany({ where: { userId, gameId }, include: { scores: true } })).map((r) => ({
    ...r,
    scores: r.scores.flatMap((s) => (s.score === null ? [] : [{ ...s, score: s.score }])),
  }));
const repRows = (userId: string) => db().repEntry.findMany({ where: { userId } });
const balanceOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);

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
