// Temporary: profile a route under load.
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { DEV_ISSUER, signSessionToken } from "../lib/auth/sign";
import { freePort } from "../lib/ports";
const DB_URL = "postgresql://postgres@127.0.0.1:5432/fan_bench";
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
const port = await freePort();
const which = process.argv[2]!;
const server = spawn(process.execPath, ["--cpu-prof", "--cpu-prof-dir=/tmp/cpuprof", "node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
  env: { ...process.env, NODE_ENV: "production", DATABASE_URL: DB_URL, REDIS_URL: "redis://127.0.0.1:6379", CLERK_JWT_KEY: publicKey, CLERK_ISSUER: DEV_ISSUER, CLERK_SECRET_KEY: "sk_test_x", CLERK_AUTHORIZED_PARTIES: "https://app.example.com", MOBILE_STATE_SECRET: "a".repeat(64), RATE_LIMIT_PREFIX: `prof:${Date.now()}`, RATE_LIMIT_OVERRIDES: JSON.stringify({ user: { tokens: 1e8, window: "60 s" }, write: { tokens: 1e8, window: "60 s" } }) },
  stdio: ["ignore", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${port}`;
for (;;) { try { if ((await fetch(`${base}/api/health`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
const c = new pg.Client({ connectionString: DB_URL }); await c.connect();
await c.query("DELETE FROM arena_check_ins WHERE user_id IN (SELECT id FROM users WHERE external_id LIKE 'user_bench_w_%')");
await c.query("DELETE FROM rep_entries WHERE earn_kind = 'arena_check_in' AND user_id IN (SELECT id FROM users WHERE external_id LIKE 'user_bench_w_%')");
const { rows: teams } = await c.query("SELECT DISTINCT team_id FROM quests WHERE kind='check_in' ORDER BY 1"); await c.end();
const subs = Array.from({ length: 400 }, (_, i) => `user_bench_w_${i}`);
const auths = subs.map((s) => `Bearer ${signSessionToken(privateKey, s, { ttlSeconds: 3600 })}`);
let n = 0;
const opts = which === "dashboard"
  ? { url: `${base}/api/dashboard`, headers: { authorization: `Bearer ${signSessionToken(privateKey, "user_bench_dashboard", { ttlSeconds: 3600 })}` } }
  : { url: base, requests: [{ method: "POST" as const, setupRequest: (req: any) => { const i = n++; return { ...req, path: "/api/v1/engage/quests/arena-check-in", headers: { authorization: auths[i % 400], "content-type": "application/json" }, body: JSON.stringify({ teamId: teams[Math.floor(i / 400) % teams.length].team_id }) }; } }] };
await autocannon({ ...opts, connections: 16, duration: 3 } as any);
const r = await autocannon({ ...opts, connections: 16, duration: 15 } as any);
console.log(which, r.requests.average, "rps", r.non2xx, "non2xx");
server.kill("SIGINT");
await new Promise((r) => setTimeout(r, 3000));
process.exit(0);
