// The quest engine's core: a quest's period and award, eligibility (eligibleOrThrow over eligibleQuests) and
// completion (completeQuest, over its statement parts in writes.ts: questCompletionCtes and questCompletionRowsCtes),
// which every other quest feature goes through.
import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { notFound } from "../../kernel/errors";
import { award, SERVER_AWARDS } from "../../core/rep/service";
import { utcDay } from "../../time";
import { noteReferralProgress } from "../referrals/service";
import { eligibleQuests, type QuestRow } from "./queries";
import { markQuestCompleted } from "./writes";

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

export async function eligibleOrThrow(db: DbTx, userId: string, questId: string, now: Date): Promise<QuestRow> {
  const [q] = await eligibleQuests(db, userId, now, questId);
  if (!q) throw notFound("Quest");
  return q;
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
  if (!(await markQuestCompleted(tx, userId, q, periodKey, amount, now))) return false;
  // A first completed quest may qualify a referral (lib/features/referrals): settled once this request's writes committed.
  noteReferralProgress(userId);
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
