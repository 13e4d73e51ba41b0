import { Prisma } from "../generated/prisma/client";
import type { DbTx } from "../db/client";

export interface CompletionRow {
  questId: string;
  slug: string;
  title: string;
  description: string | null;
  teamId: string | null;
  repReward: number;
  isDaily: boolean;
  completedAt: Date;
}

export const toCompletedQuest = (r: CompletionRow) => ({ ...r, completedAt: r.completedAt.toISOString() });

/** A user's completions joined with their quests, newest first (completedAt desc, questId desc), after the cursor. */
export function completionsOf(db: DbTx, userId: string, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (c.completed_at, c.quest_id) < (${after.at}::timestamptz, ${after.id}::text)` : Prisma.empty;
  return db.$queryRaw<CompletionRow[]>`
    SELECT q.id AS "questId", q.slug, q.title, q.description, q.team_id AS "teamId", q.rep_reward AS "repReward",
           q.is_daily AS "isDaily", c.completed_at AS "completedAt"
    FROM quest_progress c JOIN quests q ON q.id = c.quest_id
    WHERE c.user_id = ${userId}::uuid AND c.completed_at IS NOT NULL ${keyset}
    ORDER BY c.completed_at DESC, c.quest_id DESC LIMIT ${take}`;
}
