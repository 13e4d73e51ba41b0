// npm run bench: load-tests the production build on a seeded database and prints, per route,
// requests/s and p50/p99 latency, then the ratios the foundation issue sets as targets.
// Options (env): BENCH_DURATION seconds per route (default 10), BENCH_CONNECTIONS (default 16),
// BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/fan_bench), NEXT_DIST_DIR.
import { spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import net from "node:net";
import autocannon from "autocannon";
import pg from "pg";
import { DEV_ISSUER, signSessionToken } from "../lib/auth/sign";
import { createDb } from "../lib/db/client";
import { ensureDatabase, migrate } from "../lib/db/migrate";
import { seed } from "../lib/db/seed";
import { encodeCursor } from "../lib/http/cursor";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/fan_bench";
const LEDGER_ENTRIES = 1_000_000;
const PAGE = 20;
const DEEP_PAGE = 5_000;
const SUB = "user_bench_ledger";

const distDir = process.env.NEXT_DIST_DIR ?? ".next";
if (!existsSync(`${distDir}/BUILD_ID`)) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}

async function prepareDatabase(): Promise<{ userId: string; deepCursor: string }> {
  await ensureDatabase(DB_URL);
  await migrate(DB_URL);
  const db = createDb(DB_URL, 2);
  await seed(db);
  await db.user.createMany({ data: [{ externalId: SUB }], skipDuplicates: true });
  const { id: userId } = await db.user.findUniqueOrThrow({ where: { externalId: SUB } });
  await db.$disconnect();

  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM rep_entries WHERE user_id = $1", [userId]);
  if (Number(rows[0]!.n) < LEDGER_ENTRIES) {
    console.log(`bench: writing ${LEDGER_ENTRIES.toLocaleString()} ledger entries (once per database)…`);
    await client.query("DELETE FROM rep_entries WHERE user_id = $1", [userId]);
    // One entry a second going back in time, with every 10th pair sharing a timestamp to exercise the id tie-break.
    await client.query(
      `INSERT INTO rep_entries (id, user_id, source, amount, reason, earn_kind, grant_key, created_at)
       SELECT gen_random_uuid(), $1, (ARRAY['fanAmp','club','playerAmp','serviceDirect']::"RepSource"[])[1 + i % 4],
              1 + i % 25, 'Bench entry ' || i, 'bench', 'bench:' || i,
              timestamptz '2026-11-01' - make_interval(secs => i - (i % 10 = 1)::int)
       FROM generate_series(1, $2::int) AS i`,
      [userId, LEDGER_ENTRIES],
    );
    await client.query("ANALYZE rep_entries");
  }
  for (const teamId of ["tm_hch", "tm_gfg", "tm_lsl", "tm_rvr", "tm_fpb", "prov_unsynced_1"]) {
    await client.query(
      "INSERT INTO starred_teams (user_id, team_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
      [userId, teamId, teamId],
    );
  }
  const deep = await client.query<{ id: string; created_at: Date }>(
    `SELECT id::text AS id, created_at FROM rep_entries WHERE user_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [userId, DEEP_PAGE * PAGE - 1],
  );
  await client.end();
  const row = deep.rows[0]!;
  return { userId, deepCursor: encodeCursor(row.created_at.getTime(), row.id) };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<Row> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

const { deepCursor } = await prepareDatabase();
const { publicKey, privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});
// What a production server insists on; the bench never calls the identity provider.
const PRODUCTION_SETTINGS = {
  CLERK_SECRET_KEY: "sk_test_bench_unused",
  CLERK_ISSUER: DEV_ISSUER,
  CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
  MOBILE_STATE_SECRET: randomBytes(32).toString("hex"),
};
const port = await freePort();
const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
  env: { ...process.env, NODE_ENV: "production", DATABASE_URL: DB_URL, CLERK_JWT_KEY: publicKey, ...PRODUCTION_SETTINGS, NEXT_TELEMETRY_DISABLED: "1", RATE_LIMIT_PREFIX: `bench:${Date.now()}` },
  stdio: ["ignore", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    if (i > 300) throw new Error("server did not start");
  }
  await new Promise((r) => setTimeout(r, 200));
}

const auth = { authorization: `Bearer ${signSessionToken(privateKey, SUB, { ttlSeconds: 3600 })}` };
const rows: Row[] = [];
try {
  rows.push(await load("GET /api/health", `${base}/api/health`, {}));
  rows.push(await load("GET /api/teams/{id}", `${base}/api/teams/tm_hch`, {}));
  rows.push(await load("GET /api/me/starred-teams", `${base}/api/me/starred-teams`, auth));
  rows.push(await load("GET ledger (first page)", `${base}/api/v1/engage/rep/ledger?limit=${PAGE}`, auth));
  rows.push(await load(`GET ledger (page ${DEEP_PAGE})`, `${base}/api/v1/engage/rep/ledger?limit=${PAGE}&cursor=${deepCursor}`, auth));
} finally {
  server.kill("SIGTERM");
}

const pad = (s: string | number, n: number) => String(s).padStart(n);
console.log(`\nbench: ${DURATION}s per route, ${CONNECTIONS} connections, ${LEDGER_ENTRIES.toLocaleString()} ledger entries for one user\n`);
console.log(`${"route".padEnd(30)}${pad("req/s", 10)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("errors", 8)}`);
for (const r of rows) console.log(`${r.name.padEnd(30)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${pad(r.errors, 8)}`);
const health = rows[0]!;
const [teamRow, starsRow, firstRow, deepRow] = rows.slice(1) as [Row, Row, Row, Row];
const authReads = [starsRow, firstRow];
console.log("\ntargets:");
for (const r of [teamRow, ...authReads]) {
  const ratio = r.rps / health.rps;
  console.log(`  ${r.name}: ${(ratio * 100).toFixed(0)}% of /api/health throughput ${ratio >= 0.5 ? "(ok, target ≥ 50%)" : "(BELOW the 50% target)"}`);
}
const deepRatio = deepRow.p50 / Math.max(firstRow.p50, 0.001);
console.log(`  ledger page ${DEEP_PAGE} p50 / first page p50: ${deepRatio.toFixed(2)} ${deepRatio <= 1.2 ? "(ok, target ≤ 1.20)" : "(ABOVE the 1.20 target)"}`);
if (rows.some((r) => r.errors > 0)) {
  console.log("errors were recorded: the figures above are not valid");
  process.exitCode = 1;
}
