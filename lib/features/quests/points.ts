// Quest points: users.quest_points recomputed from the completions (quest_progress.rep_awarded), and the ledger
// entry of any completion that lacks one written (POST /api/sync-quest-points).
import type { Db } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { award } from "../../core/rep/service";
import { completionsWithoutEntry } from "./queries";
import { recomputeQuestPoints } from "./writes";

/**
 * Recomputes users.quest_points from quest_progress.rep_awarded and writes the ledger entry of any completion that
 * lacks one (award() under the completion's grant key, so a second run writes nothing and changes nothing).
 */
export async function syncQuestPoints(db: Db, userId: string) {
  return db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    const { questPoints: previous } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { questPoints: true } });
    const missing = await completionsWithoutEntry(tx, userId);
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
    const questPoints = await recomputeQuestPoints(tx, userId);
    return { questPoints, previous: Number(previous), entriesWritten };
  }, txOptions());
}
