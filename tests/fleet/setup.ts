import type { TestProject } from "vitest/node";
import { startFleet } from "../../scripts/fleet/fleet";
import { apiServerEnv, economyInvariant } from "../setup/global";
import { UNDOCUMENTED_ERROR_CODE } from "../setup/server-log";
import { provideServer } from "../setup/test-server";

// The fleet project's world (scripts/fleet/fleet.ts): HAProxy → four `next start` instances → PgBouncer in transaction
// mode → a PostgreSQL primary with a streaming replica, and a three-master Redis Cluster. The api project's suites
// chosen in vitest.config.ts run against HAProxy's address with the api project's settings, so every request may land
// on another instance and every database statement crosses the pooler.
export default async function setup(project: TestProject) {
  // FLEET_REDIS_CLUSTER=0: the local Redis instead of the cluster (to tell a cluster fault from another).
  const fleet = await startFleet({
    dbPrefix: "fan_fleet",
    seed: true,
    label: "fleet",
    instances: 4,
    replica: true,
    redisCluster: process.env.FLEET_REDIS_CLUSTER !== "0",
    reportLine: (l) => l.includes('"unhandled error"'),
    failLine: (l) => l.includes(UNDOCUMENTED_ERROR_CODE),
    env: ({ run }) => ({
      ...apiServerEnv(run),
      // HAProxy adds one more X-Forwarded-For entry in front of the instances.
      TRUSTED_PROXY_HOPS: String(Number(apiServerEnv(run).TRUSTED_PROXY_HOPS) + 1),
      // The suites read their writes at once, and the next request may reach another instance, whose per-process
      // caches would answer from before the write for their TTL (a documented delay: tests/multi times it).
      USER_CACHE_TTL_MS: "0",
      TEAM_CACHE_TTL_MS: "0",
    }),
  });
  provideServer(project, { ...fleet, baseUrl: fleet.url }, `test:${fleet.run}`);
  project.provide("fleet", {
    instanceUrls: fleet.instanceUrls,
    pgbouncerAdminUrl: fleet.pooler.url("pgbouncer"),
    dbName: fleet.dbName,
    replicaUrl: fleet.postgres.replicaUrl(fleet.dbName),
    redisNodes: fleet.redisNodes ?? [],
  });
  return async () => {
    const report = await economyInvariant(fleet.databaseUrl);
    await fleet.stop();
    if (!report.ok) {
      console.error(`economy invariant broken after the fleet's suites: ${JSON.stringify(report)}`);
      process.exitCode = 1;
      throw new Error("economy invariant broken");
    }
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    fleet: { instanceUrls: string[]; pgbouncerAdminUrl: string; dbName: string; replicaUrl: string | null; redisNodes: string[] };
  }
}
