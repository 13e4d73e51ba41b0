import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { db as appDb } from "../../lib/db/client";
import { boardKey, checkBoards, closeSeasons, moveBoards } from "../../lib/core/rep/leaderboard/service";
import { packScore, unpackScore } from "../../lib/core/rep/leaderboard/score";
import { previousSeason, seasonOf } from "../../lib/core/rep/leaderboard/seasons";
import { boardStore } from "../../lib/core/rep/leaderboard/store";
import { award, debit } from "../../lib/core/rep/grants";
import { api, db, errorOf, matchday, newUser, openEventStream, token, userIdOf } from "../helpers";

// Leaderboards: points from the ledger, Redis as the rank index, ties, keyset pages, the caller's window, team
// boards, search, stats, seasons and their winners, and the rebuild and drift check against the ledger.

afterAll(() => appDb.$disconnect());

const season = () => seasonOf(new Date());
const { cronSecret } = inject("fixtures").sync as { cronSecret: string };
const admin = () => ({ authorization: `Bearer ${token(`user_admin_${randomUUID().slice(0, 8)}`, { admin: true })}` });

/** A fan with a handle, known to the API. */
async function fan(handle = `lb_${randomUUID().replace(/-/g, "").slice(0, 12)}`) {
  const user = newUser();
  expect((await api("GET", "/api/user/settings", { headers: user.auth })).status).toBe(200);
  const userId = await userIdOf(user.sub);
  await db().user.update({ where: { id: userId }, data: { handle, handleKey: handle.toLowerCase() } });
  return { ...user, userId, handle };
}

/** Credits Rep at `at` (the ledger only), then moves the fan's boards as a request would. */
async function credit(userId: string, amount: number, at = new Date(), source: "club" | "fanAmp" = "club") {
  await db().$transaction((tx) => award(tx, userId, { earnKind: "test_credit", amount, source, reason: "Test", grantKey: `t:${randomUUID()}`, createdAt: at }));
  await moveBoards([userId]);
}

// Seeded teams no other test joins, one per test that needs a board of its own: a team's board then holds only
// this test's fans. (Creating teams would change what the team list tests count.) Keep them out of other tests.
const OWN_TEAMS = ["tm_hdh", "tm_nfd", "tm_nww", "tm_opr", "tm_pct", "tm_pfb", "tm_rsa", "tm_stb"];
let ownTeams = 0;
function freshTeam() {
  const id = OWN_TEAMS[ownTeams++];
  if (!id) throw new Error("Out of teams of their own: add a seeded team no other test joins to OWN_TEAMS");
  return id;
}

const join = async (auth: Record<string, string>, teamId: string) =>
  expect((await api("POST", `/api/teams/${teamId}/join`, { headers: auth })).status).toBe(200);

const board = (q: string, auth: Record<string, string> = {}) => api("GET", `/api/leaderboard?${q}`, { headers: auth });

describe("score packing", () => {
  it("orders by points, then the earlier minute; stays within 2^53 at the largest points", () => {
    const t = new Date("2026-11-23T10:00:30Z");
    expect(packScore(10, t)).toBeGreaterThan(packScore(9, new Date("2020-01-01T00:00:00Z")));
    expect(packScore(10, t)).toBeGreaterThan(packScore(10, new Date("2026-11-23T10:01:00Z")));
    expect(packScore(10, t)).toBe(packScore(10, new Date("2026-11-23T10:00:59Z"))); // same minute: a tie
    expect(Number.isSafeInteger(packScore(2 ** 27 - 1, new Date("2025-01-01T00:00:00Z")))).toBe(true);
    expect(unpackScore(packScore(1234, t))).toEqual({ points: 1234, reachedAt: new Date("2026-11-23T10:00:00Z") });
    expect(unpackScore(packScore(-5, t)).points).toBe(0);
  });
});

