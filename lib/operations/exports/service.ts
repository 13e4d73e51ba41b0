import { strToU8, zipSync } from "fflate";
import type { Db } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { readMayLag } from "../../db/replica";
import { rawTransaction, raw, type RawDb } from "../../db/raw";
import { lockUser } from "../../db/tx";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { log } from "../../kernel/log";
import { keysetPage } from "../../kernel/page";
import { storage, type Storage } from "../../storage";
import { errors as exportsErrors } from "./errors";
import { checkDownloadLink, signDownloadLink } from "./link";
import {
  claimExports,
  exportById,
  exportOf,
  exportsOf,
  insertExport,
  lockExpired,
  markExpired,
  markFailed,
  markReady,
  pruneExports,
  recentExport,
  type Claim,
  type ExportRow,
} from "./queries";
import { EXPORT_INTERVAL_DAYS, type ExportStatus } from "./schemas";
import { EXPORT_FILES, readSnapshot } from "./snapshot-queries";

// Data exports (POST, GET /api/v1/me/exports; GET …/{exportId}; GET …/{exportId}/download; GET /api/cron/exports).
// A user asks for a zip of their data at most once per EXPORT_INTERVAL_DAYS, checked under their row lock (two
// requests at once make one export). The exports cron claims pending exports (SKIP LOCKED), reads each user's data
// from one REPEATABLE READ snapshot (snapshot-queries.ts), zips it (fflate) and stores it through lib/storage under exports/.
// While ready, the status answers a signed download link valid 15 minutes (link.ts). 7 days after it was ready the
// same cron deletes the file (status expired); the row itself goes 30 days after the request.

const DAY_MS = 86_400_000;
export const EXPORT_PREFIX = "exports";
export const BUILD_BATCH = 5;
export const EXPIRE_BATCH = 50;
const STALE_CLAIM_S = 15 * 60;
const MAX_ATTEMPTS = 3;

/** What the caller sees: a ready export past its expiry reads as expired at once (the sweep deletes its file later). */
function toExport(row: ExportRow, now = Date.now()) {
  const status: ExportStatus = row.status === "ready" && row.expiresAt && row.expiresAt.getTime() <= now ? "expired" : row.status;
  const link = status === "ready" ? signDownloadLink(row.id, now) : null;
  return {
    id: row.id,
    status,
    createdAt: row.createdAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    sizeBytes: row.sizeBytes,
    downloadUrl: link?.url ?? null,
    downloadUrlExpiresAt: link?.expiresAt.toISOString() ?? null,
  };
}

/** Requests an export: 202 with it, or 429 EXPORT_TOO_SOON with Retry-After when one was requested within the interval. */
export async function requestExport(db: Db, userId: string) {
  const row = await rawTransaction(db, async (tx) => {
    if (!(await lockUser(tx, userId))) throw notFound("User");
    const recent = await recentExport(tx, userId);
    if (recent) {
      const next = recent.createdAt.getTime() + EXPORT_INTERVAL_DAYS * DAY_MS;
      const retryAfter = Math.max(1, Math.ceil((next - Date.now()) / 1000));
      throw new DomainError(
        exportsErrors.EXPORT_TOO_SOON,
        `One data export per ${EXPORT_INTERVAL_DAYS} days: the next one can be requested at ${new Date(next).toISOString()}.`,
        undefined,
        { "Retry-After": String(retryAfter) },
      );
    }
    return insertExport(tx, uuidv7(), userId);
  });
  return { export: toExport(row) };
}

export async function listExports(db: RawDb, userId: string, q: { cursor?: string; limit: number }) {
  const after = q.cursor ? decodeIdCursor(q.cursor) : undefined;
  const rows = await exportsOf(db, userId, after, q.limit + 1);
  const now = Date.now();
  return keysetPage(
    "exports",
    rows,
    q.limit,
    (r) => encodeIdCursor(r.id),
    (r) => toExport(r, now),
  );
}

/** One of the caller's exports; 404 when it is not theirs. */
export async function getExport(db: RawDb, userId: string, exportId: string) {
  const row = await exportOf(db, userId, exportId);
  if (!row) throw notFound("Export");
  return { export: toExport(row) };
}

/**
 * The zip behind a signed link, opened for streaming from storage: 403 EXPORT_LINK_INVALID for a link this service did not sign (checked first), 410
 * EXPORT_LINK_EXPIRED past its 15 minutes, 410 EXPORT_EXPIRED when the export is no longer ready.
 */
