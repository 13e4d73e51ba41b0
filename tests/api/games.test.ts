import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, db, errorOf, newUser, userIdOf } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";

// Mini-games: guess the player (POST start, GET session, POST guess) and the deprecated daily spin.
// Seed facts: tm_hch has 11 active players (pl_hch_01..11; pl_hch_12 inactive); tm_gfg has no players;
// tm_dvs is archived. Teams with players: hch, rmr, kpk, lsl, ccc, fpb, gbo, whu, kbf.

const START = "/api/games/guess-player/session/start";
const session = (id: string) => `/api/games/guess-player/session/${id}`;
const guess = (id: string) => `/api/games/guess-player/session/${id}/guess`;
const SPIN = "/api/games/daily-spin/reward";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ROSTER_TEAMS = ["tm_hch", "tm_rmr", "tm_kpk", "tm_lsl", "tm_ccc", "tm_fpb", "tm_gbo", "tm_whu", "tm_kbf"];
const HCH_ACTIVE = Array.from({ length: 11 }, (_, i) => `pl_hch_${String(i + 1).padStart(2, "0")}`);
const DEPRECATION = `@${Date.parse("2026-06-01") / 1000}`;
const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);

async function signedUp() {
  const user = newUser();
  expect((await api("GET", "/api/user", { headers: user.auth })).status).toBe(200);
  return { ...user, userId: await userIdOf(user.sub) };
}

async function start(auth: Record<string, string>, json?: unknown) {
  const res = await api("POST", START, { headers: auth, ...(json === undefined ? {} : { json }) });
  return res;
}

/** A started session on tm_hch, with its (server-side) answer. */
async function hchSession(auth: Record<string, string>) {
  const res = await start(auth, { teamId: "tm_hch" });
  expect(res.status).toBe(201);
  const id = res.body.data.session.id as string;
  const answer = (await db().guessSession.findUniqueOrThrow({ where: { id } })).playerId;
  const player = await db().player.findUniqueOrThrow({ where: { id: answer } });
  return { id, answer, player, res, wrong: HCH_ACTIVE.filter((p) => p !== answer) };
}

const repRows = (userId: string) => db().repEntry.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });

/** The answer's id and name appear nowhere in an answer. */
function expectNoLeak(text: string, player: { id: string; name: string }) {
  expect(text).not.toContain(player.id);
  expect(text).not.toContain(player.name);
  expect(text).not.toContain('"answer"');
}

