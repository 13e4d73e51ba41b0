import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, portAnswers } from "../../lib/ports";

// PgBouncer (Debian's `pgbouncer` package) in transaction mode, its other settings left at their defaults, in front of
// the run's PostgreSQL: TEST_DATABASE_POOLER=pgbouncer sends the server under test through it, as a Vercel deployment
// reaches a pooled database (docs/decisions/0071-transaction-pooler-ready.md).

const BINARY = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((p) => existsSync(p));

/** Starts PgBouncer for the PostgreSQL that `adminUrl` names; `url(database)` is a pooled URL for one of its databases. */
export async function startPgbouncer(adminUrl: string): Promise<{ url: (database: string) => string; stop: () => Promise<void> }> {
  if (!BINARY) throw new Error("TEST_DATABASE_POOLER=pgbouncer, but PgBouncer is not installed (apt-get install pgbouncer)");
  const target = new URL(adminUrl);
  const user = decodeURIComponent(target.username || "postgres");
  const dir = mkdtempSync(path.join(os.tmpdir(), "fan-test-pgbouncer-"));
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
  return {
    url(database) {
      const url = new URL(adminUrl);
      url.port = String(port);
      url.pathname = `/${database}`;
      return url.toString();
    },
    async stop() {
      child.kill("SIGINT");
      await new Promise((r) => setTimeout(r, 200));
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
