import type { DbTx } from "../db/client";
import type { RawDb } from "../db/raw";
import { deleteSignalsBefore, insertSignalBatch } from "./queries";
import type { SignalEvent } from "./schemas";

/**
 * Ingests a validated batch (POST /api/feed/signals). A caller who turned analyticsPersonalization off has the whole
 * batch dropped: nothing is stored and the answer says so. Otherwise one insert stores every event whose eventId is
 * new (events without one are always stored).
 */
export async function ingestSignals(db: RawDb | DbTx, userId: string, events: SignalEvent[]) {
  const received = events.length;
  const { optedIn, inserted } = await insertSignalBatch(db, userId, events);
  if (!optedIn) return { received, accepted: 0, duplicates: 0, dropped: received, droppedReason: "analytics_personalization_off" as const };
  return { received, accepted: inserted, duplicates: received - inserted, dropped: 0, droppedReason: null };
}

export const RETENTION_BATCH = 5_000;
export const RETENTION_MAX_BATCHES = 40;
export const RETENTION_TIME_BUDGET_MS = 20_000;
const DAY_MS = 86_400_000;

/**
 * Deletes signals received more than `retentionDays` before `now`, in batches of `batchSize` rows, each its own
 * short statement (no long lock, no huge transaction), until a batch comes back short, `maxBatches` ran or the time
 * budget is spent; the rest waits for the next run. Running it again right after deletes nothing more.
 */
export async function purgeExpiredSignals(
  db: RawDb | DbTx,
  {
    retentionDays,
    now = new Date(),
    batchSize = RETENTION_BATCH,
    maxBatches = RETENTION_MAX_BATCHES,
    budgetMs = RETENTION_TIME_BUDGET_MS,
  }: { retentionDays: number; now?: Date; batchSize?: number; maxBatches?: number; budgetMs?: number },
) {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const started = performance.now();
  let deleted = 0;
  let complete = false;
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteSignalsBefore(db, cutoff, batchSize);
    deleted += n;
    if (n < batchSize) {
      complete = true;
      break;
    }
    if (performance.now() - started > budgetMs) break;
  }
  return { deleted, cutoff: cutoff.toISOString(), complete };
}
