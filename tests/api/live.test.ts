import { createHmac, randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { api, db, errorOf, fan, matchday, newUser, openEventStream, poster, withBareProductionServer } from "../helpers";
import { predict, settle } from "./prediction-games";

// The live match centre: POST /api/webhooks/live-events (signed, idempotent per provider event id, ordered by seq,
// amendments), GET /api/events/live, GET /api/events/{gameId}/timeline, /stats and /stream.
// Games here are between two archived teams of an archived league of the file's own (no list, record or count of
// another file sees them), except the live-list test's, a live game of tm_bsb (tests/helpers.ts matchday) left live.

const { webhookSecret } = inject("fixtures").live as { webhookSecret: string };
const WEBHOOK = "/api/webhooks/live-events";

const sign = (body: string, t = Math.floor(Date.now() / 1000), secret = webhookSecret) =>
  `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;

const deliver = (events: unknown[], signature?: string | null) => {
  const body = JSON.stringify({ events });
  return api("POST", WEBHOOK, {
    body,
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-signature": signature ?? sign(body) }) },
  });
};

/** A scheduled game of two archived teams with two players each: ids of the game, teams and players. */
async function fixtureGame() {
  const key = randomUUID().slice(0, 8);
  const archivedAt = new Date();
  const leagueId = `lg_live_${key}`;
  const home = `tm_lh_${key}`;
  const away = `tm_la_${key}`;
  const gameId = `gm_live_${key}`;
  await db().league.create({ data: { id: leagueId, slug: `live-${key}`, name: `Live ${key}`, sport: "football", archivedAt } });
  await db().team.createMany({
    data: [
      { id: home, slug: `lh-${key}`, name: `Home ${key}`, leagueId, archivedAt },
      { id: away, slug: `la-${key}`, name: `Away ${key}`, leagueId, archivedAt },
    ],
  });
  const players = { h1: `pl_lh1_${key}`, h2: `pl_lh2_${key}`, a1: `pl_la1_${key}`, a2: `pl_la2_${key}` };
  await db().player.createMany({
    data: [
      { id: players.h1, teamId: home, name: "Home One" },
      { id: players.h2, teamId: home, name: "Home Two" },
      { id: players.a1, teamId: away, name: "Away One" },
      { id: players.a2, teamId: away, name: "Away Two" },
    ],
  });
  await db().game.create({ data: { id: gameId, leagueId, homeTeamId: home, awayTeamId: away, startsAt: new Date(Date.now() + 600_000), status: "scheduled" } });
  let n = 0;
  /** A provider event id of this game's own. */
  const id = () => `ev_${key}_${++n}`;
  return { key, gameId, home, away, players, id };
}

const gameRow = (id: string) => db().game.findUniqueOrThrow({ where: { id }, select: { status: true, homeScore: true, awayScore: true } });
const timeline = (gameId: string, query = "") => api("GET", `/api/events/${gameId}/timeline${query}`);

describe("webhook: signature and validation", () => {
  it("refuses a missing, wrong or stale signature (401) and stores nothing", async () => {
    const g = await fixtureGame();
    const events = [{ id: g.id(), gameId: g.gameId, seq: 1, type: "kickoff" }];
    const body = JSON.stringify({ events });
    for (const signature of [null, sign(body, undefined, "whsec_not_the_secret_0000"), sign(body, Math.floor(Date.now() / 1000) - 3_600), "t=1,v1=zz"]) {
      const res = await deliver(events, signature);
      expect(res.status).toBe(401);
      expect(errorOf(res).code).toBe("UNAUTHORIZED");
    }
    expect(await db().gameEvent.count({ where: { gameId: g.gameId } })).toBe(0);
    expect((await gameRow(g.gameId)).status).toBe("scheduled");
  });

  it("a production server without LIVE_EVENTS_WEBHOOK_SECRET answers 503 LIVE_FEED_UNAVAILABLE", async () => {
    const g = await fixtureGame();
    const body = JSON.stringify({ events: [{ id: g.id(), gameId: g.gameId, seq: 1, type: "kickoff" }] });
    await withBareProductionServer(async (base) => {
      const res = await api("POST", WEBHOOK, { base, body, headers: { "content-type": "application/json", "x-signature": sign(body) } });
      expect(res.status).toBe(503);
      expect(errorOf(res).code).toBe("LIVE_FEED_UNAVAILABLE");
    });
    expect(await db().gameEvent.count({ where: { gameId: g.gameId } })).toBe(0);
  });

  it("validates every event (400 naming the field), and refuses events of unknown games, teams or players", async () => {
    const g = await fixtureGame();
    const bad = await deliver([{ id: g.id(), gameId: g.gameId, seq: 1, type: "goal" }]);
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe("VALIDATION_ERROR");
    expect(errorOf(bad).details!.some((d) => d.path.startsWith("body.events.0"))).toBe(true);
    const unknownType = await deliver([{ id: g.id(), gameId: g.gameId, seq: 1, type: "tackle" }]);
    expect(unknownType.status).toBe(400);

    const res = await deliver([
      { id: g.id(), gameId: `gm_nope_${g.key}`, seq: 1, type: "kickoff" },
      { id: g.id(), gameId: g.gameId, seq: 2, type: "goal", teamId: "tm_hch" },
      { id: g.id(), gameId: g.gameId, seq: 3, type: "card", teamId: g.home, playerId: `pl_nope_${g.key}`, card: "yellow" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: 3, applied: 0, duplicates: 0 });
    expect(res.body.data.rejected.map((r: { reason: string }) => r.reason).sort()).toEqual([
      `Team tm_hch does not play in game ${g.gameId}.`,
      `Unknown game gm_nope_${g.key}.`,
      `Unknown player pl_nope_${g.key}.`,
    ]);
    expect(await db().gameEvent.count({ where: { gameId: g.gameId } })).toBe(0);
  });
});

describe("webhook: idempotency and order", () => {
  it("applies kick-off and a goal; a replay of the batch is a no-op", async () => {
    const g = await fixtureGame();
    const events = [
      { id: g.id(), gameId: g.gameId, seq: 1, type: "kickoff", minute: 0 },
      { id: g.id(), gameId: g.gameId, seq: 2, type: "goal", minute: 12, teamId: g.home, playerId: g.players.h1, player2Id: g.players.h2 },
    ];
    const first = await deliver(events);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      received: 2,
      applied: 2,
      duplicates: 0,
      rejected: [],
      games: [{ id: g.gameId, status: "live", score: { home: 1, away: 0 } }],
    });
    expect(await gameRow(g.gameId)).toEqual({ status: "live", homeScore: 1, awayScore: 0 });
    const again = await deliver(events);
    expect(again.body.data).toMatchObject({ received: 2, applied: 0, duplicates: 2 });
    expect(await gameRow(g.gameId)).toEqual({ status: "live", homeScore: 1, awayScore: 0 });
    expect(await db().gameEvent.count({ where: { gameId: g.gameId } })).toBe(2);
  });

  it("concurrent deliveries of the same batch apply it once", async () => {
    const g = await fixtureGame();
    await deliver([{ id: g.id(), gameId: g.gameId, seq: 1, type: "kickoff" }]);
    const events = [
      { id: g.id(), gameId: g.gameId, seq: 2, type: "goal", teamId: g.away, playerId: g.players.a1 },
      {
        id: g.id(),
        gameId: g.gameId,
        seq: 3,
        type: "stat_line",
        teamId: g.away,
        playerId: g.players.a1,
        stats: { minutes: 20, goals: 1, assists: 0, shots: 2, saves: 0, yellowCards: 0, redCards: 0 },
      },
    ];
    const results = await Promise.all(Array.from({ length: 6 }, () => deliver(events)));
    for (const r of results) expect(r.status).toBe(200);
    expect(results.reduce((n, r) => n + (r.body.data.applied as number), 0)).toBe(2);
    expect(results.reduce((n, r) => n + (r.body.data.duplicates as number), 0)).toBe(10);
    expect(await gameRow(g.gameId)).toEqual({ status: "live", homeScore: 0, awayScore: 1 });
    expect(await db().gameEvent.count({ where: { gameId: g.gameId } })).toBe(3);
  });

  it("an event that arrives late (lower seq) never moves the game back; the newest stat line wins", async () => {
    const g = await fixtureGame();
    const line = (seq: number, goals: number, minutes: number) => ({
      id: g.id(),
      gameId: g.gameId,
      seq,
      type: "stat_line",
      teamId: g.home,
      playerId: g.players.h1,
      stats: { minutes, goals, assists: 0, shots: 3, saves: 0, yellowCards: 0, redCards: 0 },
    });
    await deliver([
      { id: g.id(), gameId: g.gameId, seq: 1, type: "kickoff" },
      { id: g.id(), gameId: g.gameId, seq: 5, type: "score", home: 2, away: 1 },
      { id: g.id(), gameId: g.gameId, seq: 20, type: "full_time", minute: 90 },
      line(30, 2, 90),
    ]);
    expect(await gameRow(g.gameId)).toEqual({ status: "final", homeScore: 2, awayScore: 1 });
    // Late: a period end before full time, a goal older than the provider's tally, an older stat line.
    const late = await deliver([
      { id: g.id(), gameId: g.gameId, seq: 15, type: "period_end", minute: 45 },
      { id: g.id(), gameId: g.gameId, seq: 4, type: "goal", teamId: g.away },
      line(25, 1, 70),
    ]);
    expect(late.body.data).toMatchObject({ applied: 3, games: [{ status: "final", score: { home: 2, away: 1 } }] });
    expect(await gameRow(g.gameId)).toEqual({ status: "final", homeScore: 2, awayScore: 1 });
    const stats = await api("GET", `/api/events/${g.gameId}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body.data.players).toEqual([
      expect.objectContaining({
        playerId: g.players.h1,
        name: "Home One",
        teamId: g.home,
        seq: 30,
        stats: { minutes: 90, goals: 2, assists: 0, shots: 3, saves: 0, yellowCards: 0, redCards: 0 },
      }),
    ]);
    expect(stats.body.data.teams).toEqual([
      { teamId: g.home, side: "home", totals: { minutes: 90, goals: 2, assists: 0, shots: 3, saves: 0, yellowCards: 0, redCards: 0 } },
      { teamId: g.away, side: "away", totals: { minutes: 0, goals: 0, assists: 0, shots: 0, saves: 0, yellowCards: 0, redCards: 0 } },
    ]);
    // The timeline holds the late events in the provider's order (stat lines are not in it).
    const items = (await timeline(g.gameId)).body.data.events as { seq: number }[];
    expect(items.map((e) => e.seq)).toEqual([1, 4, 5, 15, 20]);
  });
});

