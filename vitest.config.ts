import path from "node:path";
import { defineConfig } from "vitest/config";

// Two projects share one run:
// - "api": tests/domain (domain logic against PostgreSQL) and tests/api (HTTP black-box against `next start` of
//   the production build); tests/setup/global.ts creates the database and starts the server.
// - "e2e": tests/e2e, the staff console in headless Chromium against its own database, key pair, identity
//   provider stand-in and `next start` (tests/e2e/setup.ts).
// The e2e project runs after the api project (sequence.groupOrder), so at most two test workers are busy at
// any time on a 2-core machine that also hosts the servers under test, PostgreSQL and, for e2e, Chromium.
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
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/setup.ts"],
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
