import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { DEV_ISSUER } from "../../lib/auth/sign";
import { ensureDatabase, migrate } from "../../lib/db/migrate";

// A world for one test run: its own PostgreSQL database (migrated, seeded when asked), a fresh RSA key pair,
// the fixtures of tests/setup/server-env, and `next start` of the production build on a free port.
// Used by both test projects (api: tests/setup/global.ts, e2e: tests/e2e/setup.ts).

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const SERVER_ENV = path.join(import.meta.dirname, "server-env");

export interface Fixture {
  /** Environment for the server under test. */
  env: Record<string, string>;
  /** Values tests can read with inject("fixtures")[name]. */
  provided?: Record<string, string>;
  teardown?: () => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
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
  const all = readdirSync(SERVER_ENV).filter((f) => f.endsWith(".ts")).map((f) => f.replace(/\.ts$/, "")).sort();
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
  label: string;
}

export async function startTestServer(o: TestServerOptions) {
  if (!existsSync(`${process.env.NEXT_DIST_DIR ?? ".next"}/BUILD_ID`)) throw new Error("No production build: run `npm run build` first (npm test does).");
  const run = randomBytes(4).toString("hex");
  const dbName = `${o.dbPrefix}_${run}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  await migrate(databaseUrl);
  if (o.seed) {
    const { createDb } = await import("../../lib/db/client");
    const { seed } = await import("../../lib/db/seed");
    const seedDb = createDb(databaseUrl, 2);
    await seed(seedDb);
    await seedDb.$disconnect();
  }

  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const fixtures = await loadFixtures(run, o.fixtures);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let logs = "";
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      CLERK_JWT_KEY: publicKey,
      CLERK_ISSUER: DEV_ISSUER, // the tests' tokens are signed like the development ones
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      CLERK_TELEMETRY_DISABLED: "1",
      ...o.env({ run }),
      ...fixtures.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (logs += d));
  server.stderr!.on("data", (d) => (logs += d));
  await waitForHealth(baseUrl, server, () => logs);

  return {
    run,
    baseUrl,
    databaseUrl,
    publicKey,
    privateKey,
    provided: fixtures.provided,
    async stop() {
      server.kill("SIGTERM");
      for (const stop of fixtures.teardown) await stop();
      await new Promise((r) => setTimeout(r, 300));
      if (process.env.TEST_SERVER_LOG) console.log(logs);
      const reported = logs.split("\n").filter(o.reportLine);
      if (reported.length) console.error(`${o.label} logged ${reported.length} error(s):\n${reported.slice(0, 5).join("\n")}`);
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await client.end();
    },
  };
}
