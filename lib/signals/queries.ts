import type { DbTx } from "../db/client";
import { raw, type RawDb } from "../db/raw";
import type { SignalEvent } from "./schemas";

// The module's two statements. No route reads signals back yet: the unique (user_id, event_id) index serves a
// per-user read when one comes (and the cascade when a user is deleted), feed_signals_received_at_idx the retention.

export interface InsertedBatch {
  /** users.analytics_personalization (null: no such user). */
  optedIn: boolean | null;
  inserted: number;
}

/**
 * Stores a validated batch in one statement, only while the user's analytics_personalization is on (read in the same
 * statement). The events travel as one jsonb parameter whose keys are the schema's field names; an event whose
 * (user_id, event_id) is already stored, or repeated in the batch, is skipped.
 */
export async function insertSignalBatch(db: RawDb | DbTx, userId: string, events: SignalEvent[]): Promise<InsertedBatch> {
  const [row] = await raw(db).$queryRaw<InsertedBatch[]>`
    WITH u AS (SELECT analytics_personalization AS opted FROM users WHERE id = ${userId}::uuid),
    ins AS (
      INSERT INTO feed_signals (user_id, type, item_type, item_id, team_id, occurred_at, duration_ms, surface, position, event_id)
      SELECT ${userId}::uuid, e.type, e."itemType", e."itemId", e."teamId", e.at, e."durationMs", e.surface, e.position, e."eventId"
      FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS e(
        type "FeedSignalType", "itemType" "FeedItemType", "itemId" text, "teamId" text, at timestamptz, "durationMs" int,
        surface text, position int, "eventId" uuid)
      WHERE (SELECT opted FROM u)
      ON CONFLICT DO NOTHING
      RETURNING 1)
    SELECT (SELECT opted FROM u) AS "optedIn", (SELECT count(*) FROM ins)::int AS inserted`;
  return row ?? { optedIn: null, inserted: 0 };
}

/** Deletes up to `batchSize` signals received before `cutoff` (oldest first), skipping rows another run holds. */
export function deleteSignalsBefore(db: RawDb | DbTx, cutoff: Date, batchSize: number) {
  return raw(db).$executeRaw`
    DELETE FROM feed_signals WHERE id IN (
      SELECT id FROM feed_signals WHERE received_at < ${cutoff}::timestamptz
      ORDER BY received_at LIMIT ${batchSize}::int
      FOR UPDATE SKIP LOCKED)`;
}
