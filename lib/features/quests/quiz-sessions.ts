// Daily quiz sessions: starting today's attempt, reading it, answering (a group-committed fast path and the full
// path under the session's row lock), forfeiting, and settling questions whose time ran out; a finished session
// completes its quest (completeQuest). The timer and the award are quiz.ts's; the statements quiz-queries.ts and
// quiz-writes.ts.
import type { Db, DbTx } from "../../db/client";
import { batchConcurrentCallsPerClient } from "../../db/batch";
import { txOptions } from "../../db/tx";
import { DomainError, notFound, validationError } from "../../kernel/errors";
import { utcDay, utcDayStart } from "../../time";
import { completeQuest, eligibleOrThrow } from "./engine";
import { deadlineOf, expire, QUIZ_GRACE_MS, quizAward } from "./quiz";
import { lockedSession, pickQuizQuestions, type SessionRow } from "./quiz-queries";
import { answersInTime, recordAnswer } from "./quiz-writes";
import { errors as questsErrors } from "./errors";

async function lockSession(tx: DbTx, userId: string, sessionId: string): Promise<SessionRow> {
  const s = await lockedSession(tx, userId, sessionId);
  if (!s) throw notFound("Quiz session");
  return s;
}

// Concurrent answers share one statement (lib/db/batch.ts); a session's answers never share one.
const tryAnswer = batchConcurrentCallsPerClient(answersInTime, { keyOf: (a) => a.sessionId, max: 64 });

/** The usual answer on the fast path (answersInTime); null where submitAnswer must take the full path. */
async function answerInTime(db: DbTx, userId: string, sessionId: string, body: { answerIndex: number; position?: number }, now: Date) {
  const row = await tryAnswer(db, { userId, sessionId, answerIndex: body.answerIndex, position: body.position ?? null, now });
  if (!row) return null;
  const position = row.currentIndex;
  const correctIndex = row.questions[position]!.answerIndex;
  const correct = body.answerIndex === correctIndex;
  const next: SessionRow = { ...row, currentIndex: position + 1, correctCount: row.correctCount + (correct ? 1 : 0), questionShownAt: now };
  return { correct, timedOut: false, position, correctIndex, session: sessionView(next) };
}

/** Records every question whose window closed as a miss and, when none remain, completes the session. */
async function settle(tx: DbTx, s: SessionRow, now: Date): Promise<SessionRow> {
  if (s.status !== "active") return s;
  const total = s.questionIds.length;
  const t = expire({ currentIndex: s.currentIndex, total, questionShownAt: s.questionShownAt, secondsPerQuestion: s.seconds }, now);
  if (t.missed.length === 0) return s;
  await tx.quizAnswer.createMany({
    data: t.missed.map((m) => ({
      sessionId: s.id,
      position: m.position,
      questionId: s.questionIds[m.position]!,
      answerIndex: null,
      correct: false,
      answeredAt: m.at,
    })),
    skipDuplicates: true,
  });
  const next = { ...s, currentIndex: t.currentIndex, questionShownAt: t.questionShownAt };
  if (next.currentIndex >= total) return finish(tx, next, now);
  await tx.quizSession.update({ where: { id: s.id }, data: { currentIndex: next.currentIndex, questionShownAt: next.questionShownAt } });
  return next;
}

/** All questions answered or timed out: the session completes and the quest's completion for the session's day is written, with its Rep, once. */
async function finish(tx: DbTx, s: SessionRow, now: Date): Promise<SessionRow> {
  const total = s.questionIds.length;
  const amount = quizAward(s.repReward, s.correctCount, total);
  const day = utcDay(s.day);
  await completeQuest(tx, s.userId, { id: s.questId, title: s.title, cadence: "daily", repSource: s.repSource }, day, amount, now);
  const ended = { ...s, status: "completed" as const, endedAt: now, repAwarded: amount, currentIndex: total };
  await tx.quizSession.update({
    where: { id: s.id },
    data: { status: "completed", endedAt: now, repAwarded: amount, currentIndex: total, correctCount: s.correctCount, questionShownAt: s.questionShownAt },
  });
  return ended;
}

function sessionView(s: SessionRow) {
  const total = s.questionIds.length;
  let question = null;
  if (s.status === "active" && s.currentIndex < total) {
    const q = s.questions[s.currentIndex];
    question = {
      position: s.currentIndex,
      prompt: q?.prompt ?? "",
      choices: q?.choices ?? [],
      shownAt: s.questionShownAt.toISOString(),
      deadline: deadlineOf(s.questionShownAt, s.seconds).toISOString(),
    };
  }
  return {
    id: s.id,
    questId: s.questId,
    day: utcDay(s.day),
    status: s.status,
    total,
    answered: s.currentIndex,
    correctCount: s.correctCount,
    secondsPerQuestion: s.seconds,
    graceMs: QUIZ_GRACE_MS,
    startedAt: s.startedAt.toISOString(),
    endedAt: s.endedAt?.toISOString() ?? null,
    question,
    repAwarded: s.repAwarded,
  };
}

