import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { UUID_PATTERN } from "../../kernel/schemas";
import type { SyncRunView, SyncScope, SyncSummary, SyncTrigger } from "./types";

// Sync runs as the API and the staff console show them.

type SyncRunRow = {
  id: string;
  scope: string;
  trigger: string;
  actor: string | null;
  status: "running" | "succeeded" | "failed";
  summary: unknown;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
};

export function toSyncRunView(r: SyncRunRow): SyncRunView {
  return {
    id: r.id,
    scope: r.scope as SyncScope,
    trigger: r.trigger as SyncTrigger,
    actor: r.actor,
    status: r.status,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
    summary: (r.summary ?? null) as SyncSummary | null,
    error: r.error,
  };
}

export const SYNC_RUNS_DEFAULT_LIMIT = 20;
export const SYNC_RUNS_MAX_LIMIT = 100;

/** Newest first (startedAt desc, id desc), keyset-paginated with an opaque cursor. */
export async function listSyncRuns(db: PrismaClient, opts: { limit?: number; cursor?: string } = {}): Promise<{ runs: SyncRunView[]; nextCursor?: string }> {
  const limit = Math.min(Math.max(1, Math.trunc(opts.limit ?? SYNC_RUNS_DEFAULT_LIMIT)), SYNC_RUNS_MAX_LIMIT);
  let where: Prisma.SyncRunWhereInput = {};
  if (opts.cursor) {
    const { at, id } = decodeUuidTimeCursor(opts.cursor);
    where = { OR: [{ startedAt: { lt: at } }, { startedAt: at, id: { lt: id } }] };
  }
  const rows = await db.syncRun.findMany({ where, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit + 1 });
  return keysetPage("runs", rows, limit, (r) => encodeCursor(r.startedAt.getTime(), r.id), toSyncRunView);
}

/** One run, or null (also for an id that is not a UUID). */
export async function getSyncRun(db: PrismaClient, id: string): Promise<SyncRunView | null> {
  if (!UUID_PATTERN.test(id)) return null;
  const row = await db.syncRun.findUnique({ where: { id } });
  return row ? toSyncRunView(row) : null;
}
