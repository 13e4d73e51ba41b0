// Quest steps and the legacy routes (/api/quests/*): starting a quest, a step the app reports done, the daily
// visit, and the server's evaluation of conditioned steps (checkProgress, advanceConditionedSteps), which complete
// a quest once all its steps are done.
import type { Db } from "../../db/client";
import { batchConcurrentCallsPerClient } from "../../db/batch";
import { rawTransaction, type RawDb } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { DomainError, notFound } from "../../kernel/errors";
import { utcDay } from "../../time";
import { completeQuest, eligibleOrThrow, periodKeyOf } from "./engine";
import { conditionFactsOf, eligibleQuests, stepsToCheckOf, type ConditionFacts, type QuestRow } from "./queries";
import { viewsOf } from "./views";
import { markStepsDone } from "./writes";
import { errors as questsErrors } from "./errors";

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
  const { inserted, total, done } = await markStepsDone(tx, userId, q.id, periodKey, stepIds, now);
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
      throw new DomainError(questsErrors.QUEST_STEP_CONDITION_NOT_MET, `This step is checked by the server (${step.condition}) and is not met yet.`);
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

// Concurrent evaluations share one read (lib/db/batch.ts), as check-ins' do.
const readStepsToCheck = batchConcurrentCallsPerClient(stepsToCheckOf, { max: 64 });

/**
 * Marks the server-checked steps of `quests` whose condition the server now sees, and completes those whose steps are
 * then all done (also one whose steps were already all done but is not completed: marked by a check-in, see
 * writeCheckIns). Answers the quests that completed. Nothing is written (and no lock taken) when there is nothing to do.
 */
export async function advanceConditionedSteps(db: Db, userId: string, quests: QuestRow[], now: Date) {
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