/** Finalizes the user's active sessions whose time ran out (called by every read that shows quiz state). */
/** Settles the user's active quiz sessions (misses recorded, finished ones completed); true when there were any. */
export async function settleActiveSessions(db: Db, userId: string, now: Date): Promise<boolean> {
  const active = await db.quizSession.findMany({ where: { userId, status: "active" }, select: { id: true } });
  for (const { id } of active) {
    await db.$transaction(async (tx) => settle(tx, await lockSession(tx, userId, id), now), txOptions());
  }
  return active.length > 0;
}

/**
 * Starts today's attempt at a quiz quest: quizLength random active questions of its bank, the first shown now.
 * One attempt per user, quiz and UTC day, held by the unique (user_id, quest_id, day): a second start, forfeits
 * included, is 409 QUIZ_ALREADY_ATTEMPTED (concurrent starts: one inserts, the others skip and answer 409).
 */
export async function startQuiz(db: Db, userId: string, questId: string, now = new Date()) {
  const q = await eligibleOrThrow(db, userId, questId, now);
  if (q.kind !== "quiz") throw new DomainError(questsErrors.QUEST_NOT_A_QUIZ, "This quest is not a quiz.");
  const picked = await pickQuizQuestions(db, q.id, q.quizLength ?? 5);
  if (picked.length === 0) throw new DomainError(questsErrors.QUIZ_UNAVAILABLE, "This quiz has no questions right now.");
  const day = utcDayStart(now);
  return db.$transaction(async (tx) => {
    const [created] = await tx.quizSession.createManyAndReturn({
      data: [{ userId, questId: q.id, day, questionIds: picked.map((p) => p.id), questionShownAt: now, startedAt: now }],
      skipDuplicates: true,
      select: { id: true },
    });
    if (!created) throw new DomainError(questsErrors.QUIZ_ALREADY_ATTEMPTED, "You already took today's attempt at this quiz; come back tomorrow (UTC).");
    await tx.questProgress.createMany({ data: [{ userId, questId: q.id, periodKey: utcDay(now), startedAt: now }], skipDuplicates: true });
    return sessionView(await lockSession(tx, userId, created.id));
  }, txOptions());
}

/** The session (another user's is 404), finalized first if its time ran out. */
export async function getQuizSession(db: Db, userId: string, sessionId: string, now = new Date()) {
  return db.$transaction(async (tx) => sessionView(await settle(tx, await lockSession(tx, userId, sessionId), now)), txOptions());
}

/**
 * Answers the current question under the session's row lock. Past its deadline + QUIZ_GRACE_MS the question is a
 * miss (timedOut: true, the answer is not applied to the next question) and the session moves on.
 */
export async function submitAnswer(db: Db, userId: string, sessionId: string, body: { answerIndex: number; position?: number }, now = new Date()) {
  const fast = await answerInTime(db, userId, sessionId, body, now);
  if (fast) return fast;
  return db.$transaction(async (tx) => {
    const s0 = await lockSession(tx, userId, sessionId);
    if (s0.status !== "active") throw new DomainError(questsErrors.QUIZ_SESSION_ENDED, `This quiz session is already ${s0.status}.`);
    const position = s0.currentIndex;
    if (body.position !== undefined && body.position !== position) {
      throw new DomainError(questsErrors.QUIZ_POSITION_MISMATCH, `Question ${body.position} is not the current question (${position}).`, [
        { path: "body.position", message: `The current question is ${position}` },
      ]);
    }
    const question = s0.questions[position];
    const correctIndex = question?.answerIndex ?? 0;
    const s1 = await settle(tx, s0, now);
    if (s1.currentIndex > position || s1.status !== "active") {
      return { correct: false, timedOut: true, position, correctIndex, session: sessionView(s1) };
    }
    if (body.answerIndex >= (question?.choices.length ?? 0)) {
      throw validationError("answerIndex is outside the question's choices.", [
        { path: "body.answerIndex", message: `Must be 0..${(question?.choices.length ?? 1) - 1}` },
      ]);
    }
    const correct = body.answerIndex === correctIndex;
    let s2: SessionRow = { ...s1, currentIndex: position + 1, correctCount: s1.correctCount + (correct ? 1 : 0), questionShownAt: now };
    // The answer and the session's move to the next question: one statement (the session row is locked).
    await recordAnswer(tx, sessionId, {
      position,
      questionId: s1.questionIds[position]!,
      answerIndex: body.answerIndex,
      correct,
      next: { currentIndex: s2.currentIndex, correctCount: s2.correctCount },
      now,
    });
    if (s2.currentIndex >= s2.questionIds.length) s2 = await finish(tx, s2, now);
    return { correct, timedOut: false, position, correctIndex, session: sessionView(s2) };
  }, txOptions());
}

/** Ends the session without completing the quest; the day's attempt stays used. */
export async function forfeitQuiz(db: Db, userId: string, sessionId: string, now = new Date()) {
  return db.$transaction(async (tx) => {
    const s0 = await lockSession(tx, userId, sessionId);
    if (s0.status !== "active") throw new DomainError(questsErrors.QUIZ_SESSION_ENDED, `This quiz session is already ${s0.status}.`);
    const s1 = await settle(tx, s0, now);
    if (s1.status !== "active") return sessionView(s1);
    await tx.quizSession.update({ where: { id: sessionId }, data: { status: "forfeited", endedAt: now } });
    return sessionView({ ...s1, status: "forfeited", endedAt: now });
  }, txOptions());
}
