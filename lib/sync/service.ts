import { UUID_PATTERN } from "../http/schemas";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/cursor";
import { forgetStandings } from "../leagues/service";
import { forgetTeamDetails } from "../teams/service";
import { applyFeed, DryRunRollback, SYNC_LOCK_KEY } from "./engine";
import { parseFeed } from "./feed";
import { defaultProvider, type FeedProvider } from "./provider";
import { SYNC_ENTITIES, type SyncCounts, type SyncRunView, type SyncScope, type SyncSummary, type SyncTrigger } from "./types";

// League/team sync, as the routes and the staff console call it. One run = one SyncRun row (written outside the data
// transaction, so a failure is recorded) + one data transaction that holds a transaction-scoped advisory lock, so
// runs never interleave: a second run waits for the first, then sees its result.

export type { SyncChange, SyncCounts, SyncEntity, SyncRunView, SyncScope, SyncSummary, SyncTrigger } from "./types";
export { MAX_CHANGES, SYNC_ENTITIES } from "./types";
export type { FeedProvider } from "./provider";

export interface RunSyncOptions {
  scope: SyncScope;
  trigger: SyncTrigger;
  actor?: string | null;
  provider?: FeedProvider;
  /** Compute the changes, then roll them back; the run is recorded with summary.dryRun = true. */
  dryRun?: boolean;
}

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

const MAX_ERROR = 2_000;
// Long enough for a large feed plus waiting for a run in progress to finish.
const TX_TIMEOUT_MS = 120_000;

function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Prisma prefixes messages with the calling code location; keep the part after it.
  const lines = message.split("\n").map((l) => l.trim()).filter(Boolean);
  const text = lines.length > 1 && /invocation/.test(lines[0]!) ? lines.slice(1).join(" ") : lines.join(" ");
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text || "Unknown error";
}

/** Runs one sync and answers its run record (status succeeded or failed; it never throws for a failed run). */
export async function runSync(db: PrismaClient, opts: RunSyncOptions): Promise<SyncRunView> {
  const run = await db.syncRun.create({
    data: { scope: opts.scope, trigger: opts.trigger, actor: opts.actor ?? null, status: "running" },
  });
  let summary: SyncSummary;
  try {
    const provider = opts.provider ?? defaultProvider();
    const feed = parseFeed(await provider.fetchFeed());
    try {
      summary = await db.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SYNC_LOCK_KEY}::bigint)`;
          const result = await applyFeed(tx, feed, { source: provider.name, scope: opts.scope, now: new Date() });
          if (opts.dryRun) throw new DryRunRollback(result);
          return result;
        },
        { maxWait: 10_000, timeout: TX_TIMEOUT_MS },
      );
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
      summary = { ...error.summary, dryRun: true };
    }
  } catch (error) {
    const failed = await db.syncRun.update({
      where: { id: run.id },
      data: { status: "failed", error: errorMessage(error), finishedAt: new Date() },
    });
    return toSyncRunView(failed);
  }
  if (!summary.dryRun && SYNC_ENTITIES.some((e) => summary[e].unchanged !== totalOf(summary[e]))) {
    forgetTeamDetails();
    forgetStandings();
  }
  const done = await db.syncRun.update({
    where: { id: run.id },
    data: { status: "succeeded", summary: summary as unknown as Prisma.InputJsonValue, finishedAt: new Date() },
  });
  return toSyncRunView(done);
}

const totalOf = (c: SyncCounts) => c.created + c.updated + c.archived + c.unchanged;

export const SYNC_RUNS_DEFAULT_LIMIT = 20;
export const SYNC_RUNS_MAX_LIMIT = 100;

/** Newest first (startedAt desc, id desc), keyset-paginated with an opaque cursor. */
export async function listSyncRuns(
  db: PrismaClient,
  opts: { limit?: number; cursor?: string } = {},
): Promise<{ runs: SyncRunView[]; nextCursor?: string }> {
  const limit = Math.min(Math.max(1, Math.trunc(opts.limit ?? SYNC_RUNS_DEFAULT_LIMIT)), SYNC_RUNS_MAX_LIMIT);
  let where: Prisma.SyncRunWhereInput = {};
  if (opts.cursor) {
    const { sortKey, id } = decodeCursor(opts.cursor);
    const at = new Date(Number(sortKey));
    if (!/^\d{1,15}$/.test(sortKey) || !UUID_PATTERN.test(id)) throw invalidCursor();
    where = { OR: [{ startedAt: { lt: at } }, { startedAt: at, id: { lt: id } }] };
  }
  const rows = await db.syncRun.findMany({ where, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    runs: page.map(toSyncRunView),
    ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.startedAt.getTime(), last.id) } : {}),
  };
}


/** One run, or null (also for an id that is not a UUID). */
export async function getSyncRun(db: PrismaClient, id: string): Promise<SyncRunView | null> {
  if (!UUID_PATTERN.test(id)) return null;
  const row = await db.syncRun.findUnique({ where: { id } });
  return row ? toSyncRunView(row) : null;
}