describe("amendments", () => {
  it("a goal disallowed after full time and settlement re-settles the predictions with a compensating entry", async () => {
    const g = await fixtureGame();
    const f = await fan();
    expect((await predict(f.auth, g.gameId, 1, 0)).status).toBe(201);
    const goal = g.id();
    await deliver([
      { id: g.id(), gameId: g.gameId, seq: 1, type: "kickoff" },
      { id: goal, gameId: g.gameId, seq: 2, type: "goal", minute: 50, teamId: g.home, playerId: g.players.h1 },
      { id: g.id(), gameId: g.gameId, seq: 3, type: "full_time" },
    ]);
    expect(await gameRow(g.gameId)).toMatchObject({ status: "final", homeScore: 1, awayScore: 0 });
    const repOf = async () => Number((await db().user.findUniqueOrThrow({ where: { id: f.id } })).repBalance);
    const before = await repOf();
    await settle();
    expect(await repOf()).toBe(before + 10); // the exact score

    // The provider disallows the goal after the whistle: 0-0 stands, and the next settle run takes the 10 back.
    await deliver([{ id: g.id(), gameId: g.gameId, seq: 4, type: "amendment", amends: goal, action: "void", reason: "handball" }]);
    expect(await gameRow(g.gameId)).toMatchObject({ status: "final", homeScore: 0, awayScore: 0 });
    await settle();
    expect(await repOf()).toBe(before);
    const entries = await db().repEntry.findMany({
      where: { userId: f.id, grantKey: { startsWith: `prediction:${g.gameId}:` } },
      orderBy: { createdAt: "asc" },
    });
    expect(entries.map((e) => Number(e.amount))).toEqual([10, -10]);
  });

  it("a disallowed goal changes the score and shows in the timeline; a changed scorer is marked, never overwritten", async () => {
    const g = await fixtureGame();
    const [goal1, goal2] = [g.id(), g.id()];
    await deliver([
      { id: g.id(), gameId: g.gameId, seq: 1, type: "kickoff" },
      { id: goal1, gameId: g.gameId, seq: 2, type: "goal", minute: 10, teamId: g.home, playerId: g.players.h1 },
      { id: goal2, gameId: g.gameId, seq: 3, type: "goal", minute: 30, teamId: g.home, playerId: g.players.h1 },
    ]);
    expect(await gameRow(g.gameId)).toMatchObject({ homeScore: 2, awayScore: 0 });
    const voidId = g.id();
    const amended = await deliver([{ id: voidId, gameId: g.gameId, seq: 4, type: "amendment", minute: 31, amends: goal2, action: "void", reason: "offside" }]);
    expect(amended.body.data.games).toEqual([{ id: g.gameId, status: "live", score: { home: 1, away: 0 } }]);
    expect(await gameRow(g.gameId)).toMatchObject({ homeScore: 1, awayScore: 0 });
    const changeId = g.id();
    await deliver([{ id: changeId, gameId: g.gameId, seq: 5, type: "amendment", amends: goal1, action: "change", changes: { playerId: g.players.h2 } }]);

    const items = (await timeline(g.gameId)).body.data.events as Record<string, unknown>[];
    expect(items.map((e) => e.id)).toEqual([expect.any(String), goal1, goal2, voidId, changeId]);
    expect(items[1]).toMatchObject({
      id: goal1,
      playerId: g.players.h1,
      voided: false,
      amendedBy: changeId,
      corrected: { teamId: g.home, playerId: g.players.h2, player2Id: null, minute: 10 },
    });
    expect(items[2]).toMatchObject({ id: goal2, playerId: g.players.h1, voided: true, amendedBy: voidId, corrected: null });
    expect(items[3]).toMatchObject({ type: "amendment", amends: goal2, data: { action: "void", reason: "offside" } });
    expect(await gameRow(g.gameId)).toMatchObject({ homeScore: 1, awayScore: 0 });

    // Restored (the VAR changed its mind), and an amendment received before the event it amends still applies.
    const goal3 = g.id();
    await deliver([
      { id: g.id(), gameId: g.gameId, seq: 6, type: "amendment", amends: goal2, action: "restore" },
      { id: g.id(), gameId: g.gameId, seq: 8, type: "amendment", amends: goal3, action: "change", changes: { teamId: g.away } },
    ]);
    expect(await gameRow(g.gameId)).toMatchObject({ homeScore: 2, awayScore: 0 });
    await deliver([{ id: goal3, gameId: g.gameId, seq: 7, type: "goal", teamId: g.home }]);
    expect(await gameRow(g.gameId)).toMatchObject({ homeScore: 2, awayScore: 1 });
  });
});

