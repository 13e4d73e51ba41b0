import { describe, expect, it } from "vitest";
import { api, db, errorOf } from "../helpers";
import { balanceOf, dayStart, fan, follow, join, QUESTS, signedUp, today } from "./quests-fixtures";

// The quest engine: today's quests and eligibility, the daily quiz (timer, one attempt a day, row-locked answers).
// Arena check-ins, the daily summary and streak are in quests-check-in.test.ts, the legacy routes in
// quests-legacy.test.ts.

const GRACE_MS = 2000;
const SECONDS = 20;

const ids = (res: { body: { data: { quests: { id: string }[] } } }) => res.body.data.quests.map((q) => q.id);

const start = (auth: Record<string, string>, questId = "q_quiz_hch") => api("POST", `${QUESTS}/${questId}/session`, { headers: auth });
const submit = (auth: Record<string, string>, id: string, json: unknown) => api("POST", `${QUESTS}/session/${id}/submit`, { headers: auth, json });

/** The answer of each question of a session, read from the bank (tests only: the API never shows it before answering). */
async function answersOf(sessionId: string): Promise<number[]> {
  const s = await db().quizSession.findUniqueOrThrow({ where: { id: sessionId } });
  const qs = await db().quizQuestion.findMany({ where: { id: { in: s.questionIds } } });
  return s.questionIds.map((id) => qs.find((q) => q.id === id)!.answerIndex);
}

/** Moves the current question's shown time back by `ms`. */
const shownAgo = (sessionId: string, ms: number) => db().quizSession.update({ where: { id: sessionId }, data: { questionShownAt: new Date(Date.now() - ms) } });

