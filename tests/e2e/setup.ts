import type { TestProject } from "vitest/node";
import { provideServer, startTestServer } from "../setup/test-server";
import { findChromium, NO_BROWSER } from "./browser";

// The staff console's browser tests get their own world: a migrated but empty database (so the first sync
// creates rows), a fresh RSA key pair, the Clerk Backend API stand-in, the sync feed fixture, and `next start`
// of the production build on a free port. Chromium: tests/e2e/browser.ts
// (without one, vitest.config.ts leaves this project out, except in CI, where this setup fails naming the fix).

export const CONSOLE_ORIGIN = "https://api.example.com";

export default async function setup(project: TestProject) {
  const chromium = findChromium();
  if (!chromium) throw new Error(NO_BROWSER.replace("skipping the browser tests", "the browser tests cannot run"));
  const server = await startTestServer({
    dbPrefix: "fan_e2e",
    seed: false,
    fixtures: ["clerk", "sync"],
    label: "e2e server",
    reportLine: (l) => l.includes('"unhandled error"') || l.includes('"level":"error"'),
    env: ({ run }) => ({
      DB_POOL_SIZE: "5",
      RATE_LIMIT_PREFIX: `e2e:${run}`,
      LEADERBOARD_PREFIX: `lb:e2e:${run}`,
      RATE_LIMIT_OVERRIDES: JSON.stringify({ public: { tokens: 100_000, window: "60 s" }, write: { tokens: 100_000, window: "60 s" } }),
      // The console accepts only sessions from these origins (the clerk fixture's APP_URL is the console's).
      CLERK_AUTHORIZED_PARTIES: CONSOLE_ORIGIN,
    }),
  });
  provideServer(project, server, `e2e:${server.run}`);
  project.provide("chromiumPath", chromium);
  return server.stop;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The Chromium binary the e2e tests drive with playwright (tests/e2e/browser.ts). */
    chromiumPath: string;
  }
}
