import { randomBytes } from "node:crypto";
import type { Fixture } from "../test-server";

// The live events webhook's secret for the server under test (POST /api/webhooks/live-events).
export default async function liveEnv(): Promise<Fixture> {
  const webhookSecret = `whsec_live_${randomBytes(16).toString("hex")}`;
  return { env: { LIVE_EVENTS_WEBHOOK_SECRET: webhookSecret }, provided: { webhookSecret } };
}
