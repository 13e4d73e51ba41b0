import { Prisma } from "../generated/prisma/client";
import type { Db, DbTx } from "../db/client";
import { uuidv7 } from "../db/ids";
import { lockUser, txOptions } from "../db/tx";
import type { QuestStepCondition } from "../generated/prisma/enums";
import { decodeTimeCursor, encodeCursor } from "../http/cursor";
import { log } from "../http/log";
import { DomainError, notFound, validationError } from "../http/errors";
import { keysetPage } from "../http/page";
import { award, awardRowsCtes, SERVER_AWARDS } from "../rep/grants";
import { groupCommitPer, inItemOrder } from "../db/batch";
import { addUtcDays, utcDay, utcDayStart } from "../time";
import {
  checkInContextsOf,
  completionsOf,
  conditionFactsOf,
  eligibleQuests,
  stepsToCheckOf,
  fanTeamsOf,
  questRowsById,
  questsWithStateOf,
  todaysQuestsRows,
  type QuestsWithState,
  type TodaysQuestsRow,
  questStateOf,
  type QuestState,
  toCompletedQuest,
  type ConditionFacts,
  type ProgressRow,
  type QuestRow,
  type SessionSummaryRow,
  type StepRow,
  type CheckInAt,
} from "./queries";
import type { CheckInBody } from "./schemas";
import { gameToCheckIn } from "./venue";
import { deadlineOf, expire, QUIZ_GRACE_MS, quizAward } from "./quiz";
import { int8, raw, rawTransaction, type Int8, type RawDb } from "../db/raw";
import { keyedCache } from "../db/cache";
import { env } from "../env";
import { noteBoardsMoved } from "../leaderboard/moves";

// Quests: the caller's history, and the quest engine below.

/** Quest history, newest first, keyset-paginated. */
export async function listCompletedQuests(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await completionsOf(db, userId, cursor ? decodeTimeCursor(cursor) : undefined, limit + 1);
  return keysetPage("quests", rows, limit, (r) => encodeCursor(r.completedAt.getTime(), r.questId), toCompletedQuest);
}

// ---------------------------------------------------------------------------------------------------------------
// The quest engine. Quests are data (kind, scope, cadence, steps, reward); eligibility is resolved here only
// (eligibleQuests). Completion is one function (completeQuest): the quest_progress row of (user, quest, period) is
// completed at most once (an upsert that only fills completed_at while it is null), and its Rep goes through
// award() under the grant key quest:<questId>:<periodKey>, so a retry or a race credits once.

export const periodKeyOf = (cadence: "daily" | "once", now: Date) => (cadence === "daily" ? utcDay(now) : "once");

/** What completing `q` credits. A check-in quest's Rep is the arena check-in's own award (credited by the check-in). */
export function awardOf(q: Pick<QuestRow, "kind" | "cadence" | "repReward" | "repSource">) {
  if (q.kind === "check_in") {
    const a = SERVER_AWARDS.arena_check_in;
    return { amount: a.amount, source: a.source as QuestRow["repSource"], earnKind: "arena_check_in" as const };
  }
  return { amount: q.repReward, source: q.repSource, earnKind: q.cadence === "daily" ? ("daily_quest_completion" as const) : ("quest_completion" as const) };
}

function endsAtOf(q: QuestRow, now: Date): Date | null {
  const periodEnd = q.cadence === "daily" ? addUtcDays(now, 1) : null;
  if (!periodEnd) return q.availableUntil;
  if (!q.availableUntil) return periodEnd;
  return q.availableUntil < periodEnd ? q.availableUntil : periodEnd;
}

function toQuest(q: QuestRow, now: Date, progress?: ProgressRow, steps: StepRow[] = [], session?: SessionSummaryRow) {
  const done = steps.filter((s) => s.done).length;
  return {
    id: q.id,
    slug: q.slug,
    title: q.title,
    description: q.description,
    kind: q.kind,
    scope: q.scope,
    cadence: q.cadence,
    teamId: q.teamId,
    passId: q.passId,
    repReward: q.repReward,
    award: awardOf(q),
    periodKey: periodKeyOf(q.cadence, now),
    endsAt: endsAtOf(q, now)?.toISOString() ?? null,
    steps: steps.map((s) => ({ id: s.id, position: s.position, title: s.title, condition: s.condition as QuestStepCondition | null, done: s.done })),
    stepsDone: done,
    stepsTotal: steps.length,
    started: progress?.started ?? false,
    completed: !!progress?.completedAt,
    completedAt: progress?.completedAt?.toISOString() ?? null,
    repAwarded: progress?.completedAt ? (progress.repAwarded ?? 0) : null,
    completedEver: (progress?.timesCompleted ?? 0) > 0,
    timesCompleted: progress?.timesCompleted ?? 0,
    quiz:
      q.kind === "quiz"
        ? { length: q.quizLength ?? 0, secondsPerQuestion: q.quizSeconds ?? 0, sessionId: session?.id ?? null, sessionStatus: session?.status ?? null }
        : null,
  };
}

