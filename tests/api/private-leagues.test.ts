import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, fan } from "../helpers";
import { predict, predictionGame, settle } from "./prediction-games";

// Private leagues: codes (join, idempotent, rotation), the member cap and the per-fan caps under concurrency, leaving
// and the owner's removals, standings since joining with deterministic ties.

type Fan = Awaited<ReturnType<typeof fan>>;
const hour = 3_600_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function create(f: Fan, name = `League ${randomUUID().slice(0, 6)}`) {
  const res = await api("POST", "/api/v1/private-leagues", { headers: f.auth, json: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.league as { id: string; code: string; memberCount: number; isOwner: boolean; admin: { members: { userId: string }[] } | null };
}
const join = (f: Fan, code: string) => api("POST", "/api/v1/private-leagues/join", { headers: f.auth, json: { code } });
const detail = (f: Fan, id: string) => api("GET", `/api/v1/private-leagues/${id}`, { headers: f.auth });
const leave = (f: Fan, id: string, userId?: string) =>
  api("DELETE", `/api/v1/private-leagues/${id}/membership${userId ? `?userId=${userId}` : ""}`, { headers: f.auth });
const standingsOf = (f: Fan, id: string) => api("GET", `/api/v1/private-leagues/${id}/standings`, { headers: f.auth });

describe("creating and joining", () => {
  it("the owner is the first member and sees admin fields; a code joins (any case), again changes nothing; non-members see 404", async () => {
    const [owner, member, stranger] = await Promise.all([fan(), fan(), fan()]);
    const league = await create(owner, "Friday five-a-side");
    expect(league).toMatchObject({ isOwner: true, memberCount: 1, memberCap: 50, name: "Friday five-a-side", admin: { members: [{ userId: owner.id }] } });
    expect(league.code).toMatch(/^[0-9A-Z]{8}$/);

    const joined = await join(member, league.code.toLowerCase());
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.data).toMatchObject({ joined: true, league: { id: league.id, isOwner: false, memberCount: 2, code: league.code, admin: null } });
    const again = await join(member, league.code);
    expect(again.body.data).toMatchObject({ joined: false, league: { memberCount: 2 } });
    expect((await api("GET", "/api/v1/private-leagues", { headers: member.auth })).body.data.leagues.map((l: { id: string }) => l.id)).toEqual([league.id]);
    expect((await detail(owner, league.id)).body.data.league.admin.members.map((m: { userId: string }) => m.userId)).toEqual([owner.id, member.id]);

    const hidden = await detail(stranger, league.id);
    expect(hidden.status).toBe(404);
    expect((await standingsOf(stranger, league.id)).status).toBe(404);
    expect(errorOf(await join(stranger, "ZZZZZZZZ")).code).toBe("INVALID_LEAGUE_CODE");
    expect((await join(stranger, "short")).status).toBe(400);
    expect((await api("POST", "/api/v1/private-leagues", { headers: owner.auth, json: { name: "  " } })).status).toBe(400);
    expect((await detail(owner, "not-a-uuid")).status).toBe(400);
  });

  it("the member cap holds under concurrent joins: 48 members, 5 join at once, 2 get in", async () => {
    const owner = await fan();
    const league = await create(owner);
    const filler = await Promise.all(Array.from({ length: 47 }, () => db().user.create({ data: { externalId: `user_fill_${randomUUID()}` } })));
    await db().privateLeagueMember.createMany({ data: filler.map((u) => ({ leagueId: league.id, userId: u.id })) });
    await db().privateLeague.update({ where: { id: league.id }, data: { memberCount: 48 } });
    const joiners = await Promise.all(Array.from({ length: 5 }, () => fan()));
    const res = await Promise.all(joiners.map((f) => join(f, league.code)));
    expect(res.map((r) => r.status).sort()).toEqual([200, 200, 409, 409, 409]);
    for (const r of res.filter((r) => r.status === 409)) expect(errorOf(r).code).toBe("LEAGUE_FULL");
    expect(await db().privateLeagueMember.count({ where: { leagueId: league.id } })).toBe(50);
    expect((await db().privateLeague.findUniqueOrThrow({ where: { id: league.id } })).memberCount).toBe(50);
  });

  it("a fan owns at most 5 leagues, also when creating concurrently", async () => {
    const f = await fan();
    const res = await Promise.all(
      Array.from({ length: 7 }, (_, i) => api("POST", "/api/v1/private-leagues", { headers: f.auth, json: { name: `Mine ${i}` } })),
    );
    expect(res.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409]);
    expect(errorOf(res.find((r) => r.status === 409)!).code).toBe("LEAGUE_LIMIT");
    expect(await db().privateLeague.count({ where: { ownerId: f.id } })).toBe(5);
  });
});

