// Daily quiz sessions: starting today's attempt, reading it, answering (a group-committed fast path and the full
// path under the session's row lock), forfeiting, and settling questions whose time ran out; a finished session
// completes its quest (completeQuest). The timer and the award are quiz.ts's.
import { Prisma } from "../../generated/prisma/client";
import type { Db, DbTx } from "../../db/client";
import { batchConcurrentCallsPerClient, inItemOrder } from "../../db/batch";
import { int8, raw, type Int8 } from "../../db/raw";
import { txOptions } from "../../db/tx";
import { DomainError, notFound, validationError } from "../../kernel/errors";
import { utcDay, utcDayStart } from "../../time";
import { completeQuest, eligibleOrThrow } from "./engine";
import type { QuestRow } from "./queries";
import { deadlineOf, expire, QUIZ_GRACE_MS, quizAward } from "./quiz";
import { errors as questsErrors } from "./errors";

interface SessionRow {
  id: string;
  userId: string;
  questId: string;
  day: Date;
  status: "active" | "completed" | "forfeited";
  questionIds: string[];
  currentIndex: number;
  correctCount: number;
  questionShownAt: Date;
  startedAt: Date;
  endedAt: Date | null;
  repAwarded: number;
  seconds: number;
  repReward: number;
  repSource: QuestRow["repSource"];
  title: string;
  /** The session's questions, in its order (read with the lock, so an answer and the next question need no query). */
  questions: { id: string; prompt: string; choices: string[]; answerIndex: number }[];
}

const SESSION_INT8 = ["repAwarded", "repReward"] as const;
type SessionDbRow = Int8<SessionRow, (typeof SESSION_INT8)[number]>;

/** A session row `s` (quiz_sessions) as a SessionRow, with its quest `q` and its questions. */
const SESSION_COLUMNS = Prisma.sql`
    s.id::text AS id, s.user_id::text AS "userId", s.quest_id AS "questId", s.day, s.status::text AS status,
    s.question_ids AS "questionIds", s.current_index AS "currentIndex", s.correct_count AS "correctCount",
    s.question_shown_at AS "questionShownAt", s.started_at AS "startedAt", s.ended_at AS "endedAt", s.rep_awarded AS "repAwarded",
    COALESCE(q.quiz_seconds, 20) AS seconds, q.rep_reward AS "repReward", q.rep_source::text AS "repSource", q.title,
    (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', qq.id, 'prompt', qq.prompt, 'choices', qq.choices, 'answerIndex', qq.answer_index) ORDER BY ids.n), '[]')
     FROM unnest(s.question_ids) WITH ORDINALITY AS ids(id, n) JOIN quiz_questions qq ON qq.id = ids.id) AS questions`;

/** The user's session row (SELECT … FOR UPDATE, so answers, timeouts and forfeits apply one at a time) with its quest and questions. */
const lockedSessionSql = (userId: string, sessionId: string) => Prisma.sql`
    SELECT ${SESSION_COLUMNS}
    FROM quiz_sessions s JOIN quests q ON q.id = s.quest_id
    WHERE s.id = ${sessionId}::uuid AND s.user_id = ${userId}::uuid
    FOR UPDATE OF s`;

async function lockSession(tx: DbTx, userId: string, sessionId: string): Promise<SessionRow> {
  const [s] = await tx.$queryRaw<SessionDbRow[]>`${lockedSessionSql(userId, sessionId)}`;
  if (!s) throw notFound("Quiz session");
  return int8(s, SESSION_INT8);
}

/** An answer to try on the fast path (answersInTime). */
interface AnswerToTry {
  userId: string;
  sessionId: string;
  answerIndex: number;
  position: number | null;
  now: Date;
}

/**
 * The usual answers, for many sessions in one statement, no transaction: each session row is locked within it (in
 * session id order, the order every batch takes), and only when the session is the caller's and active, the answer
 * is in time, its question is not the last, the answerIndex is inside the choices and `position` (when sent) is the
 * current one, the answer is recorded and the session moves on; that session's row (as it was) comes back. Anything
 * else writes nothing and answers undefined, and submitAnswer takes the full path (errors, timeouts, the last
 * question).
 */
async function answersInTime(db: DbTx, items: AnswerToTry[]): Promise<(SessionRow | undefined)[]> {
  const col = <T>(f: (a: AnswerToTry) => T) => items.map(f);
  const rows = await raw(db).$queryRaw<(SessionDbRow & { n: bigint | number; answer_index: number; position: number | null; at: Date })[]>`
    WITH s AS (
      SELECT i.n, i.answer_index, i.position, i.at, ${SESSION_COLUMNS}
      FROM unnest(${col((a) => a.sessionId)}::uuid[], ${col((a) => a.userId)}::uuid[], ${col((a) => a.answerIndex)}::int[],
                  ${col((a) => a.position)}::int[], ${col((a) => a.now.toISOString())}::timestamptz[])
             WITH ORDINALITY AS i(session_id, user_id, answer_index, position, at, n)
      JOIN quiz_sessions s ON s.id = i.session_id AND s.user_id = i.user_id
      JOIN quests q ON q.id = s.quest_id
      ORDER BY s.id
      FOR UPDATE OF s
    ),
    fits AS (
      SELECT * FROM s
      WHERE status = 'active' AND "currentIndex" < cardinality("questionIds") - 1
        AND at <= "questionShownAt" + make_interval(secs => seconds + ${QUIZ_GRACE_MS / 1000}::float8)
        AND (position IS NULL OR position = "currentIndex")
        AND answer_index < jsonb_array_length(questions -> "currentIndex" -> 'choices')
    ),
    answer AS (
      INSERT INTO quiz_answers (session_id, position, question_id, answer_index, correct, answered_at)
      SELECT id::uuid, "currentIndex", "questionIds"["currentIndex" + 1], answer_index,
             answer_index = (questions -> "currentIndex" ->> 'answerIndex')::int, at
      FROM fits
      ON CONFLICT DO NOTHING
      RETURNING session_id, correct
    ),
    moved AS (
      UPDATE quiz_sessions qs SET current_index = f."currentIndex" + 1, question_shown_at = f.at, correct_count = f."correctCount" + a.correct::int
      FROM fits f JOIN answer a ON a.session_id = f.id::uuid
      WHERE qs.id = a.session_id
    )
    SELECT f.* FROM fits f JOIN answer a ON a.session_id = f.id::uuid`;
  return inItemOrder(rows, items.length).map((r) => {
    if (!r) return undefined;
    const { answer_index: _answer, position: _position, at: _at, ...row } = r;
    return int8(row, SESSION_INT8);
  });
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
  const picked = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT id FROM quiz_questions WHERE quest_id = ${q.id} AND active ORDER BY random() LIMIT ${q.quizLength ?? 5}`;
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
    await tx.$executeRaw`
      WITH answer AS (
        INSERT INTO quiz_answers (session_id, position, question_id, answer_index, correct, answered_at)
        VALUES (${sessionId}::uuid, ${position}, ${s1.questionIds[position]!}, ${body.answerIndex}, ${correct}, ${now}::timestamptz)
      )
      UPDATE quiz_sessions SET current_index = ${s2.currentIndex}, correct_count = ${s2.correctCount}, question_shown_at = ${now}::timestamptz
      WHERE id = ${sessionId}::uuid`;
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
