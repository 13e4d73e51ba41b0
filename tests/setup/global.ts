import type { TestProject } from "vitest/node";
import { UNDOCUMENTED_ERROR_CODE } from "./server-log";
import { provideServer, startTestServer } from "./test-server";

export type { Fixture } from "./test-server";

// The api project's world: a seeded database, every fixture, and `next start` with response validation on.
export default async function setup(project: TestProject) {
  const server = await startTestServer({
    dbPrefix: "fan_test",
    seed: true,
    label: "server",
    reportLine: (l) => l.includes('"unhandled error"'),
    // A route answered an error code its declaration does not document: fix the route's `errors`.
    failLine: (l) => l.includes(UNDOCUMENTED_ERROR_CODE),
    env: ({ run }) => apiServerEnv(run),
  });
  provideServer(project, server, `test:${server.run}`);
  return async () => {
    // After every test: each wallet's balance still equals the sum of its ledger, no active listing's seller has
    // lost the item, and every trade's held coins match its state (the economy invariant, lib/operations/invariants/economy.ts).
    const report = await economyInvariant(server.databaseUrl);
    await server.stop();
    if (!report.ok) {
      const { mismatches, staleListings, paymentMismatches, tradeMismatches, dropMismatches } = report;
      console.error(
        `economy invariant broken after the suite: ${JSON.stringify({ mismatches, staleListings, paymentMismatches, tradeMismatches, dropMismatches })}`,
      );
      process.exitCode = 1;
      throw new Error("economy invariant broken");
    }
  };
}

/** The api project's server environment (the fleet's tier runs the same suites on the same settings). */
export const apiServerEnv = (run: string): Record<string, string> => ({
  DB_POOL_SIZE: "10",
  RATE_LIMIT_PREFIX: `test:${run}`,
  LEADERBOARD_PREFIX: `lb:test:${run}`,
  // Live leaderboards end and beat quickly enough to be tested (tests/api/leaderboard.test.ts).
  LEADERBOARD_STREAM_MAX_MS: "6000",
  LEADERBOARD_STREAM_HEARTBEAT_MS: "500",
  // A limiter slower than RATE_LIMIT_TIMEOUT_MS fails open (the request passes): on a loaded test machine 200 ms
  // can pass, and the tests that count 429s would see one more request through. The fail-open path has its own test.
  RATE_LIMIT_TIMEOUT_MS: "5000",
  // Generous limits so concurrency tests measure the rules, tight public limit to test 429s. The defaults
  // (anonymous, user, machine) are lifted too: most tests come from one address, and each run makes thousands of
  // requests; tests/domain/pipeline.test.ts proves a default policy limits.
  RATE_LIMIT_OVERRIDES: JSON.stringify({
    write: { tokens: 100_000, window: "60 s" },
    earn: { tokens: 100_000, window: "60 s" },
    // Low enough that one user can reach it (tests/api/lockerroom-posts.test.ts), above any other test's posting.
    ugc: { tokens: 40, window: "60 s" },
    public: { tokens: 5, window: "60 s" },
    // Low enough that one sender reaches it (tests/api/marketplace-trade-rules.test.ts); gifts come from fresh fans.
    gifts: { tokens: 5, window: "60 s" },
    anonymous: { tokens: 1_000_000, window: "60 s" },
    user: { tokens: 1_000_000, window: "60 s" },
    machine: { tokens: 100_000, window: "60 s" },
  }),
  // Cross-origin browser clients (tests/api/cors.test.ts).
  CORS_ALLOWED_ORIGINS: "https://app.example.com,https://fans.example.org:8443",
  CLERK_AUTHORIZED_PARTIES: "https://app.example.com,https://admin.example.com",
  // As behind a CDN and a load balancer: the client is the second X-Forwarded-For entry from the right.
  CLIENT_IP_SOURCE: "forwarded",
  TRUSTED_PROXY_HOPS: "2",
  VALIDATE_RESPONSES: "1",
  // Tests read their own writes anonymously at once; the shared anonymous answers have their own tests
  // (tests/domain/pipeline.test.ts in process, tests/multi/anonymous-cache.test.ts over two instances).
  ANONYMOUS_CACHE_TTL_MS: "0",
  // Countries where packs are not sold (tests/api/spending.test.ts).
  PACK_SALES_BLOCKED_COUNTRIES: "BE,NL",
});

export async function economyInvariant(databaseUrl: string) {
  const { createDb } = await import("../../lib/db/client");
  const { checkInvariant } = await import("../../lib/operations/invariants/economy");
  const db = createDb(databaseUrl, 1);
  try {
    return await checkInvariant(db);
  } finally {
    await db.$disconnect();
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    privateKey: string;
    publicKey: string;
    redisPrefix: string;
    /** The servers' Redis settings (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_BACKEND). */
    redisEnv: Record<string, string>;
    /** How many server processes answer baseUrl (the fleet's HAProxy spreads requests over several). */
    instances: number;
    /** Values fixtures hand to tests (e.g. a stand-in's URL), by fixture file name. */
    fixtures: Record<string, Record<string, string>>;
  }
}
