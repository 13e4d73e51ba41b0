import path from "node:path";
import { defineConfig } from "vitest/config";

// Two tiers share one run: tests/domain (domain logic against PostgreSQL) and tests/api (HTTP black-box
// against `next start` of the production build). globalSetup creates the database and starts the server.
export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/env.ts"],
    // 2 cores shared with the server under test and PostgreSQL: two workers keep both busy without starving the server.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
