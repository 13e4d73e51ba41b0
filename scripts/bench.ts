// npm run bench: load-tests the production build on a seeded database and prints, per route,
// requests/s and p50/p99 latency, then the ratios the foundation issue sets as targets, the live stream's delivery
// the marketplace's buying under contention (BENCH_ONLY=contention for that alone) and 500 bidders closing one
// auction (BENCH_ONLY="500 bidders"), and 2,000 clients on one game's live stream while the provider posts 20 events
// a second (BENCH_ONLY=live-stream). BENCH_ONLY=surge runs only the matchday surge, on a fleet (scripts/bench/surge.ts).
// Options (env): BENCH_DURATION seconds per route (default 10), BENCH_CONNECTIONS (default 16), BENCH_ONLY (parts
// of route names, comma-separated: run only those, and GET /api/health), BENCH_TARGET_ROUNDS (default 3: how many
// times each route with a target is measured, in passes spread over the bench; its ratio is the median),
// BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/fan_bench), NEXT_DIST_DIR.
// BENCH_COMPARE_DIST_DIR: a second build (e.g. one made without middleware.ts); the bench then measures only
// GET /api/health, on both builds in alternating rounds (BENCH_ROUNDS, default 3; both servers up throughout),
// and prints NEXT_DIST_DIR's throughput and each server's CPU time per request (Linux /proc: a second view, less
// swayed than throughput by other processes competing for the cores) as shares of the other build's.
// The runner: the scenarios (scripts/bench/: reads, writes, leaderboard, streams, feed, marketplace, follows, predictions, contests,
// config, and over a million posts search and feeds) prepare their data, then their cases run in one list against one
// server and each scenario reports its own ratios.
import "./bench-env";
import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { signSessionToken } from "../lib/auth/sign";
import { CONNECTIONS, DURATION, measure, median, pad, pct, type Case, type Row } from "./bench/common";
import { compareBuilds } from "./bench/compare";
import { benchSurge } from "./bench/surge";
import { feedCases, prepareFeed, reportFeed } from "./bench/feed";
import { measureWebhookBurst, paymentCases, preparePayments } from "./bench/payments";
import { contestCases } from "./bench/contests";
import { configCases } from "./bench/config";
import { followsCases, prepareFollows } from "./bench/follows";
import { leaderboardCases, prepareBoard, reportLeaderboard } from "./bench/leaderboard";
import { marketCases, measureContention, prepareMarket, reportContention } from "./bench/marketplace";
import { AUCTION_CASE, measureAuctionClose, reportAuctionClose } from "./bench/auction";
import { LEDGER_ENTRIES, prepareDatabase, readCases, reportLedger } from "./bench/reads";
import { startServer } from "./bench/server";
import { measureStreams, reportStreams } from "./bench/streams";
import { LIVE_CASE, measureLiveStream, reportLiveStream } from "./bench/live";
import { prepareWriters, reportPools, writeCases } from "./bench/writes";
import { predictionCases, preparePredictions } from "./bench/predictions";
import { prepareMillionPosts } from "./bench/million-posts";
import { feedsCases, prepareFeeds } from "./bench/feeds";
import { prepareSearch, searchCases } from "./bench/search";

const distDir = process.env.NEXT_DIST_DIR ?? ".next";
if (!existsSync(`${distDir}/BUILD_ID`)) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}
const compareDir = process.env.BENCH_COMPARE_DIST_DIR;
const TARGET_ROUNDS = Math.max(1, Number(process.env.BENCH_TARGET_ROUNDS ?? 3));
if (compareDir && !existsSync(`${compareDir}/BUILD_ID`)) {
  console.error(`No production build in ${compareDir}: NEXT_DIST_DIR=${compareDir} npm run build first.`);
  process.exit(1);
}

// BENCH_ONLY=surge: the matchday surge on a fleet of its own (scripts/bench/surge.ts), nothing else.
if (process.env.BENCH_ONLY?.trim().toLowerCase() === "surge") {
  await benchSurge();
  process.exit(process.exitCode ?? 0);
}

