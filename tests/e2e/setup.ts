import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { startTestServer } from "../setup/test-server";

// The staff console's browser tests get their own world: a migrated but empty database (so the first sync
// creates rows), a fresh RSA key pair, the Clerk Backend API stand-in, the sync feed fixture, and `next start`
// of the production build on a free port. Chromium is Debian's (no browser download).

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim().split("\n")[0]!;
  } catch {
    throw new Error("No chromium on PATH: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.");
  }
}

export const CONSOLE_ORIGIN = "https://api.example.com";

export default async function setup(project: TestProject) {
  const chromium = chromiumPath();
  const server = await startTestServer({
    dbPrefix: "fan_e2e",
    seed: false,
    fixtures: ["clerk", "sync"],
    label: "e2e server",
    reportLine: (l) => l.includes('"unhandled error"') || l.includes('"level":"error"'),
    env: ({ run }) => ({
      DB_POOL_SIZE: "5",
      RATE_LIMIT_PREFIX: `e2e:${run}`,
      RATE_LIMIT_OVERRIDES: JSON.stringify({ public: { tokens: 100_000, window: "60 s" }, write: { tokens: 100_000, window: "60 s" } }),
      // The console accepts only sessions from these origins (the clerk fixture's APP_URL is the console's).
      CLERK_AUTHORIZED_PARTIES: CONSOLE_ORIGIN,
    }),
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("privateKey", server.privateKey);
  project.provide("publicKey", server.publicKey);
  project.provide("fixtures", server.provided);
  project.provide("chromiumPath", chromium);
  return server.stop;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Debian's chromium binary the e2e tests drive with playwright-core. */
    chromiumPath: string;
  }
}
