import type { DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { inItemOrder } from "../../db/batch";
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

/** A validated batch to store for a user, received at `now`. */
export interface SignalBatchToStore {
  userId: string;
  batchKey: string | null;
  events: SignalEvent[];
  now: Date;
}

/**
 * Stores validated batches (of many users: concurrent requests share the statement, see service.ts), each as one
 * row, only while its user's analytics_personalization is on (read in the same statement). A batch whose `batchKey`
 * the user already stored is skipped (ON CONFLICT on the unique (user_id, batch_key)): concurrent retries store it
 * once. One answer per batch, in order.
 */
export async function insertSignalBatches(db: RawDb | DbTx, batches: SignalBatchToStore[]): Promise<InsertedBatch[]> {
  const col = <T>(f: (b: SignalBatchToStore) => T) => batches.map(f);
  const rows = await raw(db).$queryRaw<(InsertedBatch & { n: bigint | number })[]>`
    WITH i AS (
      SELECT * FROM unnest(${col((b) => uuidv7(b.now.getTime()))}::uuid[], ${col((b) => b.userId)}::uuid[], ${col((b) => b.batchKey)}::uuid[],
                           ${col((b) => b.now.toISOString())}::timestamptz[], ${col((b) => b.events.length)}::int[],
                           ${col((b) => JSON.stringify(b.events))}::jsonb[])
        WITH ORDINALITY AS i(id, user_id, batch_key, received_at, event_count, events, n)
    ),
    ins AS (
      INSERT INTO feed_signal_batches (id, user_id, batch_key, received_at, event_count, events)
      SELECT i.id, i.user_id, i.batch_key, i.received_at, i.event_count, i.events
      FROM i JOIN users u ON u.id = i.user_id AND u.analytics_personalization
      ORDER BY i.n
      ON CONFLICT DO NOTHING
      RETURNING id)
    SELECT i.n, u.analytics_personalization AS "optedIn", EXISTS (SELECT 1 FROM ins WHERE ins.id = i.id) AS stored
    FROM i LEFT JOIN users u ON u.id = i.user_id`;
  // Every batch has its row (optedIn null where the user does not exist).
  return inItemOrder(rows, batches.length).map((r) => r!);
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