const { deepCursor } = await prepareDatabase();
const writers = await prepareWriters();
await prepareBoard();
await prepareFeed();
await prepareMarket();
const relationships = await prepareFollows();
const payments = await preparePayments();
const predictors = await preparePredictions();
// The million locker-room posts the discovery benches (search, feeds) read: written once per database.
await prepareMillionPosts();
await prepareSearch();
await prepareFeeds();
const { publicKey, privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});
if (compareDir) await compareBuilds(distDir, compareDir, publicKey);

const { base, pid, stop } = await startServer(distDir, publicKey);

const cases: Case[] = [
  { name: "GET /api/health", load: () => ({ url: `${base}/api/health` }) },
  ...leaderboardCases(base, privateKey),
  ...feedCases(base, privateKey),
  ...marketCases(base, privateKey),
  ...readCases(base, privateKey, deepCursor),
  ...writeCases(base, privateKey, writers),
  ...followsCases(base, privateKey, relationships),
  ...paymentCases(base, payments),
  ...predictionCases(base, privateKey, predictors),
  ...contestCases(base, privateKey),
  ...configCases(base, privateKey),
  ...feedsCases(base, privateKey),
  ...searchCases(base, privateKey),
];
// BENCH_ONLY: comma-separated parts of route names; GET /api/health always runs, as every ratio needs it.
const only = process.env.BENCH_ONLY?.toLowerCase()
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const selected = cases.filter((c, i) => i === 0 || !only || only.some((o) => c.name.toLowerCase().includes(o)));

// GET /api/health runs again after each route with a target, and each route's ratio is to the mean of the health
// runs on either side of it: single runs of the same route drift by ±20% over a bench (load from other processes,
// the server's heap growing, a host whose cores slow down for minutes), and neighbours share most of that drift.
// Routes with a target are measured TARGET_ROUNDS times, in passes over all of them (so a slow spell of the machine
// falls on different routes' rounds), and each one's ratio is the median of its rounds'.
type Round = Row & { target: number; healthRps: number; ratio: number };
const rows: (Row & { target?: number; healthRps?: number; rounds?: Round[] })[] = [];
const healthRuns: Row[] = [];
let streams: Awaited<ReturnType<typeof measureStreams>> | null = null;
let contention: Awaited<ReturnType<typeof measureContention>> | null = null;
let burst: Awaited<ReturnType<typeof measureWebhookBurst>> | null = null;
let auctionClose: Awaited<ReturnType<typeof measureAuctionClose>> | null = null;
let live: Awaited<ReturnType<typeof measureLiveStream>> | null = null;
try {
  const [healthCase, ...rest] = selected;
  if (rest.some((c) => c.name.includes("Stripe webhook"))) burst = await measureWebhookBurst(base, privateKey, payments);
  healthRuns.push(await measure(healthCase!.name, pid, await healthCase!.load()));
  for (let pass = 1; pass <= TARGET_ROUNDS; pass++) {
    for (const c of rest) {
      if (pass > 1 && c.target === undefined) continue;
      const row = await measure(c.name, pid, await c.load());
      if (c.target === undefined) {
        rows.push(row);
        continue;
      }
      const before = healthRuns[healthRuns.length - 1]!;
      const after = await measure(healthCase!.name, pid, await healthCase!.load());
      healthRuns.push(after);
      const healthRps = (before.rps + after.rps) / 2;
      // Pass 1 holds the route's place in the table; its median round fills it below.
      if (pass === 1) rows.push({ ...row, rounds: [] });
      rows.find((r) => r.name === c.name)!.rounds!.push({ ...row, target: c.target, healthRps, ratio: row.rps / healthRps });
    }
  }
  // A targeted route's row is its median round (by ratio); errors are every round's.
  for (const [k, { rounds }] of rows.entries()) {
    if (!rounds) continue;
    const byRatio = [...rounds].sort((a, b) => a.ratio - b.ratio);
    rows[k] = { ...byRatio[(byRatio.length - 1) >> 1]!, errors: rounds.reduce((n, x) => n + x.errors, 0), rounds };
  }
  if (!only || only.some((o) => "stream".includes(o))) streams = await measureStreams(base, pid);
  if (!only || only.some((o) => "contention".includes(o))) {
    contention = await measureContention(base, (sub) => signSessionToken(privateKey, sub, { ttlSeconds: 3600 }));
  }
  if (!only || only.some((o) => AUCTION_CASE.toLowerCase().includes(o))) {
    auctionClose = await measureAuctionClose(base, (sub) => signSessionToken(privateKey, sub, { ttlSeconds: 3600 }));
  }
  if (!only || only.some((o) => LIVE_CASE.includes(o))) live = await measureLiveStream(base);
} finally {
  stop();
}
const healthRps = healthRuns.map((r) => r.rps);
rows.unshift({ ...healthRuns[0]!, name: `GET /api/health (×${healthRuns.length})`, rps: median(healthRps) });

