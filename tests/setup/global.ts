import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import net from "node:net";
import type { TestProject } from "vitest/node";
import pg from "pg";
import { ensureDatabase, migrate } from "../../lib/db/migrate";

// One PostgreSQL database per run (migrated and seeded), the local Redis with a per-run key prefix, a fresh
// RSA key pair, and `next start` of the production build on a free port.

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

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
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`next start did not become healthy:\n${output()}`);
}

export interface Fixture {
  /** Environment for the server under test. */
  env: Record<string, string>;
  /** Values tests can read with inject("fixtures")[name]. */
  provided?: Record<string, string>;
  teardown?: () => Promise<void>;
}

async function loadFixtures(ctx: { run: string }) {
  const dir = path.join(import.meta.dirname, "server-env");
  const env: Record<string, string> = {};
  const provided: Record<string, Record<string, string>> = {};
  const teardown: (() => Promise<void>)[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()) {
    const mod = (await import(path.join(dir, file))) as { default: (c: { run: string }) => Promise<Fixture> };
    const fixture = await mod.default(ctx);
    Object.assign(env, fixture.env);
    provided[file.replace(/\.ts$/, "")] = fixture.provided ?? {};
    if (fixture.teardown) teardown.push(fixture.teardown);
  }
  return { env, provided, teardown };
}

export default async function setup(project: TestProject) {
  if (!existsSync(`${process.env.NEXT_DIST_DIR ?? ".next"}/BUILD_ID`)) throw new Error("No production build: run `npm run build` first (npm test does).");
  const run = randomBytes(4).toString("hex");
  const dbName = `fan_test_${run}`;
  const admin = new URL(ADMIN_URL);
  admin.pathname = `/${dbName}`;
  const databaseUrl = admin.toString();
  await ensureDatabase(databaseUrl);
  await migrate(databaseUrl);
  const { createDb } = await import("../../lib/db/client");
  const { seed } = await import("../../lib/db/seed");
  const seedDb = createDb(databaseUrl, 2);
  await seed(seedDb);
  await seedDb.$disconnect();

  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  // Fixtures in tests/setup/server-env/*.ts add server environment (and may start local stand-ins).
  const fixtures = await loadFixtures({ run });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const redisPrefix = `test:${run}`;
  let logs = "";
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      DB_POOL_SIZE: "10",
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      RATE_LIMIT_PREFIX: redisPrefix,
      // Generous limits so concurrency tests measure the rules, tight public limit to test 429s.
      RATE_LIMIT_OVERRIDES: JSON.stringify({
        write: { tokens: 100_000, window: "60 s" },
        earn: { tokens: 100_000, window: "60 s" },
        public: { tokens: 5, window: "60 s" },
      }),
      CLERK_JWT_KEY: publicKey,
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com,https://admin.example.com",
      VALIDATE_RESPONSES: "1",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      CLERK_TELEMETRY_DISABLED: "1",
      ...fixtures.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (logs += d));
  server.stderr!.on("data", (d) => (logs += d));
  await waitForHealth(baseUrl, server, () => logs);

  project.provide("baseUrl", baseUrl);
  project.provide("databaseUrl", databaseUrl);
  project.provide("privateKey", privateKey);
  project.provide("publicKey", publicKey);
  project.provide("redisPrefix", redisPrefix);
  project.provide("fixtures", fixtures.provided);

  return async () => {
    server.kill("SIGTERM");
    for (const stop of fixtures.teardown) await stop();
    await new Promise((r) => setTimeout(r, 300));
    if (process.env.TEST_SERVER_LOG) console.log(logs);
    const unexpected = logs.split("\n").filter((l) => l.includes('"unhandled error"'));
    if (unexpected.length) console.error(`server logged ${unexpected.length} unhandled error(s):\n${unexpected.slice(0, 5).join("\n")}`);
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await client.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    privateKey: string;
    publicKey: string;
    redisPrefix: string;
    /** Values fixtures hand to tests (e.g. a stand-in's URL), by fixture file name. */
    fixtures: Record<string, Record<string, string>>;
  }
}
