// Quest points: users.quest_points recomputed from the completions (quest_progress.rep_awarded), and the ledger
// entry of any completion that lacks one written (POST /api/sync-quest-points).
import type { Db } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { award } from "../../core/rep/service";
import type { QuestRow } from "./queries";

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
