import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { EXPORT_INTERVAL_DAYS, EXPORT_RETENTION_DAYS, EXPORT_ROW_RETENTION_DAYS, type ExportStatus } from "./schemas";

// Data exports' statements (data_exports). The reads of the exported data itself are in snapshot-queries.ts.

export interface ExportRow {
  id: string;
  userId: string;
  status: ExportStatus;
  createdAt: Date;
  readyAt: Date | null;
  expiresAt: Date | null;
  fileKey: string | null;
  sizeBytes: number | null;
}

const COLUMNS = Prisma.sql`id::text AS id, user_id::text AS "userId", status, created_at AS "createdAt", ready_at AS "readyAt",
  expires_at AS "expiresAt", file_key AS "fileKey", size_bytes AS "sizeBytes"`;

/** The user's newest export that counts against the interval (any status but failed) requested within it, if any. */
export async function recentExport(db: RawDb, userId: string): Promise<{ createdAt: Date } | undefined> {
  const [row] = await db.$queryRaw<{ createdAt: Date }[]>`
    SELECT created_at AS "createdAt" FROM data_exports
    WHERE user_id = ${userId}::uuid AND status <> 'failed' AND created_at > now() - make_interval(days => ${EXPORT_INTERVAL_DAYS}::int)
    ORDER BY id DESC LIMIT 1`;
  return row;
}

export async function insertExport(db: RawDb, id: string, userId: string): Promise<ExportRow> {
  const [row] = await db.$queryRaw<ExportRow[]>`INSERT INTO data_exports (id, user_id) VALUES (${id}::uuid, ${userId}::uuid) RETURNING ${COLUMNS}`;
  return row!;
}

/** One of the user's exports (undefined when it is not theirs). */
export async function exportOf(db: RawDb | DbTx, userId: string, id: string): Promise<ExportRow | undefined> {
  const [row] = await raw(db).$queryRaw<ExportRow[]>`SELECT ${COLUMNS} FROM data_exports WHERE id = ${id}::uuid AND user_id = ${userId}::uuid`;
  return row;
}

/** An export by id alone: the download link's signature names it, whoever opens it. */
export async function exportById(db: RawDb | DbTx, id: string): Promise<ExportRow | undefined> {
  const [row] = await raw(db).$queryRaw<ExportRow[]>`SELECT ${COLUMNS} FROM data_exports WHERE id = ${id}::uuid`;
  return row;
}

/** The user's exports, newest first (UUIDv7 ids), after the cursor's id; `take` is the page size plus one. */
export function exportsOf(db: RawDb | DbTx, userId: string, after: string | undefined, take: number) {
  return raw(db).$queryRaw<ExportRow[]>`
    SELECT ${COLUMNS} FROM data_exports
    WHERE user_id = ${userId}::uuid ${after ? Prisma.sql`AND id < ${after}::uuid` : Prisma.empty}
    ORDER BY id DESC LIMIT ${take}`;
}

export interface Claim {
  id: string;
  userId: string;
  claimedAt: Date;
  attempts: number;
}

/**
 * Claims up to `take` exports to build: pending ones, oldest first, and building ones whose claim is older than
 * `staleSeconds` (a worker that died). SKIP LOCKED: concurrent runs never claim the same export. The claim time
 * is the claim's token: only the run holding it may finish the export.
 */
export function claimExports(db: RawDb, take: number, staleSeconds: number) {
  return db.$queryRaw<Claim[]>`
    UPDATE data_exports e SET status = 'building', claimed_at = clock_timestamp(), attempts = e.attempts + 1
    WHERE e.id IN (
      SELECT id FROM data_exports
      WHERE status = 'pending' OR (status = 'building' AND claimed_at < now() - make_interval(secs => ${staleSeconds}::int))
      ORDER BY created_at LIMIT ${take}
      FOR UPDATE SKIP LOCKED)
    RETURNING e.id::text AS id, e.user_id::text AS "userId", e.claimed_at AS "claimedAt", e.attempts`;
}

/** Marks a claimed export ready with its file; false when the claim is no longer this run's (taken over, or the user is gone). */
export async function markReady(db: RawDb, c: Claim, fileKey: string, sizeBytes: number): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE data_exports SET status = 'ready', file_key = ${fileKey}, size_bytes = ${sizeBytes}, ready_at = now(),
      expires_at = now() + make_interval(days => ${EXPORT_RETENTION_DAYS}::int), last_error = NULL
    WHERE id = ${c.id}::uuid AND status = 'building' AND claimed_at = ${c.claimedAt}`;
  return n > 0;
}

/** A failed build: back to pending for the next run, or failed for good after `maxAttempts`. */
export function markFailed(db: RawDb, c: Claim, error: string, maxAttempts: number) {
  return db.$executeRaw`
    UPDATE data_exports SET status = CASE WHEN attempts >= ${maxAttempts}::int THEN 'failed' ELSE 'pending' END, claimed_at = NULL,
      last_error = ${error.slice(0, 500)}
    WHERE id = ${c.id}::uuid AND status = 'building' AND claimed_at = ${c.claimedAt}`;
}

/** Ready exports past their expiry, locked for the caller's transaction (SKIP LOCKED: one sweep per export). */
export function lockExpired(db: RawDb, take: number) {
  return db.$queryRaw<{ id: string; fileKey: string }[]>`
    SELECT id::text AS id, file_key AS "fileKey" FROM data_exports
    WHERE status = 'ready' AND expires_at <= now()
    ORDER BY expires_at LIMIT ${take}
    FOR UPDATE SKIP LOCKED`;
}

export function markExpired(db: RawDb, ids: string[]) {
  return db.$executeRaw`UPDATE data_exports SET status = 'expired', file_key = NULL WHERE id = ANY(${ids}::uuid[]) AND status = 'ready'`;
}

/** Deletes the rows (no file left) of expired and failed exports requested more than EXPORT_ROW_RETENTION_DAYS ago. */
export function pruneExports(db: RawDb) {
  return db.$executeRaw`
    DELETE FROM data_exports
    WHERE status IN ('expired', 'failed') AND created_at < now() - make_interval(days => ${EXPORT_ROW_RETENTION_DAYS}::int)`;
}
