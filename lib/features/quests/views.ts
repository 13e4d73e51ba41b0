// Quests as the fan sees them: a quest with the caller's progress (QuestView), today's quests (the quest list, the
// legacy list and the dashboard), one quest, the daily summary and streak, and the history of completed quests. The
// quest definitions' per-process cache (forgetQuests) lives here too.
import type { Db, DbTx } from "../../db/client";
import { batchConcurrentCallsPerClient } from "../../db/batch";
import { keyedCache } from "../../db/cache";
import { env } from "../../env";
import type { QuestStepCondition } from "../../generated/prisma/enums";
import { decodeTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { addUtcDays, utcDay, utcDayStart } from "../../time";
import { awardOf, eligibleOrThrow, periodKeyOf } from "./engine";
import {
  completionsOf,
  fanTeamsOf,
  questRowsById,
  questsWithStateOf,
  todaysQuestsRows,
  type QuestsWithState,
  type TodaysQuestsRow,
  questStateOf,
  streakRowOf,
  type QuestState,
  toCompletedQuest,
  type ProgressRow,
  type QuestRow,
  type SessionSummaryRow,
  type StepRow,
} from "./queries";
import { QUIZ_GRACE_MS } from "./quiz";
import { settleActiveSessions } from "./quiz-sessions";

/** Quest history, newest first, keyset-paginated. */
export async function listCompletedQuests(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await completionsOf(db, userId, cursor ? decodeTimeCursor(cursor) : undefined, limit + 1);
  return keysetPage("quests", rows, limit, (r) => encodeCursor(r.completedAt.getTime(), r.questId), toCompletedQuest);
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
export async function viewsOf(db: Db, userId: string, quests: QuestRow[], now: Date, settle = false): Promise<QuestView[]> {
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

// Concurrent quest lists share one statement (lib/db/batch.ts), as the dashboard's reads do.
const readTodaysQuests = batchConcurrentCallsPerClient(todaysQuestsRows, { max: 64 });

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

/** One quest, 404 NOT_FOUND when unknown or not eligible for the user. */
export async function getQuest(db: Db, userId: string, questId: string, now = new Date()) {
  const q = await eligibleOrThrow(db, userId, questId, now);
  const [view] = await viewsOf(db, userId, [q], now, true);
  return view!;
}

/** A streak row as of `now`: current is 0 once the last completed day is older than yesterday. */
export function toStreak(row: { current: number; longest: number; lastDay: Date } | null, now: Date) {
  if (!row) return { current: 0, longest: 0, lastDay: null };
  const alive = row.lastDay.getTime() >= addUtcDays(now, -1).getTime();
  return { current: alive ? row.current : 0, longest: row.longest, lastDay: utcDay(row.lastDay) };
}

/** The user's daily streak as of `now`. */
export async function streakOf(db: DbTx, userId: string, now = new Date()) {
  return toStreak((await streakRowOf(db, userId)) ?? null, now);
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
