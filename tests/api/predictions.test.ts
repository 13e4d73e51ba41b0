import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, fan, newUser } from "../helpers";
import { finish, predict, predictionGame, settle } from "./prediction-games";

// Predictions: the lock at kick-off on the server's clock (also a kick-off moved earlier), voiding, the crowd split
// only after the lock, settlement once under concurrent crons, an amended final score re-settled with compensating
// ledger entries. Games are the file's own (prediction-games.ts); time is moved in the database.

const hour = 3_600_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const repOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
const entriesOf = (userId: string, gameId: string) =>
  db().repEntry.findMany({ where: { userId, targetId: gameId, earnKind: { startsWith: "prediction_" } }, orderBy: { createdAt: "asc" } });
const mine = (auth: Record<string, string>, gameId: string) => api("GET", `/api/events/${gameId}/prediction`, { headers: auth });
const split = (gameId: string) => api("GET", `/api/events/${gameId}/predictions`);

describe("making a prediction", () => {
  it("201 first, 200 on an edit, read back; the outcome must agree with the score; 404 for an unknown game", async () => {
    const f = await fan();
    const gameId = await predictionGame(new Date(Date.now() + hour));
    const none = await mine(f.auth, gameId);
    expect(none.status).toBe(200);
    expect(none.body.data).toMatchObject({ locked: false, prediction: null, game: { id: gameId, status: "scheduled" } });

    const first = await predict(f.auth, gameId, 2, 1);
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({ created: true, prediction: { outcome: "home", homeScore: 2, awayScore: 1, state: "open", points: null } });
    const edit = await predict(f.auth, gameId, 0, 0);
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({ created: false, prediction: { outcome: "draw", homeScore: 0, awayScore: 0 } });
    expect((await mine(f.auth, gameId)).body.data.prediction).toMatchObject({ outcome: "draw", homeScore: 0, awayScore: 0, state: "open" });
    expect(await db().prediction.count({ where: { gameId } })).toBe(1);

    const disagree = await api("PUT", `/api/events/${gameId}/prediction`, { headers: f.auth, json: { outcome: "away", homeScore: 2, awayScore: 1 } });
    expect(disagree.status).toBe(400);
    expect(errorOf(disagree).details![0]!.path).toBe("body.outcome");
    for (const json of [
      { outcome: "home", homeScore: -1, awayScore: 0 },
      { outcome: "home", homeScore: 1.5, awayScore: 0 },
      { outcome: "win", homeScore: 1, awayScore: 0 },
      {},
    ])
      expect((await api("PUT", `/api/events/${gameId}/prediction`, { headers: f.auth, json })).status).toBe(400);
    expect((await predict(f.auth, "gm_no_such_game", 1, 0)).status).toBe(404);
    expect((await mine(f.auth, "gm_no_such_game")).status).toBe(404);
    expect((await api("GET", `/api/events/${gameId}/prediction`)).status).toBe(401);
  });

  it("concurrent PUTs of one fan leave one prediction: one 201, the rest 200", async () => {
    const f = await fan();
    const gameId = await predictionGame(new Date(Date.now() + hour));
    const res = await Promise.all([1, 2, 3, 4, 5].map((n) => predict(f.auth, gameId, n, 0)));
    expect(res.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(await db().prediction.count({ where: { gameId } })).toBe(1);
  });
});

describe("the lock", () => {
  it("locks at kick-off on the server's clock: 409 PREDICTION_LOCKED once starts_at passes, though the game is still scheduled", async () => {
    const f = await fan();
    const gameId = await predictionGame(new Date(Date.now() + 1_500));
    expect((await predict(f.auth, gameId, 1, 0)).status).toBe(201);
    await sleep(1_700);
    const late = await predict(f.auth, gameId, 3, 0);
    expect(late.status).toBe(409);
    expect(errorOf(late).code).toBe("PREDICTION_LOCKED");
    const other = await fan();
    expect((await predict(other.auth, gameId, 3, 0)).status).toBe(409);
    const read = await mine(f.auth, gameId);
    expect(read.body.data).toMatchObject({ locked: true, game: { status: "scheduled" }, prediction: { homeScore: 1, awayScore: 0, state: "locked" } });
    expect(await db().prediction.count({ where: { gameId } })).toBe(1);
  });

  it("a game no longer scheduled (live) is locked whatever its starts_at", async () => {
    const f = await fan();
    const gameId = await predictionGame(new Date(Date.now() + hour), "live");
    expect(errorOf(await predict(f.auth, gameId, 1, 0)).code).toBe("PREDICTION_LOCKED");
  });

  it("a kick-off moved earlier (the sync) voids predictions last edited at or after the real start; they never score", async () => {
    const early = await fan();
    const late = await fan();
    const gameId = await predictionGame(new Date(Date.now() + hour));
    expect((await predict(early.auth, gameId, 2, 1)).status).toBe(201);
    await sleep(50);
    expect((await predict(late.auth, gameId, 2, 1)).status).toBe(201);
    const [a, b] = await Promise.all([
      db().prediction.findFirstOrThrow({ where: { gameId, userId: early.id } }),
      db().prediction.findFirstOrThrow({ where: { gameId, userId: late.id } }),
    ]);
    expect(b.updatedAt.getTime()).toBeGreaterThan(a.updatedAt.getTime() + 10);
    // The sync learns the game really started between the two predictions.
    await db().game.update({ where: { id: gameId }, data: { startsAt: new Date(a.updatedAt.getTime() + 5), status: "live" } });
    expect((await mine(early.auth, gameId)).body.data.prediction.state).toBe("locked");
    expect((await mine(late.auth, gameId)).body.data.prediction.state).toBe("void");
    expect((await split(gameId)).body.data.total).toBe(1);

    const before = await repOf(late.id);
    await finish(gameId, 2, 1);
    expect((await settle()).status).toBe(200);
    expect((await mine(early.auth, gameId)).body.data.prediction).toMatchObject({ state: "settled", points: 10 });
    expect((await mine(late.auth, gameId)).body.data.prediction).toMatchObject({ state: "void", points: 0 });
    expect(await entriesOf(late.id, gameId)).toHaveLength(0);
    expect(await repOf(late.id)).toBe(before);
  });

  it.each(["postponed", "canceled"] as const)("a %s game voids its predictions: no crowd counts, no settlement", async (status) => {
    const f = await fan();
    const gameId = await predictionGame(new Date(Date.now() + hour));
    expect((await predict(f.auth, gameId, 1, 1)).status).toBe(201);
    await db().game.update({ where: { id: gameId }, data: { status } });
    expect((await mine(f.auth, gameId)).body.data).toMatchObject({ locked: true, prediction: { state: "void" } });
    expect((await split(gameId)).body.data).toMatchObject({ total: 0 });
    expect(errorOf(await predict(f.auth, gameId, 2, 2)).code).toBe("PREDICTION_LOCKED");
    await settle();
    expect(await entriesOf(f.id, gameId)).toHaveLength(0);
    expect((await db().prediction.findFirstOrThrow({ where: { gameId } })).points).toBeNull();
  });
});

describe("the crowd split", () => {
  it("is refused before the lock (409 PREDICTIONS_NOT_LOCKED) and shown after it, void predictions left out", async () => {
    const gameId = await predictionGame(new Date(Date.now() + hour));
    const fans = await Promise.all([fan(), fan(), fan(), fan()]);
    const scores: [number, number][] = [
      [2, 1],
      [2, 1],
      [0, 0],
      [0, 3],
    ];
    for (const [i, f] of fans.entries()) expect((await predict(f.auth, gameId, ...scores[i]!)).status).toBe(201);
    const hidden = await split(gameId);
    expect(hidden.status).toBe(409);
    expect(errorOf(hidden).code).toBe("PREDICTIONS_NOT_LOCKED");
    expect((await split("gm_no_such_game")).status).toBe(404);

    // Kick-off passes: just after the last prediction (a start moved before them would void them).
    const last = await db().prediction.findFirstOrThrow({ where: { gameId }, orderBy: { updatedAt: "desc" } });
    await db().game.update({ where: { id: gameId }, data: { startsAt: new Date(last.updatedAt.getTime() + 1) } });
    const shown = await split(gameId);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual({
      gameId,
      total: 4,
      outcomes: { home: { count: 2, percent: 50 }, draw: { count: 1, percent: 25 }, away: { count: 1, percent: 25 } },
      topScores: [
        { homeScore: 2, awayScore: 1, count: 2, percent: 50 },
        { homeScore: 0, awayScore: 0, count: 1, percent: 25 },
        { homeScore: 0, awayScore: 3, count: 1, percent: 25 },
      ],
    });
  });
});

describe("settlement", () => {
  it("settles once under two concurrent cron runs, by the points table; the history shows the points", async () => {
    const gameId = await predictionGame(new Date(Date.now() + hour));
    const fans = await Promise.all([fan(), fan(), fan(), fan(), fan()]);
    const picks: [number, number, number][] = [
      [2, 1, 10], // exact
      [3, 2, 6], // outcome and goal difference
      [1, 0, 6],
      [3, 0, 3], // outcome
      [1, 1, 0], // miss
    ];
    for (const [i, f] of fans.entries()) expect((await predict(f.auth, gameId, picks[i]![0], picks[i]![1])).status).toBe(201);
    const before = await Promise.all(fans.map((f) => repOf(f.id)));
    await finish(gameId, 2, 1);

    const runs = await Promise.all([settle(), settle()]);
    for (const r of runs) expect(r.status, r.text).toBe(200);
    expect(runs.reduce((n, r) => n + r.body.data.games, 0)).toBeGreaterThanOrEqual(1);
    await settle();
    for (const [i, f] of fans.entries()) {
      const points = picks[i]![2];
      expect(await repOf(f.id)).toBe(before[i]! + points);
      const entries = await entriesOf(f.id, gameId);
      expect(entries.map((e) => Number(e.amount))).toEqual(points > 0 ? [points] : []);
      expect((await mine(f.auth, gameId)).body.data.prediction).toMatchObject({ state: "settled", points });
    }
    const history = await api("GET", "/api/v1/engage/predictions", { headers: fans[0]!.auth });
    expect(history.status).toBe(200);
    expect(history.body.data).toMatchObject({
      totalPoints: 10,
      settled: 1,
      predictions: [{ gameId, points: 10, state: "settled", game: { id: gameId, homeScore: 2 } }],
    });
  });

  it("an amended final score re-settles: the points are recomputed and the difference written as new credit or debit entries", async () => {
    const gameId = await predictionGame(new Date(Date.now() + hour));
    const [wasExact, becomesExact, draw] = await Promise.all([fan(), fan(), fan()]);
    expect((await predict(wasExact.auth, gameId, 2, 1)).status).toBe(201);
    expect((await predict(becomesExact.auth, gameId, 2, 2)).status).toBe(201);
    expect((await predict(draw.auth, gameId, 1, 1)).status).toBe(201);
    const before = await Promise.all([wasExact, becomesExact, draw].map((f) => repOf(f.id)));
    await finish(gameId, 2, 1);
    await settle();
    expect(await repOf(wasExact.id)).toBe(before[0]! + 10);
    const firstEntry = (await entriesOf(wasExact.id, gameId))[0]!;

    // The live feed amends the final score: a late equaliser stands, 2-2.
    await finish(gameId, 2, 2);
    const runs = await Promise.all([settle(), settle()]);
    expect(runs.reduce((n, r) => n + r.body.data.resettled, 0)).toBeGreaterThanOrEqual(1);
    expect(await repOf(wasExact.id)).toBe(before[0]!);
    expect(await repOf(becomesExact.id)).toBe(before[1]! + 10);
    expect(await repOf(draw.id)).toBe(before[2]! + 6);
    const entries = await entriesOf(wasExact.id, gameId);
    expect(entries.map((e) => [Number(e.amount), e.earnKind, e.grantKey])).toEqual([
      [10, "prediction_points", `prediction:${gameId}:1`],
      [-10, "prediction_correction", `prediction:${gameId}:2`],
    ]);
    expect(entries[0]).toEqual(firstEntry); // never edited
    expect((await mine(wasExact.auth, gameId)).body.data.prediction.points).toBe(0);
    expect((await mine(draw.auth, gameId)).body.data.prediction.points).toBe(6);

    // Nothing changes without a new score; back to 2-1 settles a third time.
    await settle();
    expect(await entriesOf(wasExact.id, gameId)).toHaveLength(2);
    await finish(gameId, 2, 1);
    await settle();
    expect(await repOf(wasExact.id)).toBe(before[0]! + 10);
    expect(await repOf(becomesExact.id)).toBe(before[1]!);
    expect((await entriesOf(wasExact.id, gameId)).map((e) => e.grantKey)).toEqual([1, 2, 3].map((v) => `prediction:${gameId}:${v}`));
  });

  it("a settled game canceled afterwards is settled back to zero with a debit entry", async () => {
    const f = await fan();
    const gameId = await predictionGame(new Date(Date.now() + hour));
    expect((await predict(f.auth, gameId, 1, 0)).status).toBe(201);
    const before = await repOf(f.id);
    await finish(gameId, 1, 0);
    await settle();
    expect(await repOf(f.id)).toBe(before + 10);
    await db().game.update({ where: { id: gameId }, data: { status: "canceled" } });
    await Promise.all([settle(), settle()]);
    expect(await repOf(f.id)).toBe(before);
    expect((await entriesOf(f.id, gameId)).map((e) => Number(e.amount))).toEqual([10, -10]);
    expect((await mine(f.auth, gameId)).body.data.prediction).toMatchObject({ state: "void", points: 0 });
  });

  it("the cron needs its secret, is scheduled in vercel.json and documented only in the internal document; the routes are public contract", async () => {
    expect((await api("GET", "/api/cron/predictions-settle")).status).toBe(401);
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string; schedule: string }[] };
    expect(crons).toContainEqual({ path: "/api/cron/predictions-settle", schedule: "*/5 * * * *" });
    const internal = await api("GET", "/api/admin/openapi.json", { headers: newUser({ admin: true }).auth });
    expect(internal.body.paths["/api/cron/predictions-settle"].get.description).toMatch(/SKIP LOCKED/);
    const publicDoc = await api("GET", "/api/openapi.json");
    expect(publicDoc.body.paths["/api/cron/predictions-settle"]).toBeUndefined();
    expect(Object.keys(publicDoc.body.paths["/api/events/{gameId}/prediction"]).sort()).toEqual(["get", "put"]);
    expect(publicDoc.body.paths["/api/events/{gameId}/prediction"].put.description).toMatch(/exact score 10/);
    for (const path of ["/api/events/{gameId}/predictions", "/api/v1/engage/predictions", "/api/v1/private-leagues/{leagueId}/standings"])
      expect(publicDoc.body.paths[path].get).toBeDefined();
  });
});

describe("history", () => {
  it("keyset pages, newest first, with the total", async () => {
    const f = await fan();
    const games = [];
    for (let i = 0; i < 3; i++) {
      const g = await predictionGame(new Date(Date.now() + hour));
      expect((await predict(f.auth, g, i, 0)).status).toBe(201);
      games.push(g);
    }
    const first = await api("GET", "/api/v1/engage/predictions?limit=2", { headers: f.auth });
    expect(first.body.data.predictions.map((p: { gameId: string }) => p.gameId)).toEqual([games[2], games[1]]);
    expect(first.body.data).toMatchObject({ totalPoints: 0, settled: 0 });
    const second = await api("GET", `/api/v1/engage/predictions?limit=2&cursor=${first.body.data.nextCursor}`, { headers: f.auth });
    expect(second.body.data.predictions.map((p: { gameId: string }) => p.gameId)).toEqual([games[0]]);
    expect(second.body.data.nextCursor).toBeUndefined();
    expect((await api("GET", "/api/v1/engage/predictions?cursor=bad!", { headers: f.auth })).status).toBe(400);
  });
});
