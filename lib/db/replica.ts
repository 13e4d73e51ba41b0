import type pg from "pg";
import { env, REPLICA_LAG_CHECK_MS, replicaUrls } from "../env";
import { log } from "../kernel/log";
import { wroteRecently } from "../redis/recent-writers";
import { within } from "../time";
import { createReplica, db as primary, pool as primaryPool, type Db } from "./client";
import { registerReplicaDirect, type RawDb } from "./raw";
import { isTransactionConflict } from "./tx";
import { isDatabaseUnavailable } from "./unavailable";

// Read replicas (docs/decisions/0072-read-replicas.md). One explicit read path: a read that tolerates lag asks for it
// by name, `readMayLag(viewerId, (db) => …)`; nothing is routed by its SQL. Such a read goes to a replica (in turn,
// when DATABASE_REPLICA_URL names several) unless
// - no replica is configured (then it is exactly the primary read it was: no check, no Redis call);
// - the viewer wrote within REPLICA_READ_YOUR_WRITES_MS (lib/redis/recent-writers.ts): read-your-writes;
// - no replica is fresh: each one's lag is measured at most once per REPLICA_LAG_CHECK_MS per process, and one more
//   than REPLICA_MAX_LAG_MS behind, or not answering, is left out until a check finds it fresh again. Each change of a
//   replica's state is one log line.
// A read the replica fails for its own reasons (gone mid-read, a query cancelled by a recovery conflict) runs again on
// the primary: reads have no effects. Writes on a replica's client fail (a hot standby is read-only).

export type ReplicaStatus = "ok" | "lagging" | "down";

export interface ReplicaHealth {
  status: ReplicaStatus;
  /** How far behind, in time: 0 when it had replayed all the primary had written when checked; null when unknown. */
  lagMs: number | null;
  /** How far behind, in WAL bytes (the primary's write position minus the replica's replay position); null when down. */
  lagBytes: number | null;
  checkedAt: string;
}

/** A check's outcome: the health, and why the replica is down. */
type Checked = ReplicaHealth & { error?: string };

/** A lag check gives up after this long: the replica counts as down. */
const LAG_CHECK_TIMEOUT_MS = 1_000;

interface Replica {
  label: string;
  pool: pg.Pool;
  db: Db;
  direct: RawDb;
  health?: ReplicaHealth;
  checkedAt: number;
  checking?: Promise<void>;
}

// One set of pools per process (Next dev reloads modules, so on globalThis), made on the first read that may lag.
const g = globalThis as unknown as { __replicas?: Replica[] };
let registered = false;
let turn = 0;

function replicas(): Replica[] {
  g.__replicas ??= replicaUrls().map((url, i) => {
    const { pool, db, direct } = createReplica(url);
    return { label: `replica ${i + 1} (${new URL(url).host})`, pool, db, direct, checkedAt: 0 };
  });
  // Each bundle has its own copy of lib/db/raw.ts: register the replicas' direct paths in this one.
  if (!registered) {
    for (const r of g.__replicas) registerReplicaDirect(r.db, r.direct);
    registered = true;
  }
  return g.__replicas;
}

/** Replay position against the primary's write position `lsn`, in bytes, and in time when behind (see ReplicaHealth). */
const LAG_SQL = `SELECT pg_is_in_recovery() AS standby,
  ($1::pg_lsn - pg_last_wal_replay_lsn())::float8 AS bytes,
  CASE WHEN pg_last_wal_replay_lsn() >= $1::pg_lsn THEN 0
       ELSE (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::float8 END AS ms`;

/**
 * Measures the replica's lag: the primary's WAL write position, then how far the replica's replay is from it. When
 * behind, the lag in time is the age of the last transaction it replayed (an upper bound: everything newer is missing).
 */
