import { randomBytes } from "node:crypto";
import type { Fixture } from "../test-server";

// League sync for the server under test: the black-box feed (its own league, archived, with archived teams, so the
// seeded leagues/teams other suites count are never touched or joined by live rows) and the two machine secrets.
export default async function syncEnv(): Promise<Fixture> {
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const cronSecret = `cron_${randomBytes(16).toString("hex")}`;
  return {
    env: {
      SYNC_FEED_FILE: "lib/features/sync/fixtures/blackbox.json",
      LEAGUES_SYNC_WEBHOOK_SECRET: webhookSecret,
      CRON_SECRET: cronSecret,
    },
    provided: { webhookSecret, cronSecret },
  };
}
