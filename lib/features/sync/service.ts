import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import { forgetStandings } from "../../core/leagues/service";
import { forgetTeamDetails } from "../../core/teams/service";
import { forgetNextGames } from "../games/service";
import { applyFeed, DryRunRollback } from "./engine";
import { parseFeed } from "./payload";
import { toSyncRunView } from "./queries";
import { deleteOldDeliveries, insertDelivery, lockSync } from "./writes";
import { defaultProvider, type FeedProvider } from "./provider";
import { SYNC_ENTITIES, type SyncCounts, type SyncRunView, type SyncScope, type SyncSummary, type SyncTrigger } from "./types";
import { recordAudit, type StaffActor } from "../../core/audit/service";

// League/team sync, as the routes and the staff console call it. One run = one SyncRun row (written outside the data
// transaction, so a failure is recorded) + one data transaction that holds a transaction-scoped advisory lock, so
// runs never interleave: a second run waits for the first, then sees its result.

export type { SyncChange, SyncCounts, SyncEntity, SyncRunView, SyncScope, SyncSummary, SyncTrigger } from "./types";
export { MAX_CHANGES, SYNC_ENTITIES } from "./types";
export type { FeedProvider } from "./provider";

export interface RunSyncOptions {
  scope: SyncScope;
  trigger: SyncTrigger;
  /** The staff member who started it (trigger admin): the run records their id and the start is audited. */
  actor?: StaffActor | null;
  provider?: FeedProvider;
  /** Compute the changes, then roll them back; the run is recorded with summary.dryRun = true. */
  dryRun?: boolean;
}

const MAX_ERROR = 2_000;
// Long enough for a large feed plus waiting for a run in progress to finish.
const TX_TIMEOUT_MS = 120_000;

function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Prisma prefixes messages with the calling code location; keep the part after it.
  const lines = message
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const text = lines.length > 1 && /invocation/.test(lines[0]!) ? lines.slice(1).join(" ") : lines.join(" ");
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text || "Unknown error";
}

/** Runs one sync and answers its run record (status succeeded or failed; it never throws for a failed run). */
export async function runSync(db: PrismaClient, opts: RunSyncOptions): Promise<SyncRunView> {
  const actor = opts.actor ?? null;
  // A staff run is audited when it starts, with the run record (the data transaction comes later and may fail).
  const run = await db.$transaction(async (tx) => {
    const created = await tx.syncRun.create({ data: { scope: opts.scope, trigger: opts.trigger, actor: actor?.id ?? null, status: "running" } });
    if (actor) {
      await recordAudit(tx, actor, {
        action: "sync.run",
        targetType: "sync_run",
        targetId: created.id,
        after: { scope: opts.scope, dryRun: opts.dryRun === true },
      });
    }
    return created;
  });
  let summary: SyncSummary;
  try {
    const provider = opts.provider ?? defaultProvider();
    const feed = parseFeed(await provider.fetchFeed());
    try {
      summary = await db.$transaction(
        async (tx) => {
          await lockSync(tx);
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
    forgetNextGames();
  }
  const done = await db.syncRun.update({
    where: { id: run.id },
    data: { status: "succeeded", summary: summary as unknown as Prisma.InputJsonValue, finishedAt: new Date() },
  });
  return toSyncRunView(done);
}

const totalOf = (c: SyncCounts) => c.created + c.updated + c.archived + c.unchanged;

// The sync webhook's delivery bookkeeping (the signature is checked by the pipeline: route auth "webhook").

export const WEBHOOK_BODY_LIMIT = 64 * 1024;
export const WEBHOOK_SOURCE = "leagues-sync";

/**
 * Claims a delivery id once (INSERT … ON CONFLICT DO NOTHING): true the first time, false for a replay. Claims older
 * than a day are dropped on the way: their timestamps are long outside the window, so they can no longer verify.
 */
export async function claimDelivery(db: PrismaClient, id: string): Promise<boolean> {
  await deleteOldDeliveries(db, WEBHOOK_SOURCE);
  return insertDelivery(db, WEBHOOK_SOURCE, id);
}