async function measure(r: Replica): Promise<Checked> {
  const checkedAt = new Date().toISOString();
  try {
    const probe = async () => {
      const { rows: p } = await primaryPool.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
      const { rows } = await r.pool.query<{ standby: boolean; bytes: number | null; ms: number | null }>(LAG_SQL, [p[0]!.lsn]);
      return rows[0]!;
    };
    const row = await within(probe(), LAG_CHECK_TIMEOUT_MS, () => new Error(`no answer within ${LAG_CHECK_TIMEOUT_MS} ms`));
    // Not in recovery (promoted, or the primary itself): nothing to replay.
    if (!row.standby) return { status: "ok", lagMs: 0, lagBytes: 0, checkedAt };
    const lagBytes = Math.max(0, Math.round(row.bytes ?? 0));
    const lagMs = row.ms === null ? null : Math.max(0, Math.round(row.ms));
    const fresh = lagMs !== null && lagMs <= env().REPLICA_MAX_LAG_MS;
    return { status: fresh ? "ok" : "lagging", lagMs, lagBytes, checkedAt };
  } catch (error) {
    return { status: "down", lagMs: null, lagBytes: null, checkedAt, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Records a replica's new health, with one log line when its state changed. */
function update(r: Replica, health: Checked): void {
  const before = r.health?.status;
  const { error, ...shown } = health;
  r.health = shown;
  r.checkedAt = Date.now();
  if (before === health.status) return;
  const reads = health.status === "ok" ? "reads that may lag go to it" : "reads that may lag go to the primary";
  log(health.status === "ok" ? "info" : "warn", {
    msg: `read replica ${health.status}: ${reads}`,
    replica: r.label,
    lagMs: health.lagMs,
    lagBytes: health.lagBytes,
    maxLagMs: env().REPLICA_MAX_LAG_MS,
    ...(error ? { error } : {}),
  });
}

/** Starts a lag check when the last one is older than REPLICA_LAG_CHECK_MS (one at a time); its promise, else none. */
function refresh(r: Replica): Promise<void> | undefined {
  if (r.checking) return r.checking;
  if (Date.now() - r.checkedAt < REPLICA_LAG_CHECK_MS) return undefined;
  r.checking = measure(r)
    .then((health) => update(r, health))
    .finally(() => (r.checking = undefined));
  return r.checking;
}

/** A fresh replica, in turn; null when none is. A replica's first check is waited for, later ones run behind the reads. */
async function freshReplica(): Promise<Replica | null> {
  const all = replicas();
  await Promise.all(all.map((r) => (r.health ? void refresh(r) : refresh(r))));
  const fresh = all.filter((r) => r.health?.status === "ok");
  return fresh.length ? fresh[turn++ % fresh.length]! : null;
}

/**
 * The one read path for reads that tolerate lag (search, the for-you ranking, market data, the console's rollups and
 * charts, exports; leaderboard rebuilds use readCaughtUp below): `read` gets a client on a fresh replica, or the primary's (see above). Pass
 * the fan reading (their user id) where there is one, so that their own recent writes are seen; null for staff,
 * crons and anonymous callers. Only reads: never a write, nor a read a write in the same transaction depends on.
 * `read` learns whether it runs on a replica (a read that also stores may then split its work). `on` is the primary: the app's client unless a caller (a script, a test) passes its own, which is then read as is.
 */
export async function readMayLag<T>(viewerId: string | null, read: (db: Db, replica: boolean) => Promise<T>, on: Db = primary): Promise<T> {
  // A script's or a test's own client (`on`) is read as given: replicas stand behind the app's client only.
  if (on !== primary || replicaUrls().length === 0) return read(on, false);
  const [wrote, replica] = await Promise.all([viewerId === null ? false : wroteRecently(viewerId), freshReplica()]);
  if (wrote || !replica) return read(primary, false);
  return readOn(replica, read);
}

/** How long readCaughtUp waits for a replica to replay up to the primary's position before reading the primary. */
const CATCH_UP_MS = 2_000;

/**
 * A heavy read that must see every write committed before it starts (a leaderboard rebuild: what it writes replaces
 * the boards), on a replica once it has replayed up to the primary's WAL position taken now (waited for up to
 * CATCH_UP_MS), else on the primary. As fresh as a read on the primary at its start, without the primary's load.
 */
export async function readCaughtUp<T>(read: (db: Db, replica: boolean) => Promise<T>, on: Db = primary): Promise<T> {
  if (on !== primary || replicaUrls().length === 0) return read(on, false);
  const replica = await freshReplica();
  if (!replica) return read(primary, false);
  const { rows } = await primaryPool.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
  for (const deadline = Date.now() + CATCH_UP_MS; ; await new Promise((r) => setTimeout(r, 20))) {
    const replayed = await replica.pool.query<{ ok: boolean }>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok", [rows[0]!.lsn]).then(
      (r) => r.rows[0]!.ok,
      () => false,
    );
    if (replayed) return readOn(replica, read);
    if (Date.now() > deadline) return read(primary, false);
  }
}

/** `read` on `replica`; on the primary when the replica fails it for its own reasons. */
async function readOn<T>(replica: Replica, read: (db: Db, replica: boolean) => Promise<T>): Promise<T> {
  try {
    return await read(replica.db, true);
  } catch (error) {
    // The replica went away, or cancelled the read for a conflict with the WAL it replays: the primary answers.
    if (!isDatabaseUnavailable(error) && !isTransactionConflict(error)) throw error;
    if (isDatabaseUnavailable(error))
      update(replica, { status: "down", lagMs: null, lagBytes: null, checkedAt: new Date().toISOString(), error: String(error) });
    return read(primary, false);
  }
}

/** Whether reads that may lag can go to a replica at all (DATABASE_REPLICA_URL is set). */
export const replicasConfigured = () => replicaUrls().length > 0;

/**
 * The replicas' state for readiness and the console: each one checked now unless checked within
 * REPLICA_LAG_CHECK_MS. `status` is the worst of them (`none` without replicas), `lagMs` the largest known lag.
 */
export async function replicaHealth(): Promise<{ status: ReplicaStatus | "none"; lagMs: number | null; replicas: ReplicaHealth[] }> {
  if (!replicasConfigured()) return { status: "none", lagMs: null, replicas: [] };
  const all = replicas();
  await Promise.all(all.map(refresh));
  const states = all.map((r) => r.health!);
  const worst = (["down", "lagging", "ok"] as const).find((s) => states.some((h) => h.status === s))!;
  const lags = states.map((h) => h.lagMs).filter((l): l is number => l !== null);
  return { status: worst, lagMs: lags.length ? Math.max(...lags) : null, replicas: states };
}
