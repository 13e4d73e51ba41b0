import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { api, db, fan } from "../helpers";
import { board, createContest, hour, lineupOf, put, squad, staff, type World, world } from "./contests-fixtures";

// Contests: settlement once under two concurrent crons, deterministic ties, re-settlement of amended stats with
// compensating Rep entries, void slots; the cron's schedule and the documents.

const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
const cron = () => api("GET", "/api/cron/contests-settle", { headers: { authorization: `Bearer ${cronSecret()}` } });

const repOf = async (userId: string) => Number((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance);
const finish = (w: World) => db().game.updateMany({ where: { id: { in: w.gameIds } }, data: { status: "final", startsAt: new Date(Date.now() - 3 * hour) } });
const stat = (
  gameId: string,
  playerId: string,
  line: Partial<Record<"minutes" | "goals" | "assists" | "shots" | "saves" | "yellowCards" | "redCards", number>>,
) =>
  db().gamePlayerStat.upsert({
    where: { gameId_playerId: { gameId, playerId } },
    create: { gameId, playerId, teamId: "x", minutes: 90, ...line },
    update: line,
  });

describe("settlement", () => {
  it("scores from the official lines once the games are final, ranks with deterministic ties, pays Rep once under two concurrent crons, unlocks", async () => {
    const sw = await world();
    const c = await createContest(sw);
    const [fa, fb, fc] = [await fan(), await fan(), await fan()];
    const [sa, sb, sc] = [await squad(sw, fa), await squad(sw, fb), await squad(sw, fc)];
    // B submits first but changes its lineup after A: its submission time is the later one.
    expect((await put(fb, c.id, lineupOf(sb, "rb"))).status).toBe(200);
    expect((await put(fa, c.id, lineupOf(sa, "rb"))).status).toBe(200);
    expect((await put(fb, c.id, lineupOf(sb, "wr"))).status).toBe(200);
    expect((await put(fc, c.id, lineupOf(sc, "qb"))).status).toBe(200);
    expect(await cron()).toMatchObject({ status: 200 });
    expect((await db().contest.findUniqueOrThrow({ where: { id: c.id } })).settledAt).toBeNull();

    // QB 90' + 1 goal = 2 + 6 + 2 shots = 10; RB 90' 1 assist - yellow = 2 + 4 - 1 = 5; WR 30' 1 assist = 1 + 4 = 5.
    await stat(sw.gameIds[0]!, sw.p.qb.id, { minutes: 90, goals: 1, shots: 2 });
    await stat(sw.gameIds[0]!, sw.p.rb.id, { minutes: 90, assists: 1, yellowCards: 1 });
    await stat(sw.gameIds[0]!, sw.p.wr.id, { minutes: 30, assists: 1 });
    await finish(sw);
    const before = await Promise.all([fa, fb, fc].map((f) => repOf(f.id)));
    const runs = await Promise.all([cron(), cron()]);
    for (const r of runs) expect(r.status, r.text).toBe(200);

    // C: 10*2 + 5 + 5 = 30 (captain 20); A: 10 + 5*2 + 5 = 25 (captain 10); B: 10 + 5 + 5*2 = 25 (captain 10), submitted later.
    const lb = await board(fb, c.id);
    expect(lb.status, lb.text).toBe(200);
    expect(
      lb.body.data.standings.map((x: { user: { id: string }; rank: number; score: number; captainScore: number; prize: number }) => [
        x.user.id,
        x.rank,
        x.score,
        x.captainScore,
        x.prize,
      ]),
    ).toEqual([
      [fc.id, 1, 30, 20, 100],
      [fa.id, 2, 25, 10, 50],
      [fb.id, 3, 25, 10, 20],
    ]);
    expect(lb.body.data.me).toMatchObject({ rank: 3, score: 25 });
    expect(await Promise.all([fa, fb, fc].map((f) => repOf(f.id)))).toEqual([before[0]! + 50, before[1]! + 20, before[2]! + 100]);
    expect(await db().repEntry.count({ where: { grantKey: `contest:${c.id}:v1` } })).toBe(3);
    expect(await db().contest.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ settledVersion: 1 });

    // Keyset pages by rank.
    const first = await board(null, c.id, "?limit=2");
    expect(first.body.data.standings.map((x: { rank: number }) => x.rank)).toEqual([1, 2]);
    expect(first.body.data.me).toBeNull();
    const next = await board(null, c.id, `?limit=2&cursor=${first.body.data.nextCursor}`);
    expect(next.body.data.standings.map((x: { rank: number }) => x.rank)).toEqual([3]);
    expect(next.body.data.nextCursor).toBeUndefined();
    expect((await board(null, c.id, "?cursor=bad!")).status).toBe(400);

    // Unlocked: the card can be listed now; a third cron run changes nothing.
    const listed = await api("POST", "/api/v1/marketplace/listings", { headers: fa.auth, json: { kind: "fixed", collectibleId: sa.rb, price: 500 } });
    expect(listed.status, listed.text).toBe(201);
    await cron();
    expect(await db().repEntry.count({ where: { targetId: c.id } })).toBe(3);
    const detail = await api("GET", `/api/v1/contests/${c.id}`, { headers: fc.auth });
    expect(detail.body.data).toMatchObject({ contest: { status: "settled", settledVersion: 1 }, lineup: { rank: 1, score: 30, prize: 100 } });
  });

  it("re-settles amended stats: new ranks, and compensating entries (a credit under a new key, a debit), never an edit", async () => {
    const sw = await world();
    const c = await createContest(sw);
    const [fa, fb, fc] = [await fan(), await fan(), await fan()];
    const [sa, sb, sc] = [await squad(sw, fa), await squad(sw, fb), await squad(sw, fc)];
    expect((await put(fa, c.id, lineupOf(sa, "rb"))).status).toBe(200);
    expect((await put(fb, c.id, lineupOf(sb, "wr"))).status).toBe(200);
    expect((await put(fc, c.id, lineupOf(sc, "qb"))).status).toBe(200);
    await stat(sw.gameIds[0]!, sw.p.qb.id, { minutes: 90, goals: 1, shots: 2 });
    await stat(sw.gameIds[0]!, sw.p.rb.id, { minutes: 90, assists: 1, yellowCards: 1 });
    await stat(sw.gameIds[0]!, sw.p.wr.id, { minutes: 30, assists: 1 });
    await finish(sw);
    await cron();
    const entriesBefore = await db().repEntry.findMany({ where: { targetId: c.id }, orderBy: { id: "asc" } });
    expect(entriesBefore.map((e) => [e.userId, Number(e.amount)]).sort()).toEqual(
      [
        [fa.id, 50],
        [fb.id, 20],
        [fc.id, 100],
      ].sort(),
    );
    const rep = await Promise.all([fa, fb, fc].map((f) => repOf(f.id)));

    // The feed amends the RB's line: 2 more goals (+12). A: 10 + 17*2 + 5 = 49; C: 20 + 17 + 5 = 42; B: 10 + 17 + 10 = 37.
    await stat(sw.gameIds[0]!, sw.p.rb.id, { goals: 2 });
    const runs = await Promise.all([cron(), cron()]);
    for (const r of runs) expect(r.status).toBe(200);
    const lb = await board(null, c.id);
    expect(lb.body.data.standings.map((x: { user: { id: string }; score: number; prize: number }) => [x.user.id, x.score, x.prize])).toEqual([
      [fa.id, 49, 100],
      [fc.id, 42, 50],
      [fb.id, 37, 20],
    ]);
    expect(await Promise.all([fa, fb, fc].map((f) => repOf(f.id)))).toEqual([rep[0]! + 50, rep[1]!, rep[2]! - 50]);
    const entries = await db().repEntry.findMany({ where: { targetId: c.id }, orderBy: { id: "asc" } });
    // The first settlement's entries untouched; one credit and one debit appended.
    expect(entries.slice(0, 3)).toEqual(entriesBefore);
    expect(
      entries
        .slice(3)
        .map((e) => [e.userId, Number(e.amount), e.grantKey])
        .sort(),
    ).toEqual(
      [
        [fa.id, 50, `contest:${c.id}:v2`],
        [fc.id, -50, `contest:${c.id}:v2:reversal`],
      ].sort(),
    );
    expect(await db().contest.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ settledVersion: 2 });
    await cron();
    expect(await db().contest.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ settledVersion: 2 });
  });

  it("a card that left its owner before settlement scores 0 in its slot; players of a canceled game score 0", async () => {
    const sw = await world(2);
    const c = await createContest(sw, { slots: ["QB", "RB", "*"], rarityCap: {}, prizes: [10] });
    const f = await fan();
    const s = await squad(sw, f);
    // The RB of the second game (teams 3 vs 2), in the "*" slot instead of the WR.
    const late = await sw.give(sw.p.late.cardId, f.id);
    const res = await put(f, c.id, [
      { collectibleId: s.qb, slot: 0, captain: true },
      { collectibleId: s.rb, slot: 1 },
      { collectibleId: late, slot: 2 },
    ]);
    expect(res.status, res.text).toBe(200);
    await stat(sw.gameIds[0]!, sw.p.qb.id, { minutes: 90, goals: 1, shots: 2 });
    await stat(sw.gameIds[0]!, sw.p.rb.id, { minutes: 90, goals: 1 });
    await stat(sw.gameIds[1]!, sw.p.late.id, { minutes: 90, goals: 3 });
    // A staff correction moves the RB card away (bypassing the lock, as a refund could).
    const other = await fan();
    await db().collectible.update({ where: { id: s.rb }, data: { ownerId: other.id } });
    await db().game.update({ where: { id: sw.gameIds[0]! }, data: { status: "final", startsAt: new Date(Date.now() - 3 * hour) } });
    await cron();
    expect((await db().contest.findUniqueOrThrow({ where: { id: c.id } })).settledAt).toBeNull();
    await db().game.update({ where: { id: sw.gameIds[1]! }, data: { status: "canceled" } });
    await cron();
    const mine = await api("GET", `/api/v1/contests/${c.id}/lineup`, { headers: f.auth });
    // QB captain 10 * 2; the RB's slot void; the canceled game's RB 0.
    expect(mine.body.data.lineup).toMatchObject({ score: 20, captainScore: 20, rank: 1, prize: 10 });
    expect(mine.body.data.lineup.cards.map((x: { void: boolean }) => x.void)).toEqual([false, true, false]);
  });
});

