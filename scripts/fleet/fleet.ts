import { startTestServer, type TestServerOptions } from "../../tests/setup/test-server";
import { startHaproxy } from "./haproxy";
import { startPostgresPair } from "./postgres";
import { startRedisCluster } from "./redis-cluster";

// The service as a deployment runs it, on one machine, from Debian's engines: HAProxy in front of N `next start`
// instances of the production build; PgBouncer in transaction mode (default settings) in front of a PostgreSQL
// primary, with a streaming-replication hot standby as the read replica; Redis (the local one, or a three-master
// Redis Cluster). The world around the instances (database migrated and seeded, key pair, stand-ins for the services
// we cannot reach) is the test server's (tests/setup/test-server.ts). Used by `npm run fleet`, tests/fleet and the
// bench's surge scenario.

export interface FleetOptions extends Omit<TestServerOptions, "adminUrl" | "pooled" | "instances"> {
  /** `next start` instances behind HAProxy (default 4). */
  instances?: number;
  /** A streaming replica serving DATABASE_REPLICA_URL (default true). */
  replica?: boolean;
  /** A three-master Redis Cluster (REDIS_CLUSTER_NODES) instead of the single Redis (default false). */
  redisCluster?: boolean;
  /** Connections per instance's pool (default 10: four instances hold 40 client connections, PgBouncer's 20 serve them). */
  poolSize?: number;
}

export type Fleet = Awaited<ReturnType<typeof startFleet>>;

export async function startFleet(o: FleetOptions) {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((error) => console.error(`fleet: stopping: ${error}`));
  };
  try {
    const postgres = await startPostgresPair({ replica: o.replica ?? true });
    stops.push(() => postgres.stop());
    const cluster = o.redisCluster ? await startRedisCluster({ masters: 3 }) : undefined;
    if (cluster) stops.push(() => cluster.stop());
    const server = await startTestServer({
      ...o,
      adminUrl: postgres.primaryUrl("postgres"),
      pooled: true,
      instances: o.instances ?? 4,
      env: (ctx) => {
        const replicaUrl = postgres.replicaUrl(`${o.dbPrefix}_${ctx.run}`);
        return {
          DB_POOL_SIZE: String(o.poolSize ?? 10),
          ...(replicaUrl ? { DATABASE_REPLICA_URL: replicaUrl } : {}),
          // (REDIS_CLUSTER_NODES wins over the local REDIS_URL the test server sets.)
          ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodes.join(",") } : {}),
          ...o.env(ctx),
        };
      },
    });
    stops.push(() => server.stop());
    const proxy = await startHaproxy(server.baseUrls);
    stops.push(() => proxy.stop());
    return {
      ...server,
      /** HAProxy: the fleet's one address. */
      url: proxy.url,
      /** The instances behind it, in start order. */
      instanceUrls: server.baseUrls,
      postgres,
      pooler: server.pooler!,
      /** The cluster's nodes (host:port), when started with redisCluster. */
      redisNodes: cluster?.nodes ?? null,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
