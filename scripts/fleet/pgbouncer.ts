import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, portAnswers } from "../../lib/ports";

// PgBouncer (Debian's `pgbouncer` package) in transaction mode, its pooling settings left at their defaults
// (default_pool_size 20 server connections per database and user, max_client_conn 100), in front of a PostgreSQL: as a
// Vercel deployment reaches a pooled database (docs/decisions/0071-transaction-pooler-ready.md). Used by the test
// server (TEST_DATABASE_POOLER=pgbouncer) and the fleet (scripts/fleet/fleet.ts).

const BINARY = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((p) => existsSync(p));

export interface Pgbouncer {
  /** A pooled URL for one of the server's databases. */
  url(database: string): string;
  /** Server connections PgBouncer holds to `database` now (SHOW POOLS: active, idle, used, tested, login). */
  serverConnections(database: string): Promise<number>;
  stop(): Promise<void>;
}

/** Server connections a PgBouncer holds to `database` now, asked on its admin console (`adminConsoleUrl`: database pgbouncer). */
export async function serverConnections(adminConsoleUrl: string, database: string): Promise<number> {
  // The admin console speaks only the simple query protocol: a query without parameters.
  const client = new pg.Client({ connectionString: adminConsoleUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>("SHOW POOLS");
    const counted = ["sv_active", "sv_idle", "sv_used", "sv_tested", "sv_login"];
    return rows.filter((r) => r.database === database).reduce((n, r) => n + counted.reduce((s, c) => s + Number(r[c] ?? 0), 0), 0);
  } finally {
    await client.end();
  }
}

/** Starts PgBouncer for the PostgreSQL that `adminUrl` names. */
export async function startPgbouncer(adminUrl: string): Promise<Pgbouncer> {
  if (!BINARY) throw new Error("PgBouncer is not installed (apt-get install pgbouncer)");
  const target = new URL(adminUrl);
  const user = decodeURIComponent(target.username || "postgres");
  const dir = mkdtempSync(path.join(os.tmpdir(), "fan-pgbouncer-"));
  chmodSync(dir, 0o777); // as root PgBouncer runs as the user postgres (-u), which writes its log and pid file here
  const port = await freePort();
  writeFileSync(path.join(dir, "users.txt"), `"${user}" "${decodeURIComponent(target.password)}"\n`);
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${target.hostname} port=${target.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      `auth_type = ${target.password ? "plain" : "trust"}`,
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      // The admin console (SHOW POOLS) for serverConnections; not a pooling setting.
      `admin_users = ${user}`,
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  for (const file of ["users.txt", "pgbouncer.ini"]) chmodSync(path.join(dir, file), 0o644);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(BINARY, [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], { stdio: "ignore" });
  for (let i = 0; i < 100 && !(await portAnswers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  if (!(await portAnswers(port))) {
    child.kill("SIGKILL");
    const log = existsSync(path.join(dir, "pgbouncer.log")) ? readFileSync(path.join(dir, "pgbouncer.log"), "utf8") : "";
    throw new Error(`PgBouncer did not start on port ${port}: ${log.slice(-500)}`);
  }
  const url = (database: string) => {
    const u = new URL(adminUrl);
    u.port = String(port);
    u.pathname = `/${database}`;
    return u.toString();
  };
  return {
    url,
    serverConnections: (database) => serverConnections(url("pgbouncer"), database),
    async stop() {
      child.kill("SIGINT");
      await new Promise((r) => setTimeout(r, 200));
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
