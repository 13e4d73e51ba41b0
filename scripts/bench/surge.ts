// BENCH_ONLY=surge: the matchday surge (scripts/fleet/surge.ts) on a fleet of its own (scripts/fleet/fleet.ts):
// SURGE_INSTANCES (default 4) `next start` behind HAProxy, PgBouncer in transaction mode in front of a primary with a
// streaming replica, the local Redis (SURGE_REDIS_CLUSTER=1: a three-master cluster). The scenario by default:
// 80,000 fans over 600 s with a 60 s burst at 667/s, 2,000 stream clients, 50 reads a second (SURGE_FANS,
// SURGE_SECONDS, SURGE_BURST_RATE, SURGE_BURST_SECONDS, SURGE_STREAMS, SURGE_READS). Reports the invariants, p50/p99
// per route, stream delivery, the pooler's server connections, replica lag, and CPU per check-in (instances and
// PostgreSQL: what sizes production where this 2-core machine cannot generate the load).
import { randomBytes } from "node:crypto";
import { startFleet } from "../fleet/fleet";
import { prepareSurge, runSurge, type SurgePlan } from "../fleet/surge";
import { signSessionToken } from "../../lib/auth/sign";
import { cpuSeconds, postgresCpuSeconds } from "./common";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const LIFTED = { tokens: 100_000_000, window: "60 s" };

export async function benchSurge(): Promise<void> {
  const plan: SurgePlan = {
    fans: num("SURGE_FANS", 80_000),
    seconds: num("SURGE_SECONDS", 600),
    burst: { seconds: num("SURGE_BURST_SECONDS", 60), rate: num("SURGE_BURST_RATE", 667) },
    streams: num("SURGE_STREAMS", 2_000),
    readsPerSecond: num("SURGE_READS", 50),
  };
  const liveSecret = `whsec_surge_${randomBytes(16).toString("hex")}`;
  const fleet = await startFleet({
    dbPrefix: "fan_surge",
    seed: true,
    label: "surge fleet",
    fixtures: ["clerk"],
    instances: num("SURGE_INSTANCES", 4),
    replica: true,
    redisCluster: process.env.SURGE_REDIS_CLUSTER === "1",
    reportLine: (l) => l.includes('"level":"error"'),
    env: ({ run }) => ({
      RATE_LIMIT_PREFIX: `surge:${run}`,
      LEADERBOARD_PREFIX: `lb:surge:${run}`,
      RATE_LIMIT_OVERRIDES: JSON.stringify({ anonymous: LIFTED, user: LIFTED, write: LIFTED, earn: LIFTED, signals: LIFTED }),
      // The bench's clients name their address (streams are capped per anonymous address); HAProxy appends its own.
      CLIENT_IP_SOURCE: "forwarded",
      TRUSTED_PROXY_HOPS: "2",
      LIVE_EVENTS_WEBHOOK_SECRET: liveSecret,
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
    }),
  });
  try {
    const world = await prepareSurge(fleet.databaseUrl, plan.fans);
    const cpuBefore = fleet.pids.map(cpuSeconds);
    const pgBefore = postgresCpuSeconds();
    const r = await runSurge({
      base: fleet.url,
      privateKey: fleet.privateKey,
      world,
      plan,
      databaseUrl: fleet.databaseUrl,
      serverConnections: () => fleet.pooler.serverConnections(fleet.dbName),
      liveSecret,
    });
    const appCpu = fleet.pids.reduce((n, pid, i) => n + cpuSeconds(pid) - cpuBefore[i]!, 0);
    const pgCpu = postgresCpuSeconds() - pgBefore;
    const admin = { authorization: `Bearer ${signSessionToken(fleet.privateKey, "user_surge_admin", { admin: true })}` };
    const check = (await (await fetch(`${fleet.url}/api/admin/leaderboard/check`, { headers: admin })).json()) as { data: { drift: boolean } };
    const requests = r.checkIns.requests + r.dashboard.requests + r.feed.requests;
    const exact = r.ledger.checkIns === r.succeeded && r.ledger.repEntries === r.succeeded && r.ledger.fansCredited === r.succeeded;
    console.log(
      [
        `\nsurge: ${plan.fans.toLocaleString()} fans over ${plan.seconds} s (burst ${plan.burst.rate}/s for ${plan.burst.seconds} s) on ${fleet.instanceUrls.length} instances, took ${r.seconds} s`,
        `  5xx (and unanswered): ${r.fiveHundreds} ${r.fiveHundreds === 0 ? "(ok)" : "(BROKEN)"}`,
        `  throughput: ${(requests / r.seconds).toFixed(0)} requests/s served on average (${requests.toLocaleString()} in ${r.seconds} s; the plan's arrivals averaged ${(requests / plan.seconds).toFixed(0)}/s); ${r.resent} sent again after a kept-alive connection closed under them`,
        `  check-ins: ${JSON.stringify(r.checkIns.statuses)}, p50 ${r.checkIns.p50} ms, p99 ${r.checkIns.p99} ms (from when the client issued it: waiting for one of its 512 connections counts)`,
        `  dashboard: ${JSON.stringify(r.dashboard.statuses)}, p50 ${r.dashboard.p50} ms, p99 ${r.dashboard.p99} ms`,
        `  locker room: ${JSON.stringify(r.feed.statuses)}, p50 ${r.feed.p50} ms, p99 ${r.feed.p99} ms`,
        `  ledger: ${r.ledger.checkIns} check-ins, ${r.ledger.repEntries} Rep entries for ${r.succeeded} successes ${exact ? "(exact)" : "(BROKEN)"}; boards ${check.data.drift ? "DRIFT from the ledger" : "equal the ledger"}`,
        `  streams: ${r.streams.opened}/${r.streams.wanted} open, ${r.streams.delivered}/${r.streams.expected} live events delivered (${r.streams.liveFailures} webhook failures), delivery p99 ${r.streams.p99} ms, ${r.streams.boardEvents} board events`,
        `  PgBouncer server connections: at most ${r.poolerServerConnectionsMax} for ${fleet.instanceUrls.length} instances × 10 client connections ${r.poolerServerConnectionsMax <= 20 ? "(ok, ≤ 20)" : "(ABOVE 20)"}`,
        `  replica lag: at most ${r.replicaLagMaxMs} ms`,
        `  CPU per request (all ${requests.toLocaleString()}): instances ${((appCpu / requests) * 1e6).toFixed(0)} µs, PostgreSQL ${((pgCpu / requests) * 1e6).toFixed(0)} µs`,
      ].join("\n"),
    );
    if (r.fiveHundreds > 0 || !exact || check.data.drift || r.poolerServerConnectionsMax > 20) process.exitCode = 1;
  } finally {
    await fleet.stop();
  }
}