export type QuestView = ReturnType<typeof toQuest>;

/** Quests with the user's progress; with `settle`, a quiz whose time ran out is finalized first so its completion shows. */
async function viewsOf(db: Db, userId: string, quests: QuestRow[], now: Date, settle = false): Promise<QuestView[]> {
  const ids = quests.map((q) => q.id);
  let state = await questStateOf(db, userId, ids, now, QUIZ_GRACE_MS);
  if (settle && state.expiredSession && (await settleActiveSessions(db, userId, now))) state = await questStateOf(db, userId, ids, now, QUIZ_GRACE_MS);
  return toViews(quests, state, now);
}

function toViews(quests: QuestRow[], state: QuestState, now: Date): QuestView[] {
  const progressBy = new Map(state.progress.map((p) => [p.questId, p]));
  const sessionBy = new Map(state.sessions.map((s) => [s.questId, s]));
  const stepsBy = new Map<string, StepRow[]>();
  for (const s of state.steps) stepsBy.set(s.questId, [...(stepsBy.get(s.questId) ?? []), s]);
  return quests.map((q) => toQuest(q, now, progressBy.get(q.id), stepsBy.get(q.id), sessionBy.get(q.id)));
}

// Concurrent quest lists share one statement (group commit), as the dashboard's reads do.
const readTodaysQuests = groupCommitPer(todaysQuestsRows, { max: 64 });

/**
 * Today's quests for the user with their progress (for GET /api/v1/engage/quests, the legacy list and the
 * dashboard): one statement, unless a quiz whose time ran out must be finalized first so its completion shows.
 */
export async function todaysQuests(db: Db, userId: string, now = new Date(), read?: TodaysQuestsRow) {
  // `read`: what a statement that read more beside (the dashboard) already read with todaysQuestsColumns.
  let row = read ?? (await readTodaysQuests(db, { userId, now }));
  if (row.expiredSession && (await settleActiveSessions(db, userId, now))) row = await readTodaysQuests(db, { userId, now });
  const { quests, state } = await questsWithState(db, row);
  return { day: utcDay(now), quests: toViews(quests, state, now) };
}

// A quest's definition is the same for every fan and changes only through the staff console: kept per quest for
// TEAM_CACHE_TTL_MS (like team details), cleared in the process that changed it (forgetQuests). Which quests a fan
// sees, and their state, is read fresh every time.
const questCache = keyedCache<QuestRow>("__questCache", () => env().TEAM_CACHE_TTL_MS);

/** Drops the cached quest definitions (after the staff console created or rescheduled one). */
export function forgetQuests(): void {
  questCache.clear();
}

async function questsWithState(db: DbTx, row: TodaysQuestsRow): Promise<QuestsWithState> {
  const byId = await questCache.getMany(row.questIds, async (missing) => new Map((await questRowsById(db, missing)).map((q) => [q.id, q])));
  return questsWithStateOf(row, byId);
}

async function eligibleOrThrow(db: DbTx, userId: string, questId: string, now: Date): Promise<QuestRow> {
  const [q] = await eligibleQuests(db, userId, now, questId);
  if (!q) throw notFound("Quest");
  return q;
}

/** One quest, 404 NOT_FOUND when unknown or not eligible for the user. */
export async function getQuest(db: Db, userId: string, questId: string, now = new Date()) {
  const q = await eligibleOrThrow(db, userId, questId, now);
  const [view] = await viewsOf(db, userId, [q], now, true);
  return view!;
}

/**
 * A quest's completion as CTEs for a statement: `quest_done` fills completed_at only while it is null (ON CONFLICT …
 * WHERE), and only then `quest_points` raises users.quest_points (left out for 0) and, for daily quests,
 * `quest_streak` moves the streak on the day's first completion (it grows if the last such day was the day before,
 * else restarts at 1; a later completion the same day leaves the row unwritten). `when`
 * gates it on the rest of the statement. Each part is atomic on its own row: no user lock needed.
 */