describe("reads", () => {
  it("GET /api/events/live: the caller's teams' games in progress, or all with scope=all", async () => {
    expect((await api("GET", "/api/events/live")).status).toBe(401);
    const gameId = await matchday("tm_bsb", { startsAt: new Date(Date.now() + 600_000) });
    const follower = newUser();
    expect((await api("POST", "/api/teams/tm_bsb/follow", { headers: follower.auth })).status).toBe(200);
    const stranger = newUser();
    const ids = async (auth: Record<string, string>, query = "") => {
      const out: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await api("GET", `/api/events/live?limit=50${query}${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth });
        expect(res.status).toBe(200);
        out.push(...res.body.data.games.map((x: { id: string }) => x.id));
        cursor = res.body.data.nextCursor;
      } while (cursor);
      return out;
    };
    expect(await ids(follower.auth)).not.toContain(gameId); // scheduled
    const kickoff = await deliver([{ id: `ev_bsb_${gameId}`, gameId, seq: 1, type: "kickoff", minute: 0 }]);
    expect(kickoff.body.data.games[0].status).toBe("live");
    expect(await ids(follower.auth)).toContain(gameId);
    expect(await ids(stranger.auth)).not.toContain(gameId);
    expect(await ids(stranger.auth, "&scope=all")).toContain(gameId);
    const one = (await api("GET", `/api/events/live?limit=50`, { headers: follower.auth })).body.data.games.find((x: { id: string }) => x.id === gameId);
    expect(one).toMatchObject({ status: "live", homeTeam: { id: "tm_bsb" }, score: { home: 0, away: 0 }, minute: 0 });
    expect((await api("GET", "/api/events/live?scope=some", { headers: follower.auth })).status).toBe(400);

    // A public post in the locker room of one of its teams while it is live reaches the game's stream.
    const stream = await openEventStream(`/api/events/${gameId}/stream`);
    try {
      expect((await stream.next((e) => e.event === "snapshot")).data.game).toMatchObject({ id: gameId, status: "live" });
      const author = await poster();
      const posted = await api("POST", "/api/locker-room", { headers: author.auth, json: { content: "Come on Bisons!", teamId: "tm_bsb" } });
      expect(posted.status).toBe(201);
      const post = await stream.next((e) => e.event === "post");
      expect(post.data).toMatchObject({ postId: posted.body.data.id, excerpt: "Come on Bisons!", teamIds: ["tm_bsb"] });
    } finally {
      stream.close();
    }
  });

  it("GET …/timeline: keyset pages in the provider's order; a bad cursor is 400, an unknown game 404", async () => {
    const g = await fixtureGame();
    await deliver(
      Array.from({ length: 5 }, (_, i) => ({
        id: g.id(),
        gameId: g.gameId,
        seq: 10 - i,
        type: "card",
        teamId: g.away,
        playerId: g.players.a2,
        card: "yellow",
        minute: 10 - i,
      })),
    );
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await timeline(g.gameId, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.events.map((e: { seq: number }) => e.seq));
      cursor = res.body.data.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual([6, 7, 8, 9, 10]);
    expect(pages).toBe(3);
    expect((await timeline(g.gameId, "?cursor=nope")).status).toBe(400);
    expect((await timeline(g.gameId, "?limit=0")).status).toBe(400);
    const missing = await timeline(`gm_missing_${g.key}`);
    expect(missing.status).toBe(404);
    expect(errorOf(missing).code).toBe("NOT_FOUND");
    expect((await api("GET", `/api/events/gm_missing_${g.key}/stats`)).status).toBe(404);
  });
});

describe("stream", () => {
  it("receives what the webhook applies (lock at kick-off, timeline, score, rating prompt) and resumes with Last-Event-ID", async () => {
    const g = await fixtureGame();
    const path = `/api/events/${g.gameId}/stream`;
    expect((await api("GET", `/api/events/gm_missing_${g.key}/stream`)).status).toBe(404);
    const stream = await openEventStream(path);
    let snapshotId: string;
    const goal = g.id();
    try {
      expect(stream.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const snapshot = await stream.next((e) => e.event === "snapshot");
      snapshotId = snapshot.id!;
      expect(snapshot.data).toMatchObject({ game: { id: g.gameId, status: "scheduled", score: null }, timeline: [] });
      const predictor = await fan();
      expect((await predict(predictor.auth, g.gameId, 2, 1)).status).toBe(201);
      await deliver([
        { id: g.id(), gameId: g.gameId, seq: 1, type: "kickoff", minute: 0 },
        { id: goal, gameId: g.gameId, seq: 2, type: "goal", minute: 3, teamId: g.away, playerId: g.players.a1 },
      ]);
      // In the provider's order: the timeline events, then the score and the status they made, then the lock.
      const ev = await stream.next((e) => e.event === "timeline" && e.data.event.id === goal);
      expect(ev.data.event).toMatchObject({ type: "goal", teamId: g.away, playerId: g.players.a1, minute: 3 });
      expect((await stream.next((e) => e.event === "score")).data).toEqual({ gameId: g.gameId, score: { home: 0, away: 1 } });
      expect((await stream.next((e) => e.event === "status")).data).toEqual({ gameId: g.gameId, status: "live", previous: "scheduled" });
      const lock = await stream.next((e) => e.event === "lock");
      // The crowd split goes to the room with the lock (predictions are closed from then on).
      expect(lock.data).toMatchObject({ gameId: g.gameId, crowd: { gameId: g.gameId, total: 1, outcomes: { home: { count: 1, percent: 100 } } } });
      expect((await predict(predictor.auth, g.gameId, 0, 0)).status).toBe(409);
      expect(Date.parse(lock.data.startsAt)).toBeGreaterThan(0);
    } finally {
      stream.close();
    }
    // Resuming after the snapshot: the missed events come again, with their ids, then new ones; full time ends it.
    const resumed = await openEventStream(path, { headers: { "last-event-id": snapshotId } });
    try {
      const replayed = await resumed.next((e) => e.event === "timeline" && e.data.event.id === goal);
      expect(replayed.id).toMatch(/^\d+-\d+$/);
      expect(resumed.seen.some((e) => e.event === "snapshot")).toBe(false);
      await deliver([{ id: g.id(), gameId: g.gameId, seq: 3, type: "full_time", minute: 90 }]);
      expect((await resumed.next((e) => e.event === "status" && e.data.status === "final")).data).toMatchObject({ previous: "live" });
      expect((await resumed.next((e) => e.event === "rating_prompt")).data).toEqual({
        gameId: g.gameId,
        ratings: `/api/events/${g.gameId}/ratings`,
        score: { home: 0, away: 1 },
      });
      await resumed.ended();
    } finally {
      resumed.close();
    }
  });
});
