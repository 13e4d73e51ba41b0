import { expect, inject, it } from "vitest";
import { serverConnections } from "../../scripts/fleet/pgbouncer";
import { prepareSurge, runSurge, type SurgePlan } from "../../scripts/fleet/surge";
import { boardKey } from "../../lib/core/rep/leaderboard/service";
import { unpackScore } from "../../lib/core/rep/leaderboard/score";
import { boardStore } from "../../lib/core/rep/leaderboard/store";
import { SERVER_AWARDS } from "../../lib/core/rep/service";
import { baseUrl, db } from "../helpers";

// A short matchday surge through the whole fleet (HAProxy → four instances → PgBouncer → primary and replica, Redis
// Cluster): the invariants of the bench's `surge` scenario (docs/performance.md), not its times. Every fan's check-in
// answers 201 and nothing answers 5xx; the ledger holds exactly one check-in and one Rep entry per success; the
// fans' board scores equal the ledger; PgBouncer serves four instances' 40 client connections with at most its default 20.
const PLAN: SurgePlan = { fans: 3_000, seconds: 40, burst: { seconds: 10, rate: 150 }, streams: 200, readsPerSecond: 10 };

it("a surge of check-ins through the fleet: no 5xx, ledger and boards exact, pooler within its 20 connections", { timeout: 240_000 }, async () => {
  const fleet = inject("fleet");
  const world = await prepareSurge(inject("databaseUrl"), PLAN.fans);
  const report = await runSurge({
    base: baseUrl,
    privateKey: inject("privateKey"),
    world,
    plan: PLAN,
    databaseUrl: inject("databaseUrl"),
    serverConnections: () => serverConnections(fleet.pgbouncerAdminUrl, fleet.dbName),
    liveSecret: inject("fixtures").live!.webhookSecret,
  });
  expect(report.fiveHundreds, JSON.stringify(report)).toBe(0);
  expect(report.checkIns.statuses).toEqual({ 201: PLAN.fans });
  expect(report.ledger).toEqual({ checkIns: PLAN.fans, repEntries: PLAN.fans, fansCredited: PLAN.fans });
  expect(report.streams.opened).toBe(PLAN.streams);
  expect(report.streams.liveFailures).toBe(0);
  expect(report.streams.delivered).toBe(report.streams.expected);
  expect(report.poolerServerConnectionsMax).toBeGreaterThan(0);
  expect(report.poolerServerConnectionsMax).toBeLessThanOrEqual(20);

  // Each fan is on the all-time global board with exactly the check-in's Rep (read from the cluster as the servers
  // wrote it; other suites credit and rebuild boards meanwhile, so the board-wide drift check is the bench's).
  const ids = (await db().user.findMany({ where: { externalId: { in: world.subs } }, select: { id: true } })).map((u) => u.id);
  const standings = await (await boardStore()).standings(boardKey("global", "all"), ids);
  const points = standings.map((st) => (st ? unpackScore(st.score).points : null));
  expect(points.filter((p) => p !== SERVER_AWARDS.arena_check_in.amount)).toEqual([]);
  expect(points).toHaveLength(PLAN.fans);
});
