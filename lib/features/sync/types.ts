// Shapes of sync runs as the service answers them (re-exported by ./service).

export type SyncScope = "leagues" | "teams" | "all";
export type SyncTrigger = "admin" | "webhook" | "cron";
export type SyncEntity = "leagues" | "conferences" | "divisions" | "teams" | "players" | "games";
export const SYNC_ENTITIES: readonly SyncEntity[] = ["leagues", "conferences", "divisions", "teams", "players", "games"];

export interface SyncCounts {
  created: number;
  updated: number;
  archived: number;
  unchanged: number;
}

export interface SyncChange {
  entity: SyncEntity;
  /** Row id in this database. */
  id: string;
  change: "created" | "updated" | "archived" | "restored";
  /** Fields that changed (updated / restored). */
  fields?: string[];
}

/** Max entries kept in `summary.changes`; `changesTruncated` says when more happened. */
export const MAX_CHANGES = 200;

export type SyncSummary = Record<SyncEntity, SyncCounts> & {
  changes: SyncChange[];
  changesTruncated?: boolean;
  /** True when the run computed its changes and rolled them back (nothing was written). */
  dryRun?: boolean;
};

export interface SyncRunView {
  id: string;
  scope: SyncScope;
  trigger: SyncTrigger;
  actor: string | null;
  status: "running" | "succeeded" | "failed";
  startedAt: string;
  finishedAt: string | null;
  summary: SyncSummary | null;
  error: string | null;
}