describe("GET /api/v1/engage/quests", () => {
  it("401 without a token", async () => {
    const res = await api("GET", QUESTS);
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
  });

  it("offers global quests; team quests of followed or joined teams only; never retired ones", async () => {
    const { auth, userId } = await signedUp();
    let res = await api("GET", QUESTS, { headers: auth });
    expect(res.body.data.day).toBe(today());
    expect(ids(res)).toEqual(expect.arrayContaining(["q_daily_checkin", "q_follow_three", "q_complete_profile"]));
    expect(ids(res)).not.toContain("q_daily_prediction");
    expect(ids(res).filter((id: string) => id.startsWith("q_quiz_") || id.startsWith("q_checkin_") || id === "q_hawks_superfan")).toEqual([]);

    await follow(userId, "tm_hch");
    await join(userId, "tm_lsl");
    res = await api("GET", QUESTS, { headers: auth });
    expect(ids(res)).toEqual(expect.arrayContaining(["q_quiz_hch", "q_checkin_hch", "q_hawks_superfan", "q_quiz_lsl", "q_checkin_lsl"]));
    expect(ids(res)).not.toContain("q_quiz_gfg");

    const quiz = res.body.data.quests.find((q: { id: string }) => q.id === "q_quiz_hch");
    expect(quiz).toEqual({
      id: "q_quiz_hch",
      slug: "harbor-city-hawks-daily-quiz",
      title: "Harbor City Hawks daily quiz",
      description: "Five questions about the Harbor City Hawks, 20 seconds each.",
      kind: "quiz",
      scope: "team",
      cadence: "daily",
      teamId: "tm_hch",
      passId: null,
      repReward: 30,
      award: { amount: 30, source: "club", earnKind: "daily_quest_completion" },
      periodKey: today(),
      endsAt: dayStart(1).toISOString(),
      steps: [],
      stepsDone: 0,
      stepsTotal: 0,
      started: false,
      completed: false,
      completedAt: null,
      repAwarded: null,
      completedEver: false,
      timesCompleted: 0,
      quiz: { length: 5, secondsPerQuestion: 20, sessionId: null, sessionStatus: null },
    });
    const checkIn = res.body.data.quests.find((q: { id: string }) => q.id === "q_checkin_hch");
    expect(checkIn.award).toEqual({ amount: 25, source: "club", earnKind: "arena_check_in" });
    const superfan = res.body.data.quests.find((q: { id: string }) => q.id === "q_hawks_superfan");
    expect(superfan.steps.map((s: { condition: string }) => s.condition)).toEqual(["joined_team", "arena_check_in", "game_rated"]);
    expect(superfan.endsAt).toBeNull();
  });

  it("pass quests need the pass, unexpired", async () => {
    const { auth, userId } = await signedUp();
    expect(ids(await api("GET", QUESTS, { headers: auth }))).not.toContain("q_season_pass_kickoff");
    expect((await api("GET", `${QUESTS}/q_season_pass_kickoff`, { headers: auth })).status).toBe(404);
    await db().userPass.create({ data: { userId, passId: "pass_season_2026", expiresAt: new Date(Date.now() - 1000) } });
    expect(ids(await api("GET", QUESTS, { headers: auth }))).not.toContain("q_season_pass_kickoff");
    await db().userPass.update({ where: { userId_passId: { userId, passId: "pass_season_2026" } }, data: { expiresAt: new Date(Date.now() + 3_600_000) } });
    expect(ids(await api("GET", QUESTS, { headers: auth }))).toContain("q_season_pass_kickoff");
    const one = await api("GET", `${QUESTS}/q_season_pass_kickoff`, { headers: auth });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ scope: "pass", passId: "pass_season_2026", stepsTotal: 2 });
  });

  it("honours availableFrom / availableUntil and inactive quests", async () => {
    const { auth } = await signedUp();
    const suffix = Math.random().toString(36).slice(2, 8);
    const base = { repReward: 5, kind: "visit" as const, scope: "global" as const, cadence: "once" as const };
    await db().quest.createMany({
      data: [
        { id: `q_t_past_${suffix}`, slug: `t-past-${suffix}`, title: "Past", availableUntil: new Date(Date.now() - 1000), ...base },
        { id: `q_t_future_${suffix}`, slug: `t-future-${suffix}`, title: "Future", availableFrom: new Date(Date.now() + 3_600_000), ...base },
        { id: `q_t_off_${suffix}`, slug: `t-off-${suffix}`, title: "Off", active: false, ...base },
        { id: `q_t_retired_${suffix}`, slug: `t-ret-${suffix}`, title: "Retired", retiredAt: new Date(), ...base },
      ],
    });
    const list = ids(await api("GET", QUESTS, { headers: auth }));
    for (const q of ["past", "future", "off", "retired"]) {
      expect(list).not.toContain(`q_t_${q}_${suffix}`);
      expect((await api("GET", `${QUESTS}/q_t_${q}_${suffix}`, { headers: auth })).status).toBe(404);
    }
    await db().quest.deleteMany({ where: { id: { endsWith: `_${suffix}` } } });
  });

  it("GET one: 404 for unknown and for a team quest of a team not followed", async () => {
    const { auth } = await fan("tm_hch");
    expect((await api("GET", `${QUESTS}/q_quiz_hch`, { headers: auth })).body.data.id).toBe("q_quiz_hch");
    for (const id of ["q_quiz_gfg", "nope"]) {
      const res = await api("GET", `${QUESTS}/${id}`, { headers: auth });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Quest not found." } });
    }
  });
});