describe("GET /api/leaderboard", () => {
  it("a team board: joined fans in order, ties share a rank, keyset pages neither repeat nor skip, the caller's window", async () => {
    const teamId = freshTeam();
    const fans = await Promise.all(Array.from({ length: 7 }, () => fan()));
    for (const f of fans) await join(f.auth, teamId);
    const minute = new Date(Date.now() - 3_600_000);
    // Points 50, 40, 40 (same minute: a tie), 40 (a minute later), 30, 0, 0 (joined, no Rep).
    const plan = [50, 40, 40, 40, 30];
    for (let i = 0; i < plan.length; i++) await credit(fans[i]!.userId, plan[i]!, i === 3 ? new Date(minute.getTime() + 60_000) : minute);

    const all: { rank: number; points: number; fan: { id: string } }[] = [];
    let cursor: string | undefined;
    do {
      const res = await board(`board=team:${teamId}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      all.push(...res.body.data.entries);
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(all.map((e) => e.fan.id).sort()).toEqual(fans.map((f) => f.userId).sort());
    expect(all.map((e) => e.points)).toEqual([50, 40, 40, 40, 30, 0, 0]);
    expect(all.map((e) => e.rank)).toEqual([1, 2, 2, 4, 5, 6, 6]);
    // Among equal scores, by fan id descending (Redis's order).
    const tied = all.slice(1, 3).map((e) => e.fan.id);
    expect(tied).toEqual([...tied].sort().reverse());

    const mine = await board(`board=team:${teamId}&limit=1`, fans[4]!.auth);
    expect(mine.body.data.board).toMatchObject({ board: `team:${teamId}`, teamId, period: "all", season: null, participants: 7 });
    expect(mine.body.data.me).toMatchObject({ rank: 5, points: 30, fan: { id: fans[4]!.userId, handle: fans[4]!.handle } });
    expect(mine.body.data.aroundMe.map((e: { points: number }) => e.points)).toEqual([50, 40, 40, 40, 30, 0, 0]);
    const seasonBoard = await board(`board=team:${teamId}&period=current`, fans[0]!.auth);
    expect(seasonBoard.body.data.board.season).toMatchObject({ id: season().id, closed: false });
    expect(seasonBoard.body.data.me).toMatchObject({ rank: 1, points: 50 });
  });

  it("Rep earned through the API moves the global boards; spending does not lower points, a reversal does", async () => {
    const f = await fan();
    const earned = await api("POST", "/api/v1/engage/rep/earn", { headers: f.auth, json: { earnKind: "daily_visit", idempotencyKey: randomUUID() } });
    expect(earned.status, earned.text).toBeLessThan(300);
    const me = async (period = "all") => (await board(`period=${period}&limit=1`, f.auth)).body.data.me;
    expect(await me()).toMatchObject({ points: 5 });
    expect(await me("current")).toMatchObject({ points: 5 });
    await db().$transaction((tx) =>
      debit(tx, f.userId, { earnKind: "reward_redemption", amount: 5, source: "serviceDirect", reason: "Spent", grantKey: `s:${randomUUID()}` }),
    );
    await moveBoards([f.userId]);
    expect(await me()).toMatchObject({ points: 5 });
    await credit(f.userId, 20);
    await db().$transaction((tx) =>
      debit(tx, f.userId, { earnKind: "reversal", amount: 20, source: "club", reason: "Reversed", grantKey: `r:${randomUUID()}` }),
    );
    await moveBoards([f.userId]);
    expect(await me()).toMatchObject({ points: 5 });
  });

  it("leaving a team takes the fan off its boards; joining puts them on with their points", async () => {
    const teamId = freshTeam();
    const f = await fan();
    await credit(f.userId, 12);
    await join(f.auth, teamId);
    expect((await board(`board=team:${teamId}`, f.auth)).body.data.me).toMatchObject({ rank: 1, points: 12 });
    expect((await api("DELETE", `/api/teams/${teamId}/join`, { headers: f.auth })).status).toBe(200);
    const after = await board(`board=team:${teamId}`, f.auth);
    expect(after.body.data.me).toBeNull();
    expect(after.body.data.entries).toEqual([]);
    expect(after.body.data.aroundMe).toEqual([]);
  });

  it("bad boards, periods and cursors are 400; an unknown team 404; a season older than the one before SEASON_ARCHIVED", async () => {
    for (const q of ["board=teams", "board=team:", "period=2026-13", "period=last", "limit=0", "limit=101", "cursor=zzz", "extra=1"]) {
      const res = await board(q);
      expect(res.status, q).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    }
    const unknown = await board("board=team:tm_no_such_team");
    expect(unknown.status).toBe(404);
    const old = previousSeason(previousSeason(season()));
    const archived = await board(`period=${old.id}`);
    expect(archived.status).toBe(404);
    expect(errorOf(archived).code).toBe("SEASON_ARCHIVED");
    expect((await board(`period=${previousSeason(season()).id}`)).status).toBe(200);
    const next = seasonOf(season().endsAt);
    expect((await board(`period=${next.id}`)).status).toBe(400);
  });
});

describe("board moves of concurrent writes", () => {
  it("are written together, and each write answers only once its own move is on the boards", async () => {
    const fans = await Promise.all(Array.from({ length: 20 }, () => fan()));
    await matchday("tm_bsb");
    await db().teamFollow.createMany({ data: fans.map((f) => ({ userId: f.userId, teamId: "tm_bsb" })) });
    const store = await boardStore();
    const key = boardKey("global", "all");
    // Each check-in credits 25 Rep; the moment its answer arrives, the fan's entry must already show them.
    const seen = await Promise.all(
      fans.map(async (f) => {
        const res = await api("POST", "/api/v1/engage/quests/arena-check-in", { headers: f.auth, json: { teamId: "tm_bsb" } });
        expect(res.status).toBe(201);
        const [standing] = await store.standings(key, [f.userId]);
        return standing ? unpackScore(standing.score).points : null;
      }),
    );
    expect(seen).toEqual(fans.map(() => 25));
  });
});

describe("search, stats, seasons", () => {
  it("search finds fans by handle prefix, any case, with their rank; fans off the board have none", async () => {
    const teamId = freshTeam();
    const tag = randomUUID().replace(/-/g, "").slice(0, 8);
    const a = await fan(`Srch${tag}_a`);
    const b = await fan(`srch${tag}_b`);
    await join(a.auth, teamId);
    await credit(a.userId, 9);
    const res = await api("GET", `/api/leaderboard/search?board=team:${teamId}&q=SRCH${tag}`);
    expect(res.status).toBe(200);
    expect(res.body.data.results).toEqual([
      { fan: expect.objectContaining({ id: a.userId, handle: a.handle }), rank: 1, points: 9 },
      { fan: expect.objectContaining({ id: b.userId, handle: b.handle }), rank: null, points: null },
    ]);
    expect((await api("GET", "/api/leaderboard/search?q=a%25")).status).toBe(400);
    expect((await api("GET", "/api/leaderboard/search")).status).toBe(400);
  });

  it("stats: participants, the caller's percentile, a distribution that adds up", async () => {
    const teamId = freshTeam();
    const fans = await Promise.all(Array.from({ length: 4 }, () => fan()));
    for (const [i, f] of fans.entries()) {
      await join(f.auth, teamId);
      await credit(f.userId, [100, 55, 10, 1][i]!);
    }
    const res = await api("GET", `/api/leaderboard/stats?board=team:${teamId}`, { headers: fans[1]!.auth });
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(s.board.participants).toBe(4);
    expect(s.topPoints).toBe(100);
    expect(s.me).toEqual({ rank: 2, points: 55, percentile: 75 });
    expect(s.distribution).toHaveLength(10);
    expect(s.distribution.reduce((n: number, d: { fans: number }) => n + d.fans, 0)).toBe(4);
    expect(s.distribution[0]).toMatchObject({ minPoints: 0, fans: 2 }); // 10 and 1 (bands of 11 points)
    expect((await api("GET", "/api/leaderboard/stats")).status).toBe(401);
  });

  it("seasons: the current month first, then back to the first Rep earned", async () => {
    const res = await api("GET", "/api/leaderboard/seasons");
    expect(res.status).toBe(200);
    const { current, seasons } = res.body.data;
    expect(current).toMatchObject({ id: season().id, startsAt: season().startsAt.toISOString(), endsAt: season().endsAt.toISOString() });
    expect(seasons[0].id).toBe(current.id);
    const ids = seasons.map((s: { id: string }) => s.id);
    expect(ids).toEqual([...ids].sort().reverse());
  });
});

describe("rebuild, drift and winners", () => {
  it("the drift check finds a wrong, a missing and an extra entry; the rebuild restores exactly the boards the moves made", async () => {
    const teamId = freshTeam();
    const fans = await Promise.all(Array.from({ length: 3 }, () => fan()));
    for (const [i, f] of fans.entries()) {
      await join(f.auth, teamId);
      await credit(f.userId, 10 * (i + 1));
    }
    const key = boardKey(`team:${teamId}`, "all");
    const store = await boardStore();
    const before = await store.range(key, 0, 10);
    expect(before.map((e) => unpackScore(e.score).points)).toEqual([30, 20, 10]);

    await store.set([{ key, member: fans[0]!.userId, score: packScore(999, new Date()) }]);
    await store.remove([{ key, member: fans[1]!.userId }]);
    await store.set([{ key, member: randomUUID(), score: 5 }]);
    const mine = (r: { boards: { board: string; period: string }[] }) => r.boards.find((b) => b.board === `team:${teamId}` && b.period === "all");
    const checked = await api("GET", "/api/admin/leaderboard/check", { headers: admin() });
    expect(checked.status).toBe(200);
    expect(checked.body.data.drift).toBe(true);
    expect(mine(checked.body.data)).toEqual({ board: `team:${teamId}`, period: "all", expected: 3, missing: 1, extra: 1, wrong: 1 });

    const rebuildSub = `user_admin_${randomUUID().slice(0, 8)}`;
    const rebuilt = await api("POST", "/api/admin/leaderboard/rebuild", { headers: { authorization: `Bearer ${token(rebuildSub, { admin: true })}` } });
    expect(rebuilt.status).toBe(200);
    // Audited when it starts (the boards are in Redis): one entry with the role and the request id.
    expect(
      await db().auditEntry.findMany({ where: { actorId: rebuildSub }, select: { action: true, actorRole: true, requestId: true, targetType: true } }),
    ).toEqual([{ action: "leaderboard.rebuild", actorRole: "admin", requestId: rebuilt.headers.get("x-request-id"), targetType: "leaderboard" }]);
    expect(mine(rebuilt.body.data)).toEqual({ board: `team:${teamId}`, period: "all", entries: 3 });
    expect(await store.range(key, 0, 10)).toEqual(before);
    expect(mine(await checkBoards())).toMatchObject({ missing: 0, extra: 0, wrong: 0 });
    const notStaff = newUser();
    expect((await api("POST", "/api/admin/leaderboard/rebuild", { headers: notStaff.auth })).status).toBe(403);
    expect(await db().auditEntry.count({ where: { actorId: notStaff.sub } })).toBe(0);
  });

  it("the season cron writes a finished season's winners once, even run twice at once; /winners lists them", async () => {
    const last = previousSeason(season());
    const champion = await fan();
    const runnerUp = await fan();
    // Far more than any other test's fan earns, in the middle of last season.
    const mid = new Date((last.startsAt.getTime() + last.endsAt.getTime()) / 2);
    await credit(champion.userId, 5_000_000, mid);
    await credit(runnerUp.userId, 4_000_000, mid);
    await db().leaderboardSeasonClosing.deleteMany({ where: { seasonId: last.id } });

    const runs = await Promise.all([1, 2].map(() => api("GET", "/api/cron/leaderboard-seasons", { headers: { authorization: `Bearer ${cronSecret}` } })));
    expect(runs.map((r) => r.status)).toEqual([200, 200]);
    const closedLast = runs.flatMap((r) => r.body.data.closed).filter((c: { seasonId: string }) => c.seasonId === last.id);
    expect(closedLast).toHaveLength(1);
    const again = await closeSeasons();
    expect(again.closed.find((c) => c.seasonId === last.id)).toBeUndefined();

    const res = await api("GET", `/api/leaderboard/winners?season=${last.id}`);
    expect(res.status).toBe(200);
    const [entry] = res.body.data.seasons;
    expect(entry.season).toMatchObject({ id: last.id, closed: true });
    expect(entry.winners.slice(0, 2)).toEqual([
      expect.objectContaining({ rank: 1, points: 5_000_000, fan: expect.objectContaining({ id: champion.userId }) }),
      expect.objectContaining({ rank: 2, points: 4_000_000, fan: expect.objectContaining({ id: runnerUp.userId }) }),
    ]);
    expect(entry.winners.length).toBeLessThanOrEqual(10);
    expect(await db().leaderboardWinner.count({ where: { seasonId: last.id, board: "global" } })).toBe(entry.winners.length);
    expect((await api("GET", "/api/cron/leaderboard-seasons")).status).toBe(401);
  });
});

describe("GET /api/leaderboard/stream", () => {
  const stream = (q: string, headers: Record<string, string> = {}) => openEventStream(`/api/leaderboard/stream?${q}`, { headers });

  it("a snapshot first, then score and leave events for that board only, each with an id", async () => {
    const teamId = freshTeam();
    const [a, b] = await Promise.all([fan(), fan()]);
    await join(a.auth, teamId);
    await credit(a.userId, 30);
    const s = await stream(`board=team:${teamId}`, a.auth);
    try {
      expect(s.res.status).toBe(200);
      expect(s.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const snapshot = await s.next((e) => e.event !== ":comment" && e.event !== "message");
      expect(snapshot.event).toBe("snapshot");
      expect(snapshot.id).toMatch(/^\d+-\d+$/);
      expect(snapshot.data.entries).toEqual([expect.objectContaining({ rank: 1, points: 30, fan: expect.objectContaining({ id: a.userId }) })]);
      expect(snapshot.data.me).toMatchObject({ rank: 1, points: 30 });

      await credit(b.userId, 99); // b is not on this team's board: no event
      await join(b.auth, teamId); // now b is, with 99 points: rank 1
      const score = await s.next((e) => e.event === "score");
      expect(score.data).toMatchObject({ fan: { id: b.userId }, points: 99, rank: 1 });
      expect(score.id! > snapshot.id!).toBe(true);
      expect((await api("DELETE", `/api/teams/${teamId}/join`, { headers: b.auth })).status).toBe(200);
      const left = await s.next((e) => e.event === "leave");
      expect(left.data).toEqual({ fan: { id: b.userId } });
    } finally {
      s.close();
    }
  });

  it("an erased account leaves only the boards it was on: another board's stream hears nothing of it", async () => {
    // A seeded team whose board no test asserts (other files' fans may be on it: only a's and gone's events count).
    const teamId = "tm_irf";
    const [a, gone] = await Promise.all([fan(), fan()]);
    await join(a.auth, teamId);
    await credit(a.userId, 30);
    await credit(gone.userId, 40); // on the global boards only
    const s = await stream(`board=team:${teamId}`, a.auth);
    try {
      expect((await s.next((e) => e.event === "snapshot")).event).toBe("snapshot");
      expect((await api("POST", "/api/v1/me/deletion", { headers: gone.auth, json: { confirm: true } })).status).toBe(202);
      await db()
        .$executeRaw`UPDATE account_deletions SET requested_at = now() - interval '8 days', due_at = now() - interval '1 second', not_before = now() - interval '1 second' WHERE user_id = ${gone.userId}::uuid`;
      expect((await api("GET", "/api/cron/account-erasure", { headers: { authorization: `Bearer ${cronSecret}` } })).status).toBe(200);
      expect((await db().accountDeletion.findUniqueOrThrow({ where: { userId: gone.userId } })).state).toBe("erased");
      await credit(a.userId, 5);
      // a's score comes, and no "leave" of gone (never on this board) before it.
      const next = await s.next((e) => (e.event === "score" && e.data.fan.id === a.userId) || (e.event === "leave" && e.data.fan.id === gone.userId));
      expect(next).toMatchObject({ event: "score", data: { fan: { id: a.userId }, points: 35 } });
    } finally {
      s.close();
    }
  });

  it("Last-Event-ID resumes with what was missed; an id the feed no longer holds gets a fresh snapshot", async () => {
    const teamId = freshTeam();
    const a = await fan();
    await join(a.auth, teamId);
    const first = await stream(`board=team:${teamId}`);
    const snapshot = await first.next((e) => e.event === "snapshot");
    first.close();
    await credit(a.userId, 7);
    const resumed = await stream(`board=team:${teamId}`, { "last-event-id": snapshot.id! });
    try {
      const e = await resumed.next((x) => x.event === "score" || x.event === "snapshot");
      expect(e.event).toBe("score");
      expect(e.data).toMatchObject({ fan: { id: a.userId }, points: 7, rank: 1 });
    } finally {
      resumed.close();
    }
    for (const id of ["1-0", "not-an-id"]) {
      const fresh = await stream(`board=team:${teamId}`, { "last-event-id": id });
      try {
        expect((await fresh.next((x) => x.event === "score" || x.event === "snapshot")).event).toBe("snapshot");
      } finally {
        fresh.close();
      }
    }
  });

  it("a browser's session cookie names the caller; heartbeats keep it open; it ends itself with a retry hint", async () => {
    const teamId = freshTeam();
    const a = await fan();
    await join(a.auth, teamId);
    const s = await stream(`board=team:${teamId}`, { cookie: `__session=${a.auth.authorization.slice(7)}` });
    const retry = await s.next((e) => e.retry !== null);
    expect(retry.retry).toBe(3000);
    expect((await s.next((e) => e.event === "snapshot")).data.me).toMatchObject({ fan: { id: a.userId } });
    await s.next((e) => e.event === ":comment");
    const end = await s.next((e) => e.event === "reconnect", 20_000);
    expect(end.retry).toBe(3000);
    await s.ended();
  });

  it("bad queries are JSON 400s, an unknown team 404, before any stream opens", async () => {
    const bad = await api("GET", "/api/leaderboard/stream?board=nope");
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe("VALIDATION_ERROR");
    const unknown = await api("GET", "/api/leaderboard/stream?board=team:tm_no_such_team");
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe("NOT_FOUND");
  });
});

describe("GET /api/leaderboard/stream: streams per caller", () => {
  // The test server's STREAMS_PER_CALLER is the default, 5; a slot lives max(3 heartbeats, 5 s) unless refreshed.
  const CAP = 5;
  const open = (headers: Record<string, string>) => openEventStream("/api/leaderboard/stream?board=global", { headers });
  const refused = async (headers: Record<string, string>) => {
    const res = await api("GET", "/api/leaderboard/stream?board=global", { headers });
    expect(res.status).toBe(429);
    expect(errorOf(res).code).toBe("TOO_MANY_STREAMS");
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    return res;
  };
  // As behind the test server's two proxies: the client is the second entry from the right.
  const from = (ip: string) => ({ "x-forwarded-for": `${ip}, 10.0.0.1` });
  const someAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;

  it("a Bearer user holds at most 5: the 6th is 429 TOO_MANY_STREAMS with Retry-After; closing one frees its slot at once", async () => {
    const a = await fan();
    const held = await Promise.all(Array.from({ length: CAP }, () => open(a.auth)));
    try {
      expect(held.map((s) => s.res.status)).toEqual(Array(CAP).fill(200));
      const res = await refused(a.auth);
      expect(errorOf(res).message).toMatch(/at most 5/);
      const another = await open((await fan()).auth); // another user has their own slots
      held.push(another);
      expect(another.res.status).toBe(200);

      // A closed stream gives its slot back within moments, long before it would lapse.
      held.shift()!.close();
      const deadline = Date.now() + 2_000;
      let next = await open(a.auth);
      while (next.res.status !== 200 && Date.now() < deadline) {
        next.close();
        await new Promise((r) => setTimeout(r, 50));
        next = await open(a.auth);
      }
      held.push(next);
      expect(next.res.status).toBe(200);
      await refused(a.auth); // full again: 4 old and the new one
    } finally {
      held.forEach((s) => s.close());
    }
  });

  it("callers without a Bearer session, anonymous or with a session cookie, are capped per client address", async () => {
    const [ip, other] = [someAddress(), `203.0.113.${Math.floor(Math.random() * 250) + 1}`];
    const held = await Promise.all(Array.from({ length: CAP }, () => open(from(ip))));
    try {
      expect(held.map((s) => s.res.status)).toEqual(Array(CAP).fill(200));
      await refused(from(ip));
      const a = await fan();
      await refused({ ...from(ip), cookie: `__session=${a.auth.authorization.slice(7)}` });
      // A Bearer caller counts as their user, wherever they call from; another address has its own slots.
      for (const headers of [{ ...from(ip), ...a.auth }, from(other)]) {
        const s = await open(headers);
        held.push(s);
        expect(s.res.status).toBe(200);
      }
    } finally {
      held.forEach((s) => s.close());
    }
  });
});
