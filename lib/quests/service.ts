import type { DbTx } from "../db/client";
import { decodeTimeCursor, encodeCursor } from "../http/cursor";
import { keysetPage } from "../http/page";
import { completionsOf, toCompletedQuest } from "./queries";

// Quests: today the caller's history; the engagement-loop issue adds quests, sessions and check-ins here.

/** Quest history, newest first, keyset-paginated. */
export async function listCompletedQuests(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await completionsOf(db, userId, cursor ? decodeTimeCursor(cursor) : undefined, limit + 1);
  return keysetPage("quests", rows, limit, (r) => encodeCursor(r.completedAt.getTime(), r.questId), toCompletedQuest);
}