describe("the contests cron and the documents", () => {
  it("is scheduled every minute in vercel.json, documented only internally; every contest path is in the public document", async () => {
    const { crons } = JSON.parse(readFileSync("vercel.json", "utf8")) as { crons: { path: string; schedule: string }[] };
    expect(crons).toContainEqual({ path: "/api/cron/contests-settle", schedule: "* * * * *" });
    const internal = await api("GET", "/api/admin/openapi.json", { headers: staff.auth });
    expect(internal.body.paths["/api/cron/contests-settle"].get.description).toMatch(/SKIP LOCKED/);
    expect(Object.keys(internal.body.paths["/api/admin/contests"])).toEqual(["post"]);
    const publicDoc = await api("GET", "/api/openapi.json");
    expect(publicDoc.body.paths["/api/cron/contests-settle"]).toBeUndefined();
    expect(Object.keys(publicDoc.body.paths["/api/v1/contests"])).toEqual(["get"]);
    expect(Object.keys(publicDoc.body.paths["/api/v1/contests/{contestId}"])).toEqual(["get"]);
    expect(Object.keys(publicDoc.body.paths["/api/v1/contests/{contestId}/lineup"]).sort()).toEqual(["delete", "get", "put"]);
    expect(Object.keys(publicDoc.body.paths["/api/v1/contests/{contestId}/leaderboard"])).toEqual(["get"]);
    expect((await api("GET", "/api/cron/contests-settle")).status).toBe(401);
  });
});
