import type { Db, DbTx } from "../../db/client";
import { txOptions } from "../../db/tx";
import { log } from "../../kernel/log";
import { storage, type Storage } from "../../storage";
import { LOCKER_MEDIA_GRACE_MS } from "./kinds";
import { lockExpiredDirectUploads, lockPendingLockerMedia, lockUnreferencedImages, type SweepCandidate } from "./queries";

// The uploads sweep (GET /api/cron/uploads-sweep, Vercel Cron). Two kinds of stored files nothing uses:
//   1. pending locker media (attached_at null) older than the grace period: uploaded for a post that never came;
//   2. direct uploads (lib/core/uploads/service.ts) whose window closed more than the grace period ago: the original, if
//      one arrived and was never completed, and the grant's row;
//   3. replaced images (avatar, banner, binder cover) whose file delete failed after the replacement (or whose
//      binder is gone): MediaUpload rows no user or binder row references any more.
// Each is deleted from storage first, then its row; a failed file delete leaves the row for the next run and
// counts as failed. Work is bounded: batches of SWEEP_BATCH rows, at most SWEEP_MAX_BATCHES per pass, walking
// (created_at, id) forward so a row that failed is not retried in the same run.
//
// Pending locker media is locked (FOR UPDATE SKIP LOCKED) for the batch's transaction while its files are deleted:
// a post attaching one of these uploads (attachLockerMedia) waits and then finds the row gone, or, if it got there
// first, the row is skipped. Replaced images and expired direct uploads are locked the same way, not because anything
// else could use them (an image no row references never becomes referenced again: every upload has a fresh key) but
// so that two sweeps at once (Vercel Cron may fire twice) never delete one file twice nor count one row twice.

export const SWEEP_BATCH = 50;
export const SWEEP_MAX_BATCHES = 20;
const DELETE_CONCURRENCY = 8;

export interface SweepResult {
  deleted: number;
  failed: number;
}

const START = { createdAt: new Date(0), id: "00000000-0000-0000-0000-000000000000" };

/** Deletes each key from storage; answers which deletes succeeded, in order. */
async function deleteFiles(files: Storage, keys: string[]): Promise<boolean[]> {
  const ok: boolean[] = [];
  for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
    const chunk = keys.slice(i, i + DELETE_CONCURRENCY);
    const results = await Promise.allSettled(chunk.map((key) => files.delete(key)));
    results.forEach((r, j) => {
      if (r.status === "rejected") log("warn", { msg: "uploads sweep could not delete a file; left for the next run", key: chunk[j], error: String(r.reason) });
      ok.push(r.status === "fulfilled");
    });
  }
  return ok;
}

/** Deletes the rows' files, then (deleteRows) the rows whose file is gone; a row whose file could not be deleted stays. */
async function removeCandidates(files: Storage, rows: SweepCandidate[], deleteRows: (ids: string[]) => Promise<unknown>) {
  const ok = await deleteFiles(
    files,
    rows.map((r) => r.key),
  );
  const gone = rows.filter((_, i) => ok[i]).map((r) => r.id);
  if (gone.length) await deleteRows(gone);
  return { deleted: gone.length, failed: rows.length - gone.length, last: rows.at(-1), size: rows.length };
}

/**
 * Runs batches until one comes back short or the batch budget is spent, each in a transaction of its own: the rows a
 * batch locks (FOR UPDATE SKIP LOCKED) stay its own while their files are deleted.
 */
async function sweepPass(
  db: Db,
  batch: (tx: DbTx, after: { createdAt: Date; id: string }) => Promise<SweepResult & { last?: SweepCandidate; size: number }>,
  maxBatches: number,
) {
  const total: SweepResult = { deleted: 0, failed: 0 };
  let after = START;
  for (let i = 0; i < maxBatches; i++) {
    const r = await db.$transaction((tx) => batch(tx, after), txOptions(60_000));
    total.deleted += r.deleted;
    total.failed += r.failed;
    if (!r.last || r.size < SWEEP_BATCH) break;
    after = r.last;
  }
  return total;
}

export async function sweepUploads(
  db: Db,
  { files = storage(), now = new Date(), maxBatches = SWEEP_MAX_BATCHES }: { files?: Storage; now?: Date; maxBatches?: number } = {},
): Promise<SweepResult> {
  const cutoff = new Date(now.getTime() - LOCKER_MEDIA_GRACE_MS);

  const mediaRows = (tx: DbTx) => (ids: string[]) => tx.mediaUpload.deleteMany({ where: { id: { in: ids } } });
  const pending = await sweepPass(
    db,
    async (tx, after) => removeCandidates(files, await lockPendingLockerMedia(tx, cutoff, after, SWEEP_BATCH), mediaRows(tx)),
    maxBatches,
  );
  const replaced = await sweepPass(
    db,
    async (tx, after) => removeCandidates(files, await lockUnreferencedImages(tx, cutoff, after, SWEEP_BATCH), mediaRows(tx)),
    maxBatches,
  );
  const direct = await sweepPass(
    db,
    async (tx, after) =>
      removeCandidates(files, await lockExpiredDirectUploads(tx, cutoff, after, SWEEP_BATCH), (ids) =>
        tx.directUpload.deleteMany({ where: { id: { in: ids } } }),
      ),
    maxBatches,
  );

  const result = {
    deleted: pending.deleted + replaced.deleted + direct.deleted,
    failed: pending.failed + replaced.failed + direct.failed,
  };
  if (result.deleted || result.failed) log("info", { msg: "uploads sweep", ...result, pending, replaced, direct });
  return result;
}