console.log(`\nbench: ${DURATION}s per route, ${CONNECTIONS} connections, ${LEDGER_ENTRIES.toLocaleString()} ledger entries for one user\n`);
console.log(`${"route".padEnd(30)}${pad("req/s", 10)}${pad("p50 ms", 9)}${pad("p99 ms", 9)}${pad("CPU µs/req", 12)}${pad("PG µs/req", 11)}${pad("errors", 8)}`);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(30)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50, 9)}${pad(r.p99, 9)}${pad(r.cpuUs.toFixed(0), 12)}${pad(r.pgUs.toFixed(0), 11)}${pad(r.errors, 8)}`,
  );
}
console.log("(CPU µs/req: the server process's own CPU time per request; PG µs/req: PostgreSQL's, all its processes on this machine)");
console.log(`(GET /api/health: the median of ${healthRuns.length} runs, ${Math.min(...healthRps).toFixed(0)}–${Math.max(...healthRps).toFixed(0)} req/s)`);
console.log(
  `\ntargets (each route's throughput to the mean of the health runs just before and after it; the median of ${TARGET_ROUNDS} round${TARGET_ROUNDS > 1 ? "s" : ""}, the rounds in brackets):`,
);
for (const r of rows) {
  if (r.target === undefined || r.healthRps === undefined) continue;
  const ratio = r.rps / r.healthRps;
  const rounds = TARGET_ROUNDS > 1 ? ` [${(r.rounds ?? []).map((x) => pct(x.ratio)).join(", ")}]` : "";
  console.log(
    `  ${r.name}: ${pct(ratio)} of /api/health throughput${rounds} ${ratio >= r.target ? `(ok, target ≥ ${pct(r.target)})` : `(BELOW the ${pct(r.target)} target)`}`,
  );
}
reportPools(writers);
reportLedger(rows);
reportLeaderboard(rows);
reportFeed(rows);
if (streams) reportStreams(streams);
if (contention) reportContention(contention);
if (auctionClose) reportAuctionClose(auctionClose, median(healthRps));
if (live) reportLiveStream(live);
if (burst) {
  const ok = burst.creditedOnce === burst.events && burst.failed === 0;
  console.log(
    `  Stripe webhook burst: ${burst.deliveries} deliveries of ${burst.events} events at once with the buyers' reads: ${burst.creditedOnce} of ${burst.events} purchases credited exactly once, ${burst.failed} 5xx ${ok ? "(ok)" : "(BROKEN)"}`,
  );
  if (!ok) process.exitCode = 1;
}
if (rows.some((r) => r.errors > 0)) {
  console.log("errors were recorded: the figures above are not valid");
  process.exitCode = 1;
}
// Redis and pool connections the lib modules opened would keep the process alive.
process.exit(process.exitCode ?? 0);
