import type { DbTx } from "../db/client";
import { uuidv7 } from "../db/ids";
import { raw, type RawDb } from "../db/raw";
import type { SignalEvent } from "./schemas";

// The module's two statements. A batch is one row of feed_signal_batches (its events one jsonb array); the view
// feed_signal_events reads them back one row per event. No route reads signals back yet: the unique
// (user_id, batch_key) index serves a per-user read when one comes (and the cascade when a user is deleted),
// feed_signal_batches_received_at_idx the retention.

export interface InsertedBatch {
  /** users.analytics_personalization (null: no such user). */
  optedIn: boolean | null;
  /** Whether this request stored the batch (false: opted out, or the same batch was stored before). */
  stored: boolean;
}

/**
 * Stores a validated batch as one row, only while the user's analytics_personalization is on (read in the same
 * statement). A batch whose `batchKey` the user already stored is skipped (ON CONFLICT on the unique
 * (user_id, batch_key)): concurrent retries store it once.
 */
export async function insertSignalBatch(
  db: RawDb | DbTx,
  userId: string,
  batch: { batchKey: string | null; events: SignalEvent[] },
  now = new Date(),
): Promise<InsertedBatch> {
  const [row] = await raw(db).$queryRaw<InsertedBatch[]>`
    WITH u AS (SELECT analytics_personalization AS opted FROM users WHERE id = ${userId}::uuid),
    ins AS (
      INSERT INTO feed_signal_batches (id, user_id, batch_key, received_at, event_count, events)
      SELECT ${uuidv7(now.getTime())}::uuid, ${userId}::uuid, ${batch.batchKey}::uuid, ${now}::timestamptz, ${batch.events.length}::int,
             ${JSON.stringify(batch.events)}::jsonb
      WHERE (SELECT opted FROM u)
      ON CONFLICT DO NOTHING
      RETURNING 1)
    SELECT (SELECT opted FROM u) AS "optedIn", EXISTS (SELECT 1 FROM ins) AS stored`;
  return row ?? { optedIn: null, stored: false };
}

/**
 * Deletes up to `batchSize` batches received before `cutoff` (oldest first), skipping rows another run holds, and
 * answers how many batches and events went.
 */
export async function deleteSignalsBefore(db: RawDb | DbTx, cutoff: Date, batchSize: number) {
  const [row] = await raw(db).$queryRaw<{ batches: number; events: number }[]>`
    WITH gone AS (
      DELETE FROM feed_signal_batches WHERE id IN (
        SELECT id FROM feed_signal_batches WHERE received_at < ${cutoff}::timestamptz
        ORDER BY received_at LIMIT ${batchSize}::int
        FOR UPDATE SKIP LOCKED)
      RETURNING event_count)
    SELECT count(*)::int AS batches, COALESCE(sum(event_count), 0)::int AS events FROM gone`;
  return row!;
}
