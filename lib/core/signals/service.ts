import { createHash } from "node:crypto";
import type { DbTx } from "../../db/client";
import { uuidOfHex } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { batchConcurrentCallsPerClient } from "../../db/batch";
import { deleteSignalsBefore, insertSignalBatches } from "./queries";
import type { SignalEvent } from "./schemas";

// Concurrent batches share one statement (lib/db/batch.ts); one user's batches never share one.
const storeBatch = batchConcurrentCallsPerClient(insertSignalBatches, { keyOf: (b) => b.userId, max: 64 });

/**
 * Ingests a validated batch (POST /api/feed/signals). A caller who turned analyticsPersonalization off has the whole
 * batch dropped: nothing is stored and the answer says so. Otherwise the batch is stored as one row, each eventId
 * once (repeats within the batch are duplicates), unless it is a batch stored before: when every event carries an
 * eventId, the sorted ids are the batch's key, so a batch resent because its answer was lost (in any order, even
 * concurrently) is stored once and answers every event as a duplicate.
 */
export async function ingestSignals(db: RawDb | DbTx, userId: string, sent: SignalEvent[]) {
  const received = sent.length;
  const seen = new Set<string>();
  const events: SignalEvent[] = [];
  for (const e of sent) {
    if (e.eventId !== undefined) {
      const id = e.eventId.toLowerCase();
      if (seen.has(id)) continue;
      seen.add(id);
    }
    events.push({ ...e, at: new Date(e.at).toISOString() });
  }
  const batchKey = seen.size === events.length ? keyOf([...seen]) : null;
  const { optedIn, stored } = await storeBatch(db, { userId, batchKey, events, now: new Date() });
  if (!optedIn) return { received, accepted: 0, duplicates: 0, dropped: received, droppedReason: "analytics_personalization_off" as const };
  const accepted = stored ? events.length : 0;
  return { received, accepted, duplicates: received - accepted, dropped: 0, droppedReason: null };
}

/** A batch's key: the sha-256 of its sorted event ids, its first 16 bytes written as a UUID. */
function keyOf(eventIds: string[]): string {
  return uuidOfHex(createHash("sha256").update(eventIds.sort().join(",")).digest("hex"));
}

export const RETENTION_BATCH = 5_000;
export const RETENTION_MAX_BATCHES = 40;
export const RETENTION_TIME_BUDGET_MS = 20_000;
const DAY_MS = 86_400_000;

/**
 * Deletes signals received more than `retentionDays` before `now`, `batchSize` stored batches at a time, each its own
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
    const { batches, events } = await deleteSignalsBefore(db, cutoff, batchSize);
    deleted += events;
    if (batches < batchSize) {
      complete = true;
      break;
    }
    if (performance.now() - started > budgetMs) break;
  }
  return { deleted, cutoff: cutoff.toISOString(), complete };
}