export function questCompletionCtes(
  userId: string,
  q: Pick<QuestRow, "id" | "cadence">,
  periodKey: string,
  amount: number,
  now: Date,
  when: Prisma.Sql = Prisma.sql`true`,
): Prisma.Sql {
  return questCompletionRowsCtes(
    Prisma.sql`SELECT ${userId}::uuid AS user_id, ${q.id}::text AS quest_id, ${periodKey}::text AS period_key,
                      ${q.cadence === "daily"}::boolean AS daily, ${now}::timestamptz AS at WHERE ${when}`,
    amount,
  );
}

/**
 * questCompletionCtes for many completions at once: `rows` is a query with columns user_id, quest_id, period_key,
 * daily (the quest's cadence is daily) and at, each user at most once. `quest_done` answers (user_id, quest_id) per completion.
 */
export function questCompletionRowsCtes(rows: Prisma.Sql, amount: number): Prisma.Sql {
  const points =
    amount > 0
      ? Prisma.sql`, quest_points AS (
          UPDATE users u SET quest_points = quest_points + ${amount} FROM quest_done d WHERE u.id = d.user_id)`
      : Prisma.empty;
  return Prisma.sql`quest_rows AS (${rows}), quest_done AS (
      INSERT INTO quest_progress (user_id, quest_id, period_key, started_at, completed_at, rep_awarded)
      SELECT user_id, quest_id, period_key, at, at, ${amount} FROM quest_rows
      ON CONFLICT (user_id, quest_id, period_key) DO UPDATE SET completed_at = EXCLUDED.completed_at, rep_awarded = EXCLUDED.rep_awarded
      WHERE quest_progress.completed_at IS NULL
      RETURNING user_id, quest_id
    )${points}, quest_streak AS (
      INSERT INTO user_streaks (user_id, current, longest, last_day, updated_at)
      SELECT r.user_id, 1, 1, CASE WHEN r.daily THEN r.period_key::date END, r.at FROM quest_rows r JOIN quest_done d ON d.user_id = r.user_id AND d.quest_id = r.quest_id
      WHERE r.daily
      ON CONFLICT (user_id) DO UPDATE SET
        current = CASE WHEN user_streaks.last_day = EXCLUDED.last_day - 1 THEN user_streaks.current + 1 ELSE 1 END,
        longest = GREATEST(user_streaks.longest, CASE WHEN user_streaks.last_day = EXCLUDED.last_day - 1 THEN user_streaks.current + 1 ELSE 1 END),
        last_day = EXCLUDED.last_day,
        updated_at = EXCLUDED.updated_at
      WHERE user_streaks.last_day < EXCLUDED.last_day
    )`;
}

/**
 * Completes (user, quest, period) once (questCompletionCtes, one statement), then credits `amount` through award()
 * (grant key quest:<questId>:<periodKey>; nothing written for 0), so concurrent completions credit once. False when
 * it was already completed.
 */
export async function completeQuest(
  tx: RawDb,
  userId: string,
  q: Pick<QuestRow, "id" | "title" | "cadence" | "repSource">,
  periodKey: string,
  amount: number,
  now: Date,
): Promise<boolean> {
  const [{ done }] = (await tx.$queryRaw<{ done: boolean }[]>`
    WITH ${questCompletionCtes(userId, q, periodKey, amount, now)} SELECT EXISTS (SELECT 1 FROM quest_done) AS done`) as [{ done: boolean }];
  if (!done) return false;
  if (amount > 0) {
    await award(tx, userId, {
      earnKind: q.cadence === "daily" ? "daily_quest_completion" : "quest_completion",
      amount,
      source: q.repSource,
      reason: `Quest completed: ${q.title}`,
      grantKey: `quest:${q.id}:${periodKey}`,
      targetId: q.id,
      createdAt: now,
    });
  }
  return true;
}

/** A streak row as of `now`: current is 0 once the last completed day is older than yesterday. */
export function toStreak(row: { current: number; longest: number; lastDay: Date } | null, now: Date) {
  if (!row) return { current: 0, longest: 0, lastDay: null };
  const alive = row.lastDay.getTime() >= addUtcDays(now, -1).getTime();
  return { current: alive ? row.current : 0, longest: row.longest, lastDay: utcDay(row.lastDay) };
}

/** The user's daily streak as of `now`. */
export async function streakOf(db: DbTx, userId: string, now = new Date()) {
  const [row] = await raw(db).$queryRaw<{ current: number; longest: number; lastDay: Date }[]>`
    SELECT current, longest, last_day AS "lastDay" FROM user_streaks WHERE user_id = ${userId}::uuid`;
  return toStreak(row ?? null, now);
}

/**
 * Per team the user follows or joined, for the user's UTC day: the team's quiz quest (done or not, what it awards)
 * and its check-in (done or not, what it awards), plus the daily streak. A fixed handful of queries.
 */
