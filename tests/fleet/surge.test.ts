import { expect, inject, it } from "vitest";
import { serverConnections } from "../../scripts/fleet/pgbouncer";
import { prepareSurge, runSurge, type SurgePlan } from "../../scripts/fleet/surge";
import { api, baseUrl, token } from "../helpers";

// A short matchday surge through the whole fleet (HAProxy → four instances → PgBouncer → primary and replica, Redis
// Cluster): the invariants of the bench's `surge` scenario (docs/performance.md), not its times. Every fan's check-in
// answers 201 and nothing answers 5xx; the ledger holds exactly one check-in and one Rep entry per success; the
// leaderboards equal the ledger; PgBouncer serves four instances' 40 client connections with at most its default 20.
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

  // The global boards equal the ledger (other suites credit Rep meanwhile: a board read mid-write may differ once).
  const admin = { authorization: `Bearer ${token("user_fleet_surge_admin", { admin: true })}` };
  let global: { board: string; missing: number; extra: number; wrong: number; expected: number }[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const checked = await api("GET", "/api/admin/leaderboard/check", { headers: admin });
    expect(checked.status).toBe(200);
    global = (checked.body.data.boards as typeof global).filter((b) => b.board === "global");
    if (global.every((b) => b.missing + b.extra + b.wrong === 0)) break;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  expect(global.length).toBeGreaterThan(0);
  for (const b of global) expect({ ...b, expected: b.expected >= PLAN.fans }).toMatchObject({ missing: 0, extra: 0, wrong: 0, expected: true });
});
