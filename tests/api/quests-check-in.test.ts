import { beforeAll, describe, expect, it } from "vitest";
import { api, db, errorOf, matchday } from "../helpers";
import { balanceOf, dayStart, fan, join, QUESTS, signedUp, today } from "./quests-fixtures";

// The quest engine: arena check-ins, the daily summary and streak.

const SUMMARY = `${QUESTS}/daily-summary`;
const CHECK_IN = `${QUESTS}/arena-check-in`;

describe("POST /api/v1/engage/quests/arena-check-in", () => {
  // tm_bsb has games under way (tests/helpers.ts matchday) and never one with venue coordinates, so check-ins there
  // need no gameId; tm_irf's games are named by gameId (venue and window rules); NO_GAME_TEAMS never get one.
  const TEAM = "tm_bsb";
  beforeAll(() => matchday(TEAM));

  it("credits the server's award once and completes the team's check-in quest without a second award", async () => {
    const gameId = await matchday(TEAM);
    const { auth, userId } = await fan(TEAM);
    const res = await api("POST", CHECK_IN, { headers: auth, json: { teamId: TEAM, gameId } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      teamId: TEAM,
      gameId,
      day: today(),
      repAwarded: 25,
      source: "club",
      balance: 25,
      questCompleted: "q_checkin_bsb",
    });
    const entries = await db().repEntry.findMany({ where: { userId } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ earnKind: "arena_check_in", amount: 25n, source: "club", grantKey: `arena_check_in:${TEAM}:${today()}` });
    const p = await db().questProgress.findUniqueOrThrow({ where: { userId_questId_periodKey: { userId, questId: "q_checkin_bsb", periodKey: today() } } });
    expect(p.completedAt).not.toBeNull();
    expect(p.repAwarded).toBe(0n);
    expect(await db().arenaCheckIn.findFirstOrThrow({ where: { userId } })).toMatchObject({ gameId });

    const again = await api("POST", CHECK_IN, { headers: auth, json: { teamId: TEAM } });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: "ALREADY_CHECKED_IN", message: "You already checked in for this team today (UTC)." });
    expect(await balanceOf(userId)).toBe(25);
  });

  it("a fan only: a caller who neither follows nor joined the team is refused; joining is enough", async () => {
    const { auth, userId } = await signedUp();
    const res = await api("POST", CHECK_IN, { headers: auth, json: { teamId: TEAM } });
    expect([res.status, errorOf(res).code]).toEqual([409, "NOT_FOLLOWING_TEAM"]);
    await join(userId, TEAM);
    const joined = await api("POST", CHECK_IN, { headers: auth, json: { teamId: TEAM } });
    expect(joined.status).toBe(201);
    expect(joined.body.data.gameId).toMatch(/^gm_md_/); // one of the team's games under way
  });

  it("at a game only: a team with no game today is refused, and so is a game outside its window (3 h either side of kick-off)", async () => {
    // A seeded team with no game within a day (the seed's games have fixed dates; matchday gives these none).
    const near = { gte: new Date(Date.now() - 86_400_000), lte: new Date(Date.now() + 86_400_000) };
    const idle = [];
    for (const teamId of ["tm_sls", "tm_kpk", "tm_pap", "tm_rmr"]) {
      if ((await db().game.count({ where: { OR: [{ homeTeamId: teamId }, { awayTeamId: teamId }], startsAt: near } })) === 0) idle.push(teamId);
    }
    const sofa = await fan(idle[0]!);
    const none = await api("POST", CHECK_IN, { headers: sofa.auth, json: { teamId: idle[0] } });
    expect([none.status, errorOf(none).code]).toEqual([409, "NO_GAME_TODAY"]);

    const { auth, userId } = await fan("tm_irf");
    for (const kickoffMinutesAgo of [-181, 181]) {
      const gameId = await matchday("tm_irf", { kickoffMinutesAgo });
      // Near midnight (UTC) a game 181 minutes away is another day's: then it is not this team's game today.
      const sameDay = new Date(Date.now() - kickoffMinutesAgo * 60_000).toISOString().slice(0, 10) === today();
      const res = await api("POST", CHECK_IN, { headers: auth, json: { teamId: "tm_irf", gameId } });
      expect([res.status, errorOf(res).code], `kick-off ${kickoffMinutesAgo} min ago`).toEqual([409, sameDay ? "CHECK_IN_CLOSED" : "CHECK_IN_GAME_MISMATCH"]);
    }
    expect(await balanceOf(userId)).toBe(0);
    for (const kickoffMinutesAgo of [-170, 170]) {
      const gameId = await matchday("tm_irf", { kickoffMinutesAgo });
      const f = await fan("tm_irf");
      expect((await api("POST", CHECK_IN, { headers: f.auth, json: { teamId: "tm_irf", gameId } })).status, `kick-off ${kickoffMinutesAgo} min ago`).toBe(201);
    }
  });

  it("at the venue only, where it has coordinates: position required, not mocked, accurate to 250 m, within 1,000 m", async () => {
    const venue = { latitude: 51.5549, longitude: -0.1084 };
    const gameId = await matchday("tm_irf", { venue });
    const { auth, userId } = await fan("tm_irf");
    const checkIn = (location?: Record<string, unknown>) => api("POST", CHECK_IN, { headers: auth, json: { teamId: "tm_irf", gameId, location } });

    const missing = await checkIn();
    expect([missing.status, errorOf(missing).code, errorOf(missing).details?.[0]?.path]).toEqual([400, "VALIDATION_ERROR", "body.location"]);
    const refusals: [Record<string, unknown>, string][] = [
      [{ ...venue, accuracy: 20, mocked: true }, "LOCATION_MOCKED"],
      [{ ...venue, accuracy: 251 }, "LOCATION_TOO_COARSE"],
      [{ latitude: venue.latitude + 0.0095, longitude: venue.longitude, accuracy: 10 }, "NOT_AT_VENUE"], // ≈ 1,056 m north
      [{ latitude: 40.4531, longitude: -3.6883, accuracy: 5 }, "NOT_AT_VENUE"], // another city
    ];
    for (const [location, code] of refusals) {
      const res = await checkIn(location);
      expect([res.status, errorOf(res).code], JSON.stringify(location)).toEqual([409, code]);
    }
    for (const location of [{ ...venue, accuracy: 2_000_000 }, { latitude: 95, longitude: 0, accuracy: 5 }, { ...venue, accuracy: 0 }, { ...venue }]) {
      expect((await checkIn(location)).status, JSON.stringify(location)).toBe(400);
    }
    expect(await db().arenaCheckIn.count({ where: { userId } })).toBe(0);
    expect(await balanceOf(userId)).toBe(0);

    const inside = await checkIn({ latitude: venue.latitude + 0.008, longitude: venue.longitude, accuracy: 30 }); // ≈ 890 m north
    expect(inside.status).toBe(201);
    expect(inside.body.data).toMatchObject({ gameId, repAwarded: 25 });
  });

  it("where the venue has no coordinates the location is optional, but a mocked one is still refused", async () => {
    const { auth } = await fan(TEAM);
    const at = (mocked: boolean) => ({ teamId: TEAM, location: { latitude: 1, longitude: 1, accuracy: 5, mocked } });
    const mocked = await api("POST", CHECK_IN, { headers: auth, json: at(true) });
    expect([mocked.status, errorOf(mocked).code]).toEqual([409, "LOCATION_MOCKED"]);
    expect((await api("POST", CHECK_IN, { headers: auth, json: at(false) })).status).toBe(201);
  });

  it("unknown or archived team 404; a game that is not this team's game today 409; bad bodies 400", async () => {
    const gameId = await matchday(TEAM);
    const { auth, userId } = await fan(TEAM, "tm_hch");
    for (const teamId of ["tm_nope", "tm_dvs"]) {
      const res = await api("POST", CHECK_IN, { headers: auth, json: { teamId } });
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: "NOT_FOUND", message: "Team not found." });
    }
    for (const [teamId, game] of [
      [TEAM, "gm_nba_001"],
      ["tm_hch", "gm_nfl_001"],
      [TEAM, "gm_nope"],
      ["tm_hch", gameId],
    ]) {
      const res = await api("POST", CHECK_IN, { headers: auth, json: { teamId, gameId: game } });
      expect(res.status).toBe(409);
      expect(errorOf(res)).toEqual({
        code: "CHECK_IN_GAME_MISMATCH",
        message: "That game is not this team's game today (UTC).",
        details: [{ path: "body.gameId", message: "Not a game of this team on today's UTC day" }],
      });
    }
    for (const json of [{}, { teamId: "" }, { teamId: TEAM, extra: 1 }, { teamId: 5 }, { teamId: TEAM, location: "here" }]) {
      expect((await api("POST", CHECK_IN, { headers: auth, json })).status).toBe(400);
    }
    expect(await db().arenaCheckIn.count({ where: { userId } })).toBe(0);
    expect(await balanceOf(userId)).toBe(0);
  });

  it("twenty concurrent check-ins award once", async () => {
    const { auth, userId } = await fan(TEAM);
    const results = await Promise.all(Array.from({ length: 20 }, () => api("POST", CHECK_IN, { headers: auth, json: { teamId: TEAM } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "ALREADY_CHECKED_IN")).toHaveLength(19);
    expect(await db().arenaCheckIn.count({ where: { userId } })).toBe(1);
    expect(await db().repEntry.count({ where: { userId } })).toBe(1);
    expect(await balanceOf(userId)).toBe(25);
  });

  it("concurrent check-ins of many fans and teams (written together): each (fan, team) once, each answer its own", async () => {
    const teams = [TEAM, "tm_spf", "tm_crc"];
    await Promise.all(teams.map((t) => matchday(t)));
    const fans = await Promise.all(Array.from({ length: 6 }, () => fan(...teams)));
    // Every (fan, team) pair twice, all at once, among check-ins at an unknown team and with another team's game.
    const sent = fans.flatMap((f) => teams.flatMap((teamId) => [0, 1].map(() => ({ f, json: { teamId } as { teamId: string; gameId?: string } }))));
    const wrong = fans.flatMap((f) => [
      { f, json: { teamId: "tm_nope" } },
      { f, json: { teamId: TEAM, gameId: "gm_nba_001" } },
    ]);
    const all = [...sent, ...wrong].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(all.map(({ f, json }) => api("POST", CHECK_IN, { headers: f.auth, json })));
    const results = sent.map((s) => answers[all.indexOf(s)]!);
    for (const w of wrong) {
      const r = answers[all.indexOf(w)]!;
      expect([r.status, errorOf(r).code]).toEqual(w.json.teamId === "tm_nope" ? [404, "NOT_FOUND"] : [409, "CHECK_IN_GAME_MISMATCH"]);
    }
    expect(results.filter((r) => r.status === 201)).toHaveLength(fans.length * teams.length);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "ALREADY_CHECKED_IN")).toHaveLength(fans.length * teams.length);
    for (const f of fans) {
      const mine = results.filter((r, i) => sent[i]!.f === f && r.status === 201).map((r) => r.body.data);
      expect(mine.map((d) => d.teamId).sort()).toEqual([...teams].sort());
      // Each answer holds the balance its own credit raised: 25, 50 and 75 in some order.
      expect(mine.map((d) => d.balance).sort((a, b) => a - b)).toEqual([25, 50, 75]);
      expect(mine.map((d) => d.questCompleted).sort()).toEqual(teams.map((t) => `q_checkin_${t.slice(3)}`).sort());
      expect(await balanceOf(f.userId)).toBe(75);
      expect(await db().repEntry.count({ where: { userId: f.userId, earnKind: "arena_check_in" } })).toBe(3);
      expect(await db().questProgress.count({ where: { userId: f.userId, periodKey: today(), completedAt: { not: null } } })).toBe(3);
      expect(await db().userStreak.findUnique({ where: { userId: f.userId } })).toMatchObject({ current: 1, longest: 1 });
    }
  });

  it("the earn route still refuses server-awarded kinds", async () => {
    const { auth } = await signedUp();
    for (const earnKind of ["arena_check_in", "daily_quest_completion"]) {
      const res = await api("POST", "/api/v1/engage/rep/earn", { headers: auth, json: { earnKind, idempotencyKey: `k-${Math.random()}` } });
      expect(res.status).toBe(403);
      expect(errorOf(res).code).toBe("EARN_KIND_SERVER_AWARDED");
    }
  });
});