export async function dailySummary(db: Db, userId: string, now = new Date()) {
  const [teams, { day, quests }, checkIns, streak] = await Promise.all([
    fanTeamsOf(db, userId),
    todaysQuests(db, userId, now),
    db.arenaCheckIn.findMany({ where: { userId, day: utcDayStart(now) }, select: { teamId: true } }),
    streakOf(db, userId, now),
  ]);
  const checkedIn = new Set(checkIns.map((c) => c.teamId));
  const quizBy = new Map<string, QuestView>();
  const checkInBy = new Map<string, QuestView>();
  for (const q of quests) {
    if (q.scope !== "team" || !q.teamId) continue;
    if (q.kind === "quiz" && !quizBy.has(q.teamId)) quizBy.set(q.teamId, q);
    if (q.kind === "check_in" && !checkInBy.has(q.teamId)) checkInBy.set(q.teamId, q);
  }
  const checkInAward = awardOf({ kind: "check_in", cadence: "daily", repReward: 0, repSource: "club" });
  return {
    day,
    teams: teams.map((t) => {
      const quiz = quizBy.get(t.id);
      const checkInQuest = checkInBy.get(t.id);
      return {
        teamId: t.id,
        slug: t.slug,
        name: t.name,
        logo: t.logo,
        quiz: quiz
          ? {
              questId: quiz.id,
              title: quiz.title,
              completed: quiz.completed,
              sessionId: quiz.quiz?.sessionId ?? null,
              sessionStatus: quiz.quiz?.sessionStatus ?? null,
              award: quiz.award,
              repAwarded: quiz.repAwarded,
            }
          : null,
        checkIn: { done: checkedIn.has(t.id), questId: checkInQuest?.id ?? null, award: checkInQuest?.award ?? checkInAward },
      };
    }),
    streak,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Daily quiz sessions

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
async function answersInTime(db: Db, items: AnswerToTry[]): Promise<(SessionRow | undefined)[]> {
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

// Concurrent answers share one statement (group commit); a session's answers never share one.
const tryAnswer = groupCommitPer(answersInTime, { keyOf: (a) => a.sessionId, max: 64 });

/** The usual answer on the fast path (answersInTime); null where submitAnswer must take the full path. */
async function answerInTime(db: Db, userId: string, sessionId: string, body: { answerIndex: number; position?: number }, now: Date) {
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
async function settleActiveSessions(db: Db, userId: string, now: Date): Promise<boolean> {
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
  if (q.kind !== "quiz") throw new DomainError("QUEST_NOT_A_QUIZ", "This quest is not a quiz.");
  const picked = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT id FROM quiz_questions WHERE quest_id = ${q.id} AND active ORDER BY random() LIMIT ${q.quizLength ?? 5}`;
  if (picked.length === 0) throw new DomainError("QUIZ_UNAVAILABLE", "This quiz has no questions right now.");
  const day = utcDayStart(now);
  return db.$transaction(async (tx) => {
    const [created] = await tx.quizSession.createManyAndReturn({
      data: [{ userId, questId: q.id, day, questionIds: picked.map((p) => p.id), questionShownAt: now, startedAt: now }],
      skipDuplicates: true,
      select: { id: true },
    });
    if (!created) throw new DomainError("QUIZ_ALREADY_ATTEMPTED", "You already took today's attempt at this quiz; come back tomorrow (UTC).");
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
    if (s0.status !== "active") throw new DomainError("QUIZ_SESSION_ENDED", `This quiz session is already ${s0.status}.`);
    const position = s0.currentIndex;
    if (body.position !== undefined && body.position !== position) {
      throw new DomainError("QUIZ_POSITION_MISMATCH", `Question ${body.position} is not the current question (${position}).`, [
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
    if (s0.status !== "active") throw new DomainError("QUIZ_SESSION_ENDED", `This quiz session is already ${s0.status}.`);
    const s1 = await settle(tx, s0, now);
    if (s1.status !== "active") return sessionView(s1);
    await tx.quizSession.update({ where: { id: sessionId }, data: { status: "forfeited", endedAt: now } });
    return sessionView({ ...s1, status: "forfeited", endedAt: now });
  }, txOptions());
}

// ---------------------------------------------------------------------------------------------------------------
// Arena check-in

/** One check-in to write: its row, what it credits, and the team's check-in quest it completes (if any). */
interface CheckInWrite {
  id: string;
  entryId: string;
  userId: string;
  teamId: string;
  gameId: string | null;
  day: string;
  at: Date;
  quest: Pick<QuestRow, "id" | "cadence"> | null;
  /** Quests with an arena_check_in step the check-in meets, by the period key it marks them in. */
  stepQuests: { id: string; periodKey: string }[];
}

/** A check-in's row when it was inserted (else null: the day's check-in exists), with the balance its Rep raised. */
type CheckInWritten = { createdAt: Date; balance: number | null; questCompleted: boolean } | null;

/**
 * Writes check-ins in one statement: the unique (user, team, day) decides each (ON CONFLICT DO NOTHING); the Rep
 * (grant key arena_check_in:<teamId>:<day>) and the check-in quest's completion (its award is the check-in's Rep:
 * 0 more) follow only for the rows inserted. Each user appears once (groupCommit's key), as awardRowsCtes needs.
 *
 * It also marks the arena_check_in steps of `stepQuests`, only where the Rep was credited: that UPDATE holds the
 * user's row lock until the statement commits, so a concurrent markSteps of the same user (under that lock) either
 * counts this step or commits before this statement does; the check-in then reads its quests afresh
 * (advanceConditionedSteps) and completes one whose steps are all done.
 */
async function writeCheckIns(db: Db, items: CheckInWrite[]): Promise<CheckInWritten[]> {
  const rule = SERVER_AWARDS.arena_check_in;
  const col = <T>(f: (c: CheckInWrite) => T) => items.map(f);
  const steps = items.flatMap((c) => c.stepQuests.map((q) => ({ checkInId: c.id, ...q })));
  const stepCol = <T>(f: (q: (typeof steps)[number]) => T) => steps.map(f);
  const rows = await raw(db).$queryRaw<{ id: string; createdAt: Date | null; balance: bigint | null; questCompleted: boolean }[]>`
    WITH input AS (
      SELECT * FROM unnest(${col((c) => c.id)}::uuid[], ${col((c) => c.entryId)}::uuid[], ${col((c) => c.userId)}::uuid[],
                           ${col((c) => c.teamId)}::text[], ${col((c) => c.gameId)}::text[], ${col((c) => c.day)}::date[],
                           ${col((c) => c.at.toISOString())}::timestamptz[], ${col((c) => c.quest?.id ?? null)}::text[], ${col((c) => c.quest?.cadence === "daily")}::bool[])
        AS i(id, entry_id, user_id, team_id, game_id, day, at, quest_id, quest_daily)
    ), checkin AS (
      INSERT INTO arena_check_ins (id, user_id, team_id, game_id, day, created_at)
      SELECT id, user_id, team_id, game_id, day, at FROM input
      ON CONFLICT (user_id, team_id, day) DO NOTHING
      RETURNING id, created_at
    ), inserted AS (
      SELECT i.* FROM input i JOIN checkin c ON c.id = i.id
    ), ${awardRowsCtes(
      Prisma.sql`SELECT entry_id AS id, user_id, team_id AS target_id, 'arena_check_in:' || team_id || ':' || day AS grant_key, at AS created_at FROM inserted`,
      { earnKind: "arena_check_in", ...rule },
    )}, ${questCompletionRowsCtes(
      Prisma.sql`SELECT user_id, quest_id, day::text AS period_key, quest_daily AS daily, at FROM inserted WHERE quest_id IS NOT NULL`,
      0,
    )}, step_rows AS (
      SELECT i.user_id, s.quest_id, s.period_key, i.at
      FROM unnest(${stepCol((q) => q.checkInId)}::uuid[], ${stepCol((q) => q.id)}::text[], ${stepCol((q) => q.periodKey)}::text[]) AS s(check_in_id, quest_id, period_key)
      JOIN inserted i ON i.id = s.check_in_id JOIN rep_raised r ON r.id = i.user_id
    ), step_started AS (
      INSERT INTO quest_progress (user_id, quest_id, period_key, started_at)
      SELECT user_id, quest_id, period_key, at FROM step_rows
      ON CONFLICT DO NOTHING
    ), step_marked AS (
      INSERT INTO quest_step_progress (user_id, step_id, period_key, completed_at)
      SELECT r.user_id, s.id, r.period_key, r.at FROM step_rows r JOIN quest_steps s ON s.quest_id = r.quest_id AND s.condition = 'arena_check_in'
      ON CONFLICT DO NOTHING
    )
    SELECT i.id::text, c.created_at AS "createdAt", r.rep_balance AS balance,
           EXISTS (SELECT 1 FROM quest_done d WHERE d.user_id = i.user_id AND d.quest_id = i.quest_id) AS "questCompleted"
    FROM input i LEFT JOIN checkin c ON c.id = i.id LEFT JOIN rep_raised r ON r.id = i.user_id`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.map((c) => {
    const r = byId.get(c.id);
    return r?.createdAt ? { createdAt: r.createdAt, balance: r.balance === null ? null : Number(r.balance), questCompleted: r.questCompleted } : null;
  });
}

// Concurrent check-ins of a process share their statements (group commit): one read of their contexts, then one
// write (a user's at most once per write).
const readCheckIn = groupCommitPer(
  (db: Db, items: CheckInAt[]) =>
    checkInContextsOf(db, items, { opensBefore: env().CHECK_IN_OPENS_MINUTES_BEFORE, closesAfter: env().CHECK_IN_CLOSES_MINUTES_AFTER }),
  { max: 64 },
);
const writeCheckIn = groupCommitPer(writeCheckIns, { keyOf: (c) => c.userId, max: 64 });

/**
 * At a game, by a fan: the caller follows or joined the team, the team has a game whose check-in window holds now,
 * and where the venue's position is known the device is there (lib/quests/venue.ts).
 * Once per user, team and UTC day (unique arena_check_ins (user_id, team_id, day), inserted ON CONFLICT DO NOTHING):
 * a second one is 409 ALREADY_CHECKED_IN. Credits SERVER_AWARDS.arena_check_in (grant key
 * arena_check_in:<teamId>:<day>) and completes the team's check-in quest for today with repAwarded 0: the check-in's
 * award is the quest's reward, credited once. Then marks arena_check_in steps the user now meets.
 */
export async function arenaCheckIn(db: Db, userId: string, body: CheckInBody, now = new Date()) {
  const today = utcDay(now);
  // One read: the team (and the game), and the quests this check-in completes or advances: the team's check-in quest
  // if the user may take it, and quests with a check-in step still to do that it can meet.
  const target = await readCheckIn(db, { userId, teamId: body.teamId, gameId: body.gameId ?? null, at: now, day: today });
  if (!target || target.archived) throw notFound("Team");
  if (!target.fan) throw new DomainError("NOT_FOLLOWING_TEAM", "Follow or join this team to check in for it.");
  const game = gameToCheckIn(target.game, body, now, { radiusMeters: env().CHECK_IN_RADIUS_METERS, maxAccuracyMeters: env().CHECK_IN_MAX_ACCURACY_METERS });
  const { quests } = target;
  const quest = quests.find((q) => q.kind === "check_in" && q.teamId === body.teamId) ?? null;
  const withStep = quests.filter((q) => q.kind === "multi_step");
  const rule = SERVER_AWARDS.arena_check_in;
  // One statement, shared with concurrent check-ins, so no transaction and no user lock.
  const id = uuidv7(now.getTime());
  const row = await writeCheckIn(db, {
    id,
    entryId: uuidv7(now.getTime()),
    userId,
    teamId: body.teamId,
    gameId: game.id,
    day: today,
    at: now,
    quest,
    stepQuests: withStep.map((q) => ({ id: q.id, periodKey: periodKeyOf(q.cadence, now) })),
  });
  if (!row) throw new DomainError("ALREADY_CHECKED_IN", "You already checked in for this team today (UTC).");
  if (row.balance !== null) noteBoardsMoved(userId);
  // The check-in's steps are marked; its quests' other conditioned steps follow, and the quests it completes. The
  // check-in and its Rep are committed by now: a failure here must not turn that into an error answer;
  // check-progress retries the steps later.
  if (withStep.length > 0) {
    await advanceConditionedSteps(db, userId, withStep, now).catch((error: unknown) =>
      log("warn", { msg: "quest steps after a check-in failed; check-progress will retry them", userId, error: String(error) }),
    );
  }
  // No credit only if the grant key was already used (e.g. a check-in row removed by staff): answer the balance as it is.
  const balance = row.balance ?? Number((await db.user.findUniqueOrThrow({ where: { id: userId }, select: { repBalance: true } })).repBalance);
  return {
    id,
    teamId: body.teamId,
    gameId: game.id,
    day: today,
    createdAt: row.createdAt.toISOString(),
    repAwarded: row.balance !== null ? rule.amount : 0,
    source: rule.source as QuestRow["repSource"],
    balance,
    questCompleted: row.questCompleted ? quest!.id : null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Steps and the legacy routes (/api/quests/*): the same completion, the same rules.

function conditionMet(condition: string, q: QuestRow, f: ConditionFacts): boolean {
  const teamScoped = q.scope === "team" && q.teamId;
  switch (condition) {
    case "follows_three_teams":
      return f.follows >= 3;
    case "joined_team":
      return teamScoped ? f.joined.includes(q.teamId!) : f.joined.length > 0;
    case "handle_set":
      return !!f.handle?.trim();
    case "display_name_set":
      return !!f.displayName?.trim();
    case "avatar_set":
      return !!f.avatarUrl?.trim();
    case "arena_check_in": {
      const days = q.cadence === "daily" ? f.checkedInToday : f.checkedIn;
      return teamScoped ? days.includes(q.teamId!) : days.length > 0;
    }
    case "game_rated":
      return f.rated;
    default:
      return false;
  }
}

/** Creates the progress row of the quest's current period (started); idempotent. */
export async function startQuest(db: Db, userId: string, questId: string, now = new Date()) {
  const q = await eligibleOrThrow(db, userId, questId, now);
  await db.questProgress.createMany({ data: [{ userId, questId: q.id, periodKey: periodKeyOf(q.cadence, now), startedAt: now }], skipDuplicates: true });
  const [view] = await viewsOf(db, userId, [q], now);
  return view!;
}

/** Marks `stepIds` done (skipping those already done) and completes the quest when all its steps are; under the user's row lock. */
async function markSteps(tx: RawDb, userId: string, q: QuestRow, stepIds: string[], now: Date) {
  const periodKey = periodKeyOf(q.cadence, now);
  await lockUser(tx, userId);
  // One statement starts the period, marks the steps and counts the quest's. Under the lock nobody else marks this
  // user's steps, so the steps done before it (its snapshot) and those it inserted are all that are done.
  const [marked] = await tx.$queryRaw<{ inserted: number; total: number; done: number }[]>`
    WITH started AS (
      INSERT INTO quest_progress (user_id, quest_id, period_key, started_at)
      VALUES (${userId}::uuid, ${q.id}, ${periodKey}, ${now}::timestamptz)
      ON CONFLICT DO NOTHING
    ), inserted AS (
      INSERT INTO quest_step_progress (user_id, step_id, period_key, completed_at)
      SELECT ${userId}::uuid, step_id, ${periodKey}, ${now}::timestamptz FROM unnest(${stepIds}::text[]) AS step_id
      ON CONFLICT DO NOTHING
      RETURNING step_id
    )
    SELECT (SELECT count(*) FROM inserted)::int AS inserted, count(*)::int AS total, (count(sp.step_id) + count(i.step_id))::int AS done
    FROM quest_steps s
    LEFT JOIN quest_step_progress sp ON sp.step_id = s.id AND sp.user_id = ${userId}::uuid AND sp.period_key = ${periodKey}
    LEFT JOIN inserted i ON i.step_id = s.id
    WHERE s.quest_id = ${q.id}`;
  const { inserted, total, done } = marked!;
  const questCompleted = total > 0 && done === total ? await completeQuest(tx, userId, q, periodKey, q.kind === "check_in" ? 0 : q.repReward, now) : false;
  return { stepsCompleted: inserted, questCompleted };
}

/**
 * A step the app reports done. Conditioned steps count only when the server sees the condition (else 409
 * QUEST_STEP_CONDITION_NOT_MET). Completing the last step completes the quest and credits its reward, once.
 */
export async function completeStep(db: Db, userId: string, body: { questId: string; stepId: string }, now = new Date()) {
  const q = await eligibleOrThrow(db, userId, body.questId, now);
  const step = await db.questStep.findFirst({ where: { id: body.stepId, questId: q.id }, select: { id: true, condition: true } });
  if (!step) throw notFound("Quest step");
  if (step.condition) {
    const facts = await conditionFactsOf(db, userId, utcDay(now));
    if (!facts || !conditionMet(step.condition, q, facts)) {
      throw new DomainError("QUEST_STEP_CONDITION_NOT_MET", `This step is checked by the server (${step.condition}) and is not met yet.`);
    }
  }
  const r = await rawTransaction(db, (tx) => markSteps(tx, userId, q, [step.id], now), txOptions());
  const [view] = await viewsOf(db, userId, [q], now);
  return { quest: view!, stepCompleted: r.stepsCompleted > 0, questCompleted: r.questCompleted };
}

/** Completes today's eligible visit quests for the user (each once per period, with its reward). */
export async function dailyVisit(db: Db, userId: string, now = new Date()) {
  const visits = (await eligibleQuests(db, userId, now)).filter((q) => q.kind === "visit");
  const completed = await rawTransaction(
    db,
    async (tx) => {
      const done: string[] = [];
      for (const q of visits) if (await completeQuest(tx, userId, q, periodKeyOf(q.cadence, now), q.repReward, now)) done.push(q.id);
      return done;
    },
    txOptions(),
  );
  return { completed, quests: await viewsOf(db, userId, visits, now) };
}

/**
 * The server evaluates the conditioned steps of the user's eligible quests (or of `questId`: 404 when not eligible),
 * marks those it sees met and completes quests whose steps are all done.
 */
export async function checkProgress(db: Db, userId: string, questId: string | undefined, now = new Date()) {
  const quests = await eligibleQuests(db, userId, now, questId);
  if (questId !== undefined && quests.length === 0) throw notFound("Quest");
  const { completed, steps } = await advanceConditionedSteps(db, userId, quests, now);
  const withSteps = quests.filter((q) => steps.some((s) => s.questId === q.id));
  return { completed, quests: await viewsOf(db, userId, withSteps, now) };
}

// Concurrent evaluations share one read (group commit), as check-ins' do.
const readStepsToCheck = groupCommitPer(stepsToCheckOf, { max: 64 });

/**
 * Marks the server-checked steps of `quests` whose condition the server now sees, and completes those whose steps are
 * then all done (also one whose steps were already all done but is not completed: marked by a check-in, see
 * writeCheckIns). Answers the quests that completed. Nothing is written (and no lock taken) when there is nothing to do.
 */
async function advanceConditionedSteps(db: Db, userId: string, quests: QuestRow[], now: Date) {
  const checked = await readStepsToCheck(db, { userId, questIds: quests.map((q) => q.id), day: utcDay(now) });
  const steps = checked?.steps ?? [];
  const toMark = new Map<string, string[]>();
  for (const q of quests) {
    if (!checked || checked.completed.includes(q.id)) continue;
    const own = steps.filter((s) => s.questId === q.id);
    const met = own.filter((s) => !s.done && s.condition && conditionMet(s.condition, q, checked.facts)).map((s) => s.id);
    if (met.length > 0 || (own.length > 0 && own.every((s) => s.done))) toMark.set(q.id, met);
  }
  const byId = new Map(quests.map((q) => [q.id, q]));
  const completed: string[] = [];
  if (toMark.size > 0) {
    await rawTransaction(
      db,
      async (tx) => {
        for (const [id, stepIds] of toMark) if ((await markSteps(tx, userId, byId.get(id)!, stepIds, now)).questCompleted) completed.push(id);
      },
      txOptions(),
    );
  }
  return { completed, steps };
}

/**
 * Recomputes users.quest_points from quest_progress.rep_awarded and writes the ledger entry of any completion that
 * lacks one (award() under the completion's grant key, so a second run writes nothing and changes nothing).
 */
export async function syncQuestPoints(db: Db, userId: string) {
  return db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    const { questPoints: previous } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { questPoints: true } });
    const missing = await tx.$queryRaw<
      {
        questId: string;
        periodKey: string;
        repAwarded: bigint;
        completedAt: Date;
        title: string;
        cadence: "daily" | "once";
        repSource: QuestRow["repSource"];
      }[]
    >`
      SELECT p.quest_id AS "questId", p.period_key AS "periodKey", p.rep_awarded AS "repAwarded", p.completed_at AS "completedAt",
             q.title, q.cadence::text AS cadence, q.rep_source::text AS "repSource"
      FROM quest_progress p JOIN quests q ON q.id = p.quest_id
      WHERE p.user_id = ${userId}::uuid AND p.completed_at IS NOT NULL AND p.rep_awarded > 0
        AND NOT EXISTS (SELECT 1 FROM rep_entries e WHERE e.user_id = p.user_id AND e.grant_key = 'quest:' || p.quest_id || ':' || p.period_key)`;
    let entriesWritten = 0;
    for (const m of missing) {
      const granted = await award(tx, userId, {
        earnKind: m.cadence === "daily" ? "daily_quest_completion" : "quest_completion",
        amount: Number(m.repAwarded),
        source: m.repSource,
        reason: `Quest completed: ${m.title}`,
        grantKey: `quest:${m.questId}:${m.periodKey}`,
        targetId: m.questId,
        createdAt: m.completedAt,
      });
      if (granted) entriesWritten++;
    }
    const [row] = await tx.$queryRaw<{ questPoints: bigint }[]>`
      UPDATE users SET quest_points = (SELECT COALESCE(sum(rep_awarded), 0)::int8 FROM quest_progress WHERE user_id = ${userId}::uuid AND completed_at IS NOT NULL)
      WHERE id = ${userId}::uuid RETURNING quest_points AS "questPoints"`;
    return { questPoints: Number(row!.questPoints), previous: Number(previous), entriesWritten };
  }, txOptions());
}