export async function openDownload(db: RawDb, exportId: string, link: { expires: string; signature: string }, files: Storage = storage()) {
  const check = checkDownloadLink(exportId, link.expires, link.signature);
  if (check === "invalid")
    throw new DomainError(exportsErrors.EXPORT_LINK_INVALID, "This download link is not valid: ask for the export's status again for a fresh link.");
  if (check === "expired")
    throw new DomainError(
      exportsErrors.EXPORT_LINK_EXPIRED,
      "This download link has expired (links last 15 minutes): ask for the export's status again for a fresh one.",
    );
  const row = await exportById(db, exportId);
  const gone = () => new DomainError(exportsErrors.EXPORT_EXPIRED, "This export is no longer available: request a new one.");
  if (!row || row.status !== "ready" || !row.fileKey || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) throw gone();
  const file = await files.open(row.fileKey);
  if (!file) throw gone();
  return { body: file.body, size: file.size, filename: `fan-data-export-${row.createdAt.toISOString().slice(0, 10)}-${row.id.slice(0, 8)}.zip` };
}

/** The zip of one user's data: a README and one JSON file per area, all from one snapshot. Null when the user is gone. */
export async function buildExportZip(db: Db, userId: string, exportId: string): Promise<Uint8Array | null> {
  const snapshot = await readSnapshot(db, userId);
  if (!snapshot) return null;
  const entries: Record<string, Uint8Array> = {
    "README.txt": strToU8(
      [
        "Your data export",
        "",
        `Export ${exportId}, taken ${snapshot.takenAt.toISOString()} (every file shows your data at this one instant).`,
        "One JSON file per area; amounts of coins are in minor units (1 COIN = 100), Rep in points; times are UTC (ISO 8601).",
        "Other users appear only by their public handle. Files:",
        ...EXPORT_FILES.map((f) => `  ${f}`),
        "",
      ].join("\n"),
    ),
  };
  for (const [file, value] of Object.entries(snapshot.files)) entries[file] = strToU8(JSON.stringify(value, null, 2));
  const mtime = snapshot.takenAt;
  return zipSync(entries, { level: 6, mtime });
}

export interface ExportRun {
  built: number;
  failed: number;
  expired: number;
  pruned: number;
}

async function buildOne(db: Db, files: Storage, c: Claim): Promise<"built" | "failed" | "skipped"> {
  const key = `${EXPORT_PREFIX}/${c.userId}/${c.id}.zip`;
  try {
    // The export reads a replica when one is fresh (the fan's own recent writes excepted): the zip is one snapshot.
    const zip = await readMayLag(c.userId, (snapshotDb) => buildExportZip(snapshotDb, c.userId, c.id), db);
    if (!zip) return "skipped"; // the user is gone, and the row with them (cascade)
    await files.put(key, zip, "application/zip");
    if (await markReady(raw(db), c, key, zip.byteLength)) return "built";
    await files.delete(key); // another run took the export over (or it was deleted): its file is not ours to keep
    return "skipped";
  } catch (error) {
    log("warn", { msg: "data export build failed", exportId: c.id, attempt: c.attempts, error: String(error) });
    await markFailed(raw(db), c, String(error), MAX_ATTEMPTS);
    return "failed";
  }
}

/**
 * The exports cron: builds up to BUILD_BATCH claimed exports, then deletes the files of ready exports past their
 * expiry (status expired) and the rows of old expired and failed ones.
 */
export async function runExportWorker(db: Db, { files = storage(), batch = BUILD_BATCH }: { files?: Storage; batch?: number } = {}): Promise<ExportRun> {
  const run: ExportRun = { built: 0, failed: 0, expired: 0, pruned: 0 };
  const claims = await claimExports(raw(db), batch, STALE_CLAIM_S);
  for (const c of claims) {
    const outcome = await buildOne(db, files, c);
    if (outcome === "built") run.built++;
    else if (outcome === "failed") run.failed++;
  }
  run.expired = await rawTransaction(db, async (tx) => {
    const due = await lockExpired(tx, EXPIRE_BATCH);
    const deleted: string[] = [];
    for (const e of due) {
      try {
        await files.delete(e.fileKey);
        deleted.push(e.id);
      } catch (error) {
        log("warn", { msg: "data export file could not be deleted; left for the next run", exportId: e.id, error: String(error) });
      }
    }
    return deleted.length ? markExpired(tx, deleted) : 0;
  });
  run.pruned = await pruneExports(raw(db));
  if (run.built || run.failed || run.expired || run.pruned) log("info", { msg: "data exports", ...run });
  return run;
}