describe("daily quiz sessions", () => {
  it("starts with the first question and never its answer; answers reveal correctIndex; completion awards once", async () => {
    const { auth, userId } = await fan("tm_hch");
    const before = Date.now();
    const res = await start(auth);
    expect(res.status).toBe(201);
    expect(res.text).not.toMatch(/answerIndex|correctIndex|correct"/);
    const s = res.body.data;
    expect(s).toMatchObject({
      questId: "q_quiz_hch",
      day: today(),
      status: "active",
      total: 5,
      answered: 0,
      correctCount: 0,
      secondsPerQuestion: 20,
      graceMs: GRACE_MS,
      endedAt: null,
      repAwarded: 0,
    });
    expect(s.question.position).toBe(0);
    expect(s.question.choices).toHaveLength(4);
    expect(typeof s.question.prompt).toBe("string");
    expect(Date.parse(s.question.deadline) - Date.parse(s.question.shownAt)).toBe(SECONDS * 1000);
    expect(Date.parse(s.question.shownAt)).toBeGreaterThanOrEqual(before - 5);
    expect(Object.keys(s.question).sort()).toEqual(["choices", "deadline", "position", "prompt", "shownAt"]);

    // Resume shows the same question, still without the answer.
    const resumed = await api("GET", `${QUESTS}/session/${s.id}`, { headers: auth });
    expect(resumed.body.data.question).toEqual(s.question);
    expect(resumed.text).not.toMatch(/answerIndex|correctIndex/);

    const answers = await answersOf(s.id);
    // 3 of 5 correct.
    let last;
    for (let i = 0; i < 5; i++) {
      const pick = i < 3 ? answers[i]! : (answers[i]! + 1) % 4;
      last = await submit(auth, s.id, { answerIndex: pick, position: i });
      expect(last.status).toBe(200);
      expect(last.body.data).toMatchObject({ correct: i < 3, timedOut: false, position: i, correctIndex: answers[i] });
      if (i < 4) {
        expect(last.body.data.session.question.position).toBe(i + 1);
        expect(last.text).not.toContain('"answerIndex"');
      }
    }
    expect(last!.body.data.session).toMatchObject({ status: "completed", answered: 5, correctCount: 3, question: null, repAwarded: 18 });
    expect(last!.body.data.session.endedAt).not.toBeNull();

    const progress = await db().questProgress.findUniqueOrThrow({ where: { userId_questId_periodKey: { userId, questId: "q_quiz_hch", periodKey: today() } } });
    expect(progress.completedAt).not.toBeNull();
    expect(progress.repAwarded).toBe(18n);
    const entries = await db().repEntry.findMany({ where: { userId } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ amount: 18n, source: "club", earnKind: "daily_quest_completion", grantKey: `quest:q_quiz_hch:${today()}` });
    expect(await balanceOf(userId)).toBe(18);
    expect((await db().user.findUniqueOrThrow({ where: { id: userId } })).questPoints).toBe(18n);
    expect(await db().quizAnswer.count({ where: { sessionId: s.id } })).toBe(5);

    // The list shows it done; a second start today is refused; submits after the end are 409.
    const list = await api("GET", QUESTS, { headers: auth });
    expect(list.body.data.quests.find((q: { id: string }) => q.id === "q_quiz_hch")).toMatchObject({
      completed: true,
      repAwarded: 18,
      completedEver: true,
      timesCompleted: 1,
      quiz: { sessionId: s.id, sessionStatus: "completed" },
    });
    const again = await start(auth);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      error: { code: "QUIZ_ALREADY_ATTEMPTED", message: "You already took today's attempt at this quiz; come back tomorrow (UTC)." },
    });
    const late = await submit(auth, s.id, { answerIndex: 0 });
    expect(late.status).toBe(409);
    expect(errorOf(late).code).toBe("QUIZ_SESSION_ENDED");
  });

  it("all wrong: completes with no ledger entry", async () => {
    const { auth, userId } = await fan("tm_lsl");
    const s = (await start(auth, "q_quiz_lsl")).body.data;
    const answers = await answersOf(s.id);
    for (let i = 0; i < 5; i++) expect((await submit(auth, s.id, { answerIndex: (answers[i]! + 1) % 4 })).status).toBe(200);
    const p = await db().questProgress.findUniqueOrThrow({ where: { userId_questId_periodKey: { userId, questId: "q_quiz_lsl", periodKey: today() } } });
    expect(p.completedAt).not.toBeNull();
    expect(p.repAwarded).toBe(0n);
    expect(await db().repEntry.count({ where: { userId } })).toBe(0);
  });

  it("404 for a quiz not eligible or unknown; 409 QUEST_NOT_A_QUIZ for another kind", async () => {
    const { auth } = await fan("tm_hch");
    expect((await start(auth, "q_quiz_gfg")).status).toBe(404);
    expect((await start(auth, "q_nope")).status).toBe(404);
    const res = await start(auth, "q_checkin_hch");
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: "QUEST_NOT_A_QUIZ", message: "This quest is not a quiz." });
  });

  it("ten concurrent starts create exactly one session", async () => {
    const { auth, userId } = await fan("tm_hch");
    const results = await Promise.all(Array.from({ length: 10 }, () => start(auth)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(errorOf(r).code).toBe("QUIZ_ALREADY_ATTEMPTED");
    expect(await db().quizSession.count({ where: { userId } })).toBe(1);
  });

  it("forfeit burns the day's attempt and completes nothing", async () => {
    const { auth, userId } = await fan("tm_hch");
    const s = (await start(auth)).body.data;
    const res = await api("POST", `${QUESTS}/session/${s.id}/forfeit`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: s.id, status: "forfeited", question: null, repAwarded: 0 });
    expect((await start(auth)).status).toBe(409);
    const again = await api("POST", `${QUESTS}/session/${s.id}/forfeit`, { headers: auth });
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("QUIZ_SESSION_ENDED");
    expect(errorOf(await submit(auth, s.id, { answerIndex: 0 })).code).toBe("QUIZ_SESSION_ENDED");
    const p = await db().questProgress.findUniqueOrThrow({ where: { userId_questId_periodKey: { userId, questId: "q_quiz_hch", periodKey: today() } } });
    expect(p.completedAt).toBeNull();
    expect(await db().repEntry.count({ where: { userId } })).toBe(0);
  });

  it("another user's session is 404 everywhere; a malformed id is 400", async () => {
    const owner = await fan("tm_hch");
    const s = (await start(owner.auth)).body.data;
    const other = await fan("tm_hch");
    for (const [method, path, json] of [
      ["GET", `${QUESTS}/session/${s.id}`, undefined],
      ["POST", `${QUESTS}/session/${s.id}/submit`, { answerIndex: 0 }],
      ["POST", `${QUESTS}/session/${s.id}/forfeit`, undefined],
    ] as const) {
      const res = await api(method, path, { headers: other.auth, json });
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: "NOT_FOUND", message: "Quiz session not found." });
    }
    expect((await api("GET", `${QUESTS}/session/not-a-uuid`, { headers: owner.auth })).status).toBe(400);
    const mine = await api("GET", `${QUESTS}/session/${s.id}`, { headers: owner.auth });
    expect(mine.body.data.answered).toBe(0);
  });

  it("answerIndex outside the choices is 400 and changes nothing", async () => {
    const { auth } = await fan("tm_hch");
    const s = (await start(auth)).body.data;
    for (const body of [{ answerIndex: 4 }, { answerIndex: -1 }, { answerIndex: 1.5 }, { answerIndex: "1" }, {}]) {
      const res = await submit(auth, s.id, body);
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe("VALIDATION_ERROR");
    }
    const row = await db().quizSession.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.currentIndex).toBe(0);
    expect(await db().quizAnswer.count({ where: { sessionId: s.id } })).toBe(0);
  });

  it("timer: inside the grace window counts; past it the question is a miss and the session moves on", async () => {
    const { auth } = await fan("tm_hch");
    const s = (await start(auth)).body.data;
    const answers = await answersOf(s.id);
    // Deadline passed 1 s ago: inside the 2 s grace.
    await shownAgo(s.id, SECONDS * 1000 + 1000);
    let res = await submit(auth, s.id, { answerIndex: answers[0] });
    expect(res.body.data).toMatchObject({ correct: true, timedOut: false, position: 0 });
    // Deadline + grace passed.
    await shownAgo(s.id, SECONDS * 1000 + GRACE_MS + 500);
    res = await submit(auth, s.id, { answerIndex: answers[1] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ correct: false, timedOut: true, position: 1, correctIndex: answers[1] });
    expect(res.body.data.session).toMatchObject({ status: "active", answered: 2, correctCount: 1 });
    expect(res.body.data.session.question.position).toBe(2);
    const miss = await db().quizAnswer.findUniqueOrThrow({ where: { sessionId_position: { sessionId: s.id, position: 1 } } });
    expect(miss).toMatchObject({ answerIndex: null, correct: false });
  });

  it("an abandoned session is finalized on the next touch, every missed question recorded", async () => {
    const { auth, userId } = await fan("tm_hch");
    const s = (await start(auth)).body.data;
    const answers = await answersOf(s.id);
    await submit(auth, s.id, { answerIndex: answers[0] });
    await shownAgo(s.id, 4 * (SECONDS * 1000 + GRACE_MS) + 1000);
    const res = await api("GET", `${QUESTS}/session/${s.id}`, { headers: auth });
    expect(res.body.data).toMatchObject({ status: "completed", answered: 5, correctCount: 1, question: null, repAwarded: 6 });
    const rows = await db().quizAnswer.findMany({ where: { sessionId: s.id }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.answerIndex === null)).toEqual([false, true, true, true, true]);
    expect(await balanceOf(userId)).toBe(6);
    // Touching it again changes nothing.
    await api("GET", `${QUESTS}/session/${s.id}`, { headers: auth });
    expect(await db().repEntry.count({ where: { userId } })).toBe(1);
  });

  it("the quest list finalizes an abandoned session too", async () => {
    const { auth, userId } = await fan("tm_hch");
    const s = (await start(auth)).body.data;
    await shownAgo(s.id, 5 * (SECONDS * 1000 + GRACE_MS) + 1000);
    const list = await api("GET", QUESTS, { headers: auth });
    expect(list.body.data.quests.find((q: { id: string }) => q.id === "q_quiz_hch")).toMatchObject({
      completed: true,
      repAwarded: 0,
      quiz: { sessionStatus: "completed" },
    });
    expect(await db().quizAnswer.count({ where: { sessionId: s.id, answerIndex: null } })).toBe(5);
    expect((await db().quizSession.findUniqueOrThrow({ where: { id: s.id } })).status).toBe("completed");
    expect(await db().repEntry.count({ where: { userId } })).toBe(0);
  });

  it("concurrent submits for one position apply once", async () => {
    const { auth } = await fan("tm_hch");
    const s = (await start(auth)).body.data;
    const results = await Promise.all(Array.from({ length: 6 }, () => submit(auth, s.id, { answerIndex: 0, position: 0 })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(errorOf(r).code).toBe("QUIZ_POSITION_MISMATCH");
    expect((await db().quizSession.findUniqueOrThrow({ where: { id: s.id } })).currentIndex).toBe(1);
    expect(await db().quizAnswer.count({ where: { sessionId: s.id } })).toBe(1);
  });

  it("concurrent submits without position each settle one question, never the same one twice", async () => {
    const { auth, userId } = await fan("tm_hch");
    const s = (await start(auth)).body.data;
    const results = await Promise.all(Array.from({ length: 8 }, () => submit(auth, s.id, { answerIndex: 0 })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(5);
    expect(ok.map((r) => r.body.data.position).sort()).toEqual([0, 1, 2, 3, 4]);
    for (const r of results.filter((r) => r.status !== 200)) expect(errorOf(r).code).toBe("QUIZ_SESSION_ENDED");
    const row = await db().quizSession.findUniqueOrThrow({ where: { id: s.id } });
    expect(row).toMatchObject({ status: "completed", currentIndex: 5 });
    expect(await db().quizAnswer.count({ where: { sessionId: s.id } })).toBe(5);
    expect(await db().repEntry.count({ where: { userId } })).toBeLessThanOrEqual(1);
  });

  it("fans answering their own sessions at once (sharing statements) each get their own question's verdict and next question", async () => {
    const fans = await Promise.all(Array.from({ length: 8 }, () => fan("tm_hch")));
    const sessions = await Promise.all(fans.map(async (f) => (await start(f.auth)).body.data));
    const keys = await Promise.all(sessions.map((s) => answersOf(s.id)));
    // Half answer right, half wrong, and one sends a choice its question does not have (refused, nothing recorded).
    const choices = keys.map((k, i) => (i === 7 ? 99 : i % 2 ? (k[0]! + 1) % 4 : k[0]!));
    const results = await Promise.all(fans.map((f, i) => submit(f.auth, sessions[i]!.id, { answerIndex: choices[i], position: 0 })));
    for (const [i, r] of results.entries()) {
      if (i === 7) {
        expect(r.status).toBe(400);
        continue;
      }
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ correct: i % 2 === 0, position: 0, correctIndex: keys[i]![0] });
      expect(r.body.data.session).toMatchObject({ id: sessions[i]!.id, answered: 1, correctCount: i % 2 === 0 ? 1 : 0, question: { position: 1 } });
      const row = await db().quizSession.findUniqueOrThrow({ where: { id: sessions[i]!.id } });
      expect(row).toMatchObject({ currentIndex: 1, correctCount: i % 2 === 0 ? 1 : 0 });
    }
    expect(await db().quizAnswer.count({ where: { sessionId: sessions[7]!.id } })).toBe(0);
  });
});
