import { spawn, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { execFileSync } from "node:child_process";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { ensureDatabase, migrate } from "../../lib/db/migrate";
import type { Fixture } from "../setup/global";

// The staff console's browser tests get their own world: a migrated but empty database (so the first sync
// creates rows), a fresh RSA key pair, the Clerk Backend API stand-in, the sync feed fixture when there is one,
// and `next start` of the production build on a free port. Chromium is Debian's (no browser download).

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const SERVER_ENV = path.join(import.meta.dirname, "..", "setup", "server-env");

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

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim().split("\n")[0]!;
  } catch {
    throw new Error("No chromium on PATH: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.");
  }
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

/** The stand-ins the console needs: the identity provider, and the sync feed fixture once it exists. */
async function loadFixtures(run: string) {
  const env: Record<string, string> = {};
  const provided: Record<string, Record<string, string>> = {};
  const teardown: (() => Promise<void>)[] = [];
  for (const name of ["clerk", "sync"]) {
    const file = path.join(SERVER_ENV, `${name}.ts`);
    if (!existsSync(file)) continue;
    const mod = (await import(file)) as { default: (c: { run: string }) => Promise<Fixture> };
    const fixture = await mod.default({ run });
    Object.assign(env, fixture.env);
    provided[name] = fixture.provided ?? {};
    if (fixture.teardown) teardown.push(fixture.teardown);
  }
  return { env, provided, teardown };
}

export default async function setup(project: TestProject) {
  if (!existsSync(`${process.env.NEXT_DIST_DIR ?? ".next"}/BUILD_ID`)) throw new Error("No production build: run `npm run build` first (npm test does).");
  const chromium = chromiumPath();
  const run = randomBytes(4).toString("hex");
  const dbName = `fan_e2e_${run}`;
  const admin = new URL(ADMIN_URL);
  admin.pathname = `/${dbName}`;
  const databaseUrl = admin.toString();
  await ensureDatabase(databaseUrl);
  await migrate(databaseUrl);

  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const fixtures = await loadFixtures(run);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let logs = "";
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      DB_POOL_SIZE: "5",
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      RATE_LIMIT_PREFIX: `e2e:${run}`,
      RATE_LIMIT_OVERRIDES: JSON.stringify({ public: { tokens: 100_000, window: "60 s" }, write: { tokens: 100_000, window: "60 s" } }),
      CLERK_JWT_KEY: publicKey,
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
  project.provide("fixtures", fixtures.provided);
  project.provide("chromiumPath", chromium);

  return async () => {
    server.kill("SIGTERM");
    for (const stop of fixtures.teardown) await stop();
    await new Promise((r) => setTimeout(r, 300));
    if (process.env.TEST_SERVER_LOG) console.log(logs);
    const unexpected = logs.split("\n").filter((l) => l.includes('"unhandled error"') || l.includes('"level":"error"'));
    if (unexpected.length) console.error(`e2e server logged ${unexpected.length} error(s):\n${unexpected.slice(0, 5).join("\n")}`);
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await client.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Debian's chromium binary the e2e tests drive with playwright-core. */
    chromiumPath: string;
  }
}
