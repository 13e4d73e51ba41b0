// npm run fleet: the production build on a fleet of real engines on this machine (scripts/fleet/fleet.ts): HAProxy in
// front of N `next start` instances, PgBouncer (transaction mode) in front of a scratch PostgreSQL primary with a
// streaming replica, Redis (the local one, or a three-master cluster with --redis-cluster). Seeded, with the test
// stand-ins for the services we cannot reach; tokens verify with the development key pair (`npm run token -- <userId>`).
// Prints the URLs; Ctrl-C stops everything. Needs `npm run build` first, and Debian's haproxy, pgbouncer and
// postgresql (and redis-server for --redis-cluster).
//   npm run fleet -- [--instances 4] [--redis-cluster] [--no-replica]
import { parseArgs } from "node:util";
import { ensureDevKeyPair } from "../lib/auth/keys";
import { startFleet } from "./fleet/fleet";

const { values } = parseArgs({
  options: {
    instances: { type: "string", default: "4" },
    "redis-cluster": { type: "boolean", default: false },
    "no-replica": { type: "boolean", default: false },
  },
});
const instances = Number(values.instances);
if (!Number.isInteger(instances) || instances < 1 || instances > 16) {
  console.error("--instances: a whole number from 1 to 16");
  process.exit(2);
}

const fleet = await startFleet({
  dbPrefix: "fan_fleet",
  seed: true,
  label: "fleet",
  instances,
  replica: !values["no-replica"],
  redisCluster: values["redis-cluster"],
  keyPair: ensureDevKeyPair(),
  echo: true,
  reportLine: (line) => line.includes('"level":"error"'),
  env: ({ run }) => ({
    RATE_LIMIT_PREFIX: `fleet:${run}`,
    LEADERBOARD_PREFIX: `lb:fleet:${run}`,
    // HAProxy appends the caller's address to X-Forwarded-For: the client is the last entry.
    CLIENT_IP_SOURCE: "forwarded",
    TRUSTED_PROXY_HOPS: "1",
    // Browser sessions (the staff console) from the fleet's own address.
    CLERK_AUTHORIZED_PARTIES: "http://localhost:3000",
  }),
});

const replica = fleet.postgres.replicaUrl(fleet.dbName);
console.log(
  [
    `fleet is up (${instances} instances):`,
    `  app (HAProxy)     ${fleet.url}`,
    ...fleet.instanceUrls.map((u, i) => `  instance ${i + 1}        ${u}`),
    `  database (pooled) ${fleet.pooler.url(fleet.dbName)}  (PgBouncer, transaction mode)`,
    `  database (direct) ${fleet.databaseUrl}`,
    `  replica           ${replica ?? "none (--no-replica)"}`,
    `  redis             ${fleet.redisNodes ? `cluster ${fleet.redisNodes.join(",")}` : "the local Redis (127.0.0.1:6379)"}`,
    `  a token:          npm run token -- <userId>`,
    "Ctrl-C stops everything.",
  ].join("\n"),
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("fleet: stopping");
    void fleet.stop().then(() => process.exit(0));
  });
}