describe("auth", () => {
  it.each([
    ["POST", START],
    ["GET", session(randomUUID())],
    ["POST", guess(randomUUID())],
    ["POST", SPIN],
  ])("%s %s without a token is 401 UNAUTHORIZED", async (method, path) => {
    const res = await api(method, path, method === "POST" && path.endsWith("/guess") ? { json: { playerId: "pl_hch_01" } } : {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });
});

describe("guess the player: start", () => {
  it("starts on the team asked for: one clue, six guesses, no answer anywhere in the response", async () => {
    const { auth } = await signedUp();
    const { res, player, id } = await hchSession(auth);
    expect(res.body).toEqual({
      success: true,
      data: {
        session: {
          id,
          status: "active",
          team: { id: "tm_hch", slug: "harbor-city-hawks", name: "Harbor City Hawks", shortName: "Hawks", abbreviation: "HCH", logo: expect.any(String) },
          clues: [{ kind: "duty", label: "Plays in", value: player.duty }],
          cluesTotal: 6,
          guesses: [],
          guessesLeft: 6,
          maxGuesses: 6,
          startedAt: expect.stringMatching(ISO),
          endedAt: null,
        },
      },
    });
    expectNoLeak(res.text, player);
    expect(HCH_ACTIVE).toContain(player.id);
  });

  it("accepts a slug; no body picks a followed or joined team with players, else any team with players", async () => {
    const { auth } = await signedUp();
    expect((await start(auth, { teamId: "westhaven-united" })).body.data.session.team.id).toBe("tm_whu");

    // No teams: any team with players.
    const anyTeam = await start(auth);
    expect(anyTeam.status).toBe(201);
    expect(ROSTER_TEAMS).toContain(anyTeam.body.data.session.team.id);

    // Follows tm_gfg (no players) and joined tm_kbf: always tm_kbf.
    const fan = await signedUp();
    await api("POST", "/api/teams/tm_gfg/follow", { headers: fan.auth });
    await api("POST", "/api/teams/tm_kbf/join", { headers: fan.auth });
    for (let i = 0; i < 3; i++) expect((await start(fan.auth)).body.data.session.team.id).toBe("tm_kbf");
    const followsFpb = await signedUp();
    await api("POST", "/api/teams/tm_fpb/follow", { headers: followsFpb.auth });
    expect((await start(followsFpb.auth, {})).body.data.session.team.id).toBe("tm_fpb");
  });

  it("unknown or archived team → 404; a team without players → 409 GUESS_NO_ROSTER; bad body → 400; nothing created", async () => {
    const { auth, userId } = await signedUp();
    for (const teamId of ["tm_nope", "tm_dvs"]) {
      const res = await start(auth, { teamId });
      expect(res.status).toBe(404);
      expect(errorOf(res).code).toBe("NOT_FOUND");
    }
    const empty = await start(auth, { teamId: "tm_gfg" });
    expect(empty.status).toBe(409);
    expect(empty.body).toEqual({ success: false, error: { code: "GUESS_NO_ROSTER", message: expect.any(String) } });
    for (const [json, path] of [
      [{ teamId: "" }, "body.teamId"],
      [{ teamId: 5 }, "body.teamId"],
      [{ team: "tm_hch" }, "body.team"],
    ] as const) {
      const res = await start(auth, json);
      expect(res.status).toBe(400);
      expect(errorOf(res).details?.map((d) => d.path)).toContain(path);
    }
    expect(await db().guessSession.count({ where: { userId } })).toBe(0);
  });
});

describe("guess the player: guesses", () => {
  it("a wrong guess reveals the next clue and spends a guess; the answer stays hidden", async () => {
    const { auth } = await signedUp();
    const { id, player, wrong } = await hchSession(auth);
    const res = await api("POST", guess(id), { headers: auth, json: { playerId: wrong[0] } });
    expect(res.status).toBe(200);
    const wrongName = (await db().player.findUniqueOrThrow({ where: { id: wrong[0]! } })).name;
    expect(res.body.data).toEqual({
      session: expect.objectContaining({
        status: "active",
        clues: [
          { kind: "duty", label: "Plays in", value: player.duty },
          { kind: "role", label: "Role", value: player.role },
        ],
        guesses: [{ playerId: wrong[0], name: wrongName, correct: false }],
        guessesLeft: 5,
        endedAt: null,
      }),
      correct: false,
      rep: { awarded: false, amount: 0 },
    });
    expectNoLeak(res.text, player);
    const resumed = await api("GET", session(id), { headers: auth });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.session).toEqual(res.body.data.session);
    expectNoLeak(resumed.text, player);
  });

  it("six wrong guesses lose: every clue and the answer revealed; later guesses → 409 GUESS_SESSION_ENDED", async () => {
    const { auth } = await signedUp();
    const { id, player, wrong } = await hchSession(auth);
    for (let i = 0; i < 5; i++) {
      const res = await api("POST", guess(id), { headers: auth, json: { playerId: wrong[i] } });
      expect(res.body.data.session).toMatchObject({ status: "active", guessesLeft: 5 - i });
      expect(res.body.data.session.clues).toHaveLength(i + 2);
      expectNoLeak(res.text, player);
    }
    const last = await api("POST", guess(id), { headers: auth, json: { playerId: wrong[5] } });
    expect(last.status).toBe(200);
    expect(last.body.data.correct).toBe(false);
    expect(last.body.data.session).toMatchObject({ status: "lost", guessesLeft: 0, endedAt: expect.stringMatching(ISO) });
    expect(last.body.data.session.clues.map((c: { kind: string }) => c.kind)).toEqual(["duty", "role", "availability", "position", "jersey", "initial"]);
    expect(last.body.data.session.clues[5].value).toBe(player.name[0]);
    expect(last.body.data.session.answer).toEqual(
      expect.objectContaining({ id: player.id, name: player.name, jersey: player.jersey, position: player.position }),
    );

    for (const playerId of [player.id, wrong[6]]) {
      const after = await api("POST", guess(id), { headers: auth, json: { playerId } });
      expect(after.status).toBe(409);
      expect(after.body).toEqual({ success: false, error: { code: "GUESS_SESSION_ENDED", message: expect.any(String) } });
    }
    const row = await db().guessSession.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "lost", guesses: wrong.slice(0, 6), cluesRevealed: 6 });
  });

  it("a right guess wins and reveals the answer; the day's first win awards 10 Rep, the second win that day none", async () => {
    await awayFromWindowEdge(DAY_MS, 30_000);
    const { auth, userId } = await signedUp();
    const first = await hchSession(auth);
    await api("POST", guess(first.id), { headers: auth, json: { playerId: first.wrong[0] } });
    const win = await api("POST", guess(first.id), { headers: auth, json: { playerId: first.answer } });
    expect(win.status).toBe(200);
    expect(win.body.data.correct).toBe(true);
    expect(win.body.data.rep).toEqual({ awarded: true, amount: 10 });
    expect(win.body.data.session).toMatchObject({
      status: "won",
      guessesLeft: 0,
      endedAt: expect.stringMatching(ISO),
      guesses: [
        { playerId: first.wrong[0], name: expect.any(String), correct: false },
        { playerId: first.answer, name: first.player.name, correct: true },
      ],
      answer: expect.objectContaining({ id: first.answer, name: first.player.name }),
    });
    expect(win.body.data.session.clues).toHaveLength(6);
    const again = await api("POST", guess(first.id), { headers: auth, json: { playerId: first.answer } });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("GUESS_SESSION_ENDED");

    const second = await hchSession(auth);
    const win2 = await api("POST", guess(second.id), { headers: auth, json: { playerId: second.answer } });
    expect(win2.body.data).toMatchObject({ correct: true, rep: { awarded: false, amount: 0 }, session: { status: "won", clues: expect.any(Array) } });
    const rep = await repRows(userId);
    expect(rep.map((r) => [r.earnKind, r.grantKey, r.amount])).toEqual([["guess_player", `guess_player:${today()}`, 10n]]);
    expect((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance).toBe(10n);
  });

  it("a player of another team, an inactive one, or one already guessed → 400; none counts as a guess", async () => {
    const { auth } = await signedUp();
    const { id, wrong } = await hchSession(auth);
    expect((await api("POST", guess(id), { headers: auth, json: { playerId: wrong[0] } })).status).toBe(200);
    for (const [playerId, message] of [
      ["pl_rmr_01", "Not an active player of this team"],
      ["pl_hch_12", "Not an active player of this team"],
      ["pl_nobody", "Not an active player of this team"],
      [wrong[0]!, "Already guessed"],
    ]) {
      const res = await api("POST", guess(id), { headers: auth, json: { playerId } });
      expect(res.status, playerId).toBe(400);
      expect(errorOf(res)).toEqual({ code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path: "body.playerId", message }] });
    }
    for (const json of [{}, { playerId: "" }, { playerId: 7 }, { playerId: "pl_hch_01", x: 1 }]) {
      expect((await api("POST", guess(id), { headers: auth, json })).status).toBe(400);
    }
    const row = await db().guessSession.findUniqueOrThrow({ where: { id } });
    expect(row.guesses).toEqual([wrong[0]]);
    expect((await api("GET", session(id), { headers: auth })).body.data.session.guessesLeft).toBe(5);
  });

  it("another user's session is 404 to read and to guess; unknown → 404; a malformed id → 400", async () => {
    const owner = await signedUp();
    const other = await signedUp();
    const { id, answer } = await hchSession(owner.auth);
    for (const res of [
      await api("GET", session(id), { headers: other.auth }),
      await api("POST", guess(id), { headers: other.auth, json: { playerId: answer } }),
      await api("GET", session(randomUUID()), { headers: owner.auth }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Guess session not found." } });
    }
    expect((await db().guessSession.findUniqueOrThrow({ where: { id } })).guesses).toEqual([]);
    const bad = await api("GET", session("not-a-uuid"), { headers: owner.auth });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).details?.[0]?.path).toBe("params.sessionId");
  });

  it("10 concurrent wrong guesses: six count (the sixth loses), four answer 409; no guess is lost or doubled", async () => {
    const { auth } = await signedUp();
    const { id, wrong } = await hchSession(auth);
    expect(wrong).toHaveLength(10);
    const results = await Promise.all(wrong.map((playerId) => api("POST", guess(id), { headers: auth, json: { playerId } })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(6);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "GUESS_SESSION_ENDED")).toHaveLength(4);
    expect(ok.map((r) => r.body.data.session.guesses.length).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const row = await db().guessSession.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe("lost");
    expect(row.guesses).toHaveLength(6);
    expect(new Set(row.guesses).size).toBe(6);
  });

  it("10 concurrent identical guesses count once", async () => {
    const { auth } = await signedUp();
    const { id, wrong } = await hchSession(auth);
    const results = await Promise.all(Array.from({ length: 10 }, () => api("POST", guess(id), { headers: auth, json: { playerId: wrong[0] } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(9);
    expect((await db().guessSession.findUniqueOrThrow({ where: { id } })).guesses).toEqual([wrong[0]]);
  });
});

describe("POST /api/games/daily-spin/reward (deprecated)", () => {
  it("spins once per UTC day: a server-chosen amount credited, then 409 ALREADY_EARNED; both answers carry Deprecation", async () => {
    await awayFromWindowEdge(DAY_MS, 30_000);
    const { auth, userId } = await signedUp();
    const res = await api("POST", SPIN, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe(DEPRECATION);
    const nextDay = new Date(Date.parse(`${today()}T00:00:00.000Z`) + DAY_MS).toISOString();
    expect(res.body).toEqual({ success: true, data: { amount: expect.any(Number), balance: res.body.data.amount, day: today(), nextSpinAt: nextDay } });
    expect([5, 10, 15, 25]).toContain(res.body.data.amount);

    const again = await api("POST", SPIN, { headers: auth });
    expect(again.status).toBe(409);
    expect(again.headers.get("deprecation")).toBe(DEPRECATION);
    expect(again.body).toEqual({ success: false, error: { code: "ALREADY_EARNED", message: expect.stringContaining(nextDay) } });
    const rep = await repRows(userId);
    expect(rep.map((r) => [r.earnKind, r.grantKey, r.amount, r.source])).toEqual([
      ["daily_spin", `daily_spin:${today()}`, BigInt(res.body.data.amount), "serviceDirect"],
    ]);
  });

  it("10 concurrent spins grant once", async () => {
    await awayFromWindowEdge(DAY_MS, 30_000);
    const { auth, userId } = await signedUp();
    const results = await Promise.all(Array.from({ length: 10 }, () => api("POST", SPIN, { headers: auth })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && errorOf(r).code === "ALREADY_EARNED")).toHaveLength(9);
    for (const r of results) expect(r.headers.get("deprecation")).toBe(DEPRECATION);
    const rep = await repRows(userId);
    expect(rep).toHaveLength(1);
    expect(rep[0]!.amount).toBe(BigInt(ok[0]!.body.data.amount));
    expect((await db().user.findUniqueOrThrow({ where: { id: userId } })).repBalance).toBe(BigInt(ok[0]!.body.data.amount));
  });

  it("is marked deprecated in the OpenAPI document", async () => {
    const doc = await api("GET", "/api/openapi.json");
    expect(doc.body.paths["/api/games/daily-spin/reward"].post.deprecated).toBe(true);
  });
});