describe("the owner's controls", () => {
  it("rotating the code: the old one stops working, members stay; only the owner may", async () => {
    const [owner, member, late] = await Promise.all([fan(), fan(), fan()]);
    const league = await create(owner);
    expect((await join(member, league.code)).status).toBe(200);
    const denied = await api("POST", `/api/v1/private-leagues/${league.id}/code`, { headers: member.auth });
    expect(denied.status).toBe(403);
    expect(errorOf(denied).code).toBe("NOT_LEAGUE_OWNER");
    const rotated = await api("POST", `/api/v1/private-leagues/${league.id}/code`, { headers: owner.auth });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.data.code).not.toBe(league.code);
    expect(errorOf(await join(late, league.code)).code).toBe("INVALID_LEAGUE_CODE");
    expect((await join(late, rotated.body.data.code)).body.data.joined).toBe(true);
    expect((await detail(member, league.id)).body.data.league).toMatchObject({ code: rotated.body.data.code, memberCount: 3 });
  });

  it("the owner removes a member; others may not; the owner leaves only as the last member, which deletes the league", async () => {
    const [owner, a, b] = await Promise.all([fan(), fan(), fan()]);
    const league = await create(owner);
    for (const f of [a, b]) expect((await join(f, league.code)).status).toBe(200);

    const notOwner = await leave(a, league.id, b.id);
    expect(notOwner.status).toBe(403);
    expect(errorOf(notOwner).code).toBe("NOT_LEAGUE_OWNER");
    const ownerLeaves = await leave(owner, league.id);
    expect(ownerLeaves.status).toBe(409);
    expect(errorOf(ownerLeaves).code).toBe("OWNER_CANNOT_LEAVE");

    const removed = await leave(owner, league.id, a.id);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.data).toEqual({ leagueId: league.id, userId: a.id, removed: true, leagueDeleted: false });
    expect((await detail(a, league.id)).status).toBe(404);
    expect((await leave(owner, league.id, a.id)).status).toBe(404);
    expect((await leave(b, league.id)).body.data).toMatchObject({ userId: b.id, removed: false, leagueDeleted: false });
    expect((await detail(owner, league.id)).body.data.league.memberCount).toBe(1);
    expect((await leave(owner, league.id)).body.data).toMatchObject({ leagueDeleted: true });
    expect(await db().privateLeague.count({ where: { id: league.id } })).toBe(0);
  });
});

describe("standings", () => {
  it("points from games kicked off after joining; ties by exact scores, then who joined first, then user id", async () => {
    const [owner, a, b, c] = await Promise.all([fan(), fan(), fan(), fan()]);
    // g0 kicks off between c's prediction and c joining: it counts for nobody in the league's standings.
    const g0 = await predictionGame(new Date(Date.now() + hour));
    expect((await predict(c.auth, g0, 1, 0)).status).toBe(201);
    const league = await create(owner);
    for (const f of [a, b]) {
      expect((await join(f, league.code)).status).toBe(200);
      await sleep(5);
    }
    await sleep(20);
    expect((await join(c, league.code)).status).toBe(200);
    const cJoined = (await db().privateLeagueMember.findUniqueOrThrow({ where: { leagueId_userId: { leagueId: league.id, userId: c.id } } })).joinedAt;
    await db().game.update({ where: { id: g0 }, data: { startsAt: new Date(cJoined.getTime() - 5) } });

    const [g1, g2] = await Promise.all([predictionGame(new Date(Date.now() + hour)), predictionGame(new Date(Date.now() + hour))]);
    const picks: [Fan, string, number, number][] = [
      [a, g1, 2, 1], // 10 (exact)
      [a, g2, 1, 0], // 0
      [b, g1, 1, 0], // 6
      [b, g2, 1, 1], // 6
      [c, g1, 0, 1], // 0
      [c, g2, 0, 0], // 10 (exact)
    ];
    for (const [f, g, h, w] of picks) expect((await predict(f.auth, g, h, w)).status).toBe(201);
    await db().game.update({ where: { id: g0 }, data: { status: "final", homeScore: 1, awayScore: 0 } });
    await db().game.update({ where: { id: g1 }, data: { status: "final", homeScore: 2, awayScore: 1 } });
    await db().game.update({ where: { id: g2 }, data: { status: "final", homeScore: 0, awayScore: 0 } });
    await settle();
    expect((await db().prediction.findFirstOrThrow({ where: { gameId: g0, userId: c.id } })).points).toBe(10);

    const res = await standingsOf(a, league.id);
    expect(res.status, res.text).toBe(200);
    expect(
      res.body.data.standings.map((s: { userId: string; rank: number; points: number; exactScores: number }) => [s.userId, s.rank, s.points, s.exactScores]),
    ).toEqual([
      [b.id, 1, 12, 0],
      [a.id, 2, 10, 1],
      [c.id, 2, 10, 1], // same points and exact scores as a, joined later
      [owner.id, 4, 0, 0],
    ]);
  });
});
