import type { TestProject } from "vitest/node";
import { UNDOCUMENTED_ERROR_CODE } from "../setup/server-log";
import { provideServer, startTestServer } from "../setup/test-server";
import { PUBLIC_LIMIT, TEAM_CACHE_TTL_MS, USER_CACHE_TTL_MS } from "./config";

// The multi project's world: two `next start` processes of the same production build on their own ports, over ONE
// seeded database and ONE Redis prefix (one environment, one key pair, one Clerk stand-in): the service as Vercel
// runs it, several stateless instances behind one address. Tests alternate or split their requests between
// inject("baseUrls") and must see one service (tests/multi/helpers.ts).

export default async function setup(project: TestProject) {
  const server = await startTestServer({
    dbPrefix: "fan_multi",
    seed: true,
    instances: 2,
    // The Clerk stand-in supplies what a production server needs at start (CLERK_SECRET_KEY, MOBILE_STATE_SECRET); live:
    // the live events webhook secret (the live stream test).
    fixtures: ["clerk", "live"],
    label: "multi servers",
    reportLine: (l) => l.includes('"unhandled error"'),
    failLine: (l) => l.includes(UNDOCUMENTED_ERROR_CODE),
    env: ({ run }) => ({
      // Two instances, two pools: 5 each keeps the tier's connections at the api server's 10.
      DB_POOL_SIZE: "5",
      RATE_LIMIT_PREFIX: `multi:${run}`,
      LEADERBOARD_PREFIX: `lb:multi:${run}`,
      // Tight `public` for the shared-limit test; the rest generous so the concurrency tests measure the rules.
      RATE_LIMIT_OVERRIDES: JSON.stringify({
        public: { tokens: PUBLIC_LIMIT.tokens, window: PUBLIC_LIMIT.window },
        write: { tokens: 100_000, window: "60 s" },
        earn: { tokens: 100_000, window: "60 s" },
        anonymous: { tokens: 1_000_000, window: "60 s" },
        user: { tokens: 1_000_000, window: "60 s" },
      }),
      // A limiter that waits past RATE_LIMIT_TIMEOUT_MS fails open (the request passes, its token is still spent): on a
      // loaded 2-core machine the default 200 ms would blur exact counts. This tier tests shared state, not fail-open.
      RATE_LIMIT_TIMEOUT_MS: "5000",
      TEAM_CACHE_TTL_MS: String(TEAM_CACHE_TTL_MS),
      USER_CACHE_TTL_MS: String(USER_CACHE_TTL_MS),
      CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
      // As behind a load balancer: the client is the last X-Forwarded-For entry, so tests pick their address.
      CLIENT_IP_SOURCE: "forwarded",
      TRUSTED_PROXY_HOPS: "1",
      VALIDATE_RESPONSES: "1",
    }),
  });
  provideServer(project, server, `multi:${server.run}`);
  project.provide("baseUrls", server.baseUrls);
  return server.stop;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Every instance of the multi project, in start order (two); `baseUrl` is the first. */
    baseUrls: string[];
  }
}