describe("GET /api/v1/engage/quests/daily-summary", () => {
  it("per followed or joined team: quiz and check-in state, and the streak", async () => {
    await matchday("tm_bsb");
    const { auth, userId } = await fan("tm_hch", "tm_bsb");
    await join(userId, "tm_lsl");
    expect((await api("POST", CHECK_IN, { headers: auth, json: { teamId: "tm_bsb" } })).status).toBe(201);
    const res = await api("GET", SUMMARY, { headers: auth });
    expect(res.status).toBe(200);
    const { day, teams, streak } = res.body.data;
    expect(day).toBe(today());
    const byId = new Map(teams.map((t: { teamId: string }) => [t.teamId, t]));
    expect([...byId.keys()].sort()).toEqual(["tm_bsb", "tm_hch", "tm_lsl"]);
    expect(byId.get("tm_hch")).toMatchObject({
      slug: "harbor-city-hawks",
      name: "Harbor City Hawks",
      quiz: { questId: "q_quiz_hch", completed: false, sessionId: null, sessionStatus: null, award: { amount: 30, source: "club" }, repAwarded: null },
      checkIn: { done: false, questId: "q_checkin_hch", award: { amount: 25, source: "club", earnKind: "arena_check_in" } },
    });
    expect(byId.get("tm_bsb")).toMatchObject({
      checkIn: { done: true, questId: "q_checkin_bsb", award: { amount: 25, source: "club", earnKind: "arena_check_in" } },
    });
    expect(byId.get("tm_lsl")).toMatchObject({ quiz: { questId: "q_quiz_lsl", completed: false }, checkIn: { done: false, questId: "q_checkin_lsl" } });
    // The check-in completed a daily quest today.
    expect(streak).toEqual({ current: 1, longest: 1, lastDay: today() });
  });

  it("no teams: empty list and a zero streak", async () => {
    const { auth } = await signedUp();
    const res = await api("GET", SUMMARY, { headers: auth });
    expect(res.body.data).toEqual({ day: today(), teams: [], streak: { current: 0, longest: 0, lastDay: null } });
  });

  it("streak: grows from yesterday, shows 0 when older than yesterday, restarts at 1, counts a day once", async () => {
    await matchday("tm_bsb");
    const a = await fan("tm_bsb");
    await db().userStreak.create({ data: { userId: a.userId, current: 4, longest: 6, lastDay: dayStart(-1) } });
    expect((await api("GET", SUMMARY, { headers: a.auth })).body.data.streak).toEqual({
      current: 4,
      longest: 6,
      lastDay: dayStart(-1).toISOString().slice(0, 10),
    });
    expect((await api("POST", CHECK_IN, { headers: a.auth, json: { teamId: "tm_bsb" } })).status).toBe(201);
    const counted = await db().userStreak.findUniqueOrThrow({ where: { userId: a.userId } });
    await api("POST", "/api/quests/daily-visit", { headers: a.auth }); // a second daily quest the same day
    expect((await api("GET", SUMMARY, { headers: a.auth })).body.data.streak).toEqual({ current: 5, longest: 6, lastDay: today() });
    // The day was counted by its first completion: the second leaves the row as it was (no new row version).
    expect(await db().userStreak.findUniqueOrThrow({ where: { userId: a.userId } })).toEqual(counted);

    const b = await fan("tm_bsb");
    await db().userStreak.create({ data: { userId: b.userId, current: 9, longest: 9, lastDay: dayStart(-2) } });
    expect((await api("GET", SUMMARY, { headers: b.auth })).body.data.streak).toEqual({
      current: 0,
      longest: 9,
      lastDay: dayStart(-2).toISOString().slice(0, 10),
    });
    expect((await api("POST", CHECK_IN, { headers: b.auth, json: { teamId: "tm_bsb" } })).status).toBe(201);
    expect((await api("GET", SUMMARY, { headers: b.auth })).body.data.streak).toEqual({ current: 1, longest: 9, lastDay: today() });
  });
});
