// The server under load: `next start` of a production build with the settings production insists on (a Redis,
// Clerk's, the key the bench signs its tokens with), the bench's database and leaderboard prefix, the limits lifted.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { DEV_ISSUER } from "../../lib/auth/sign";
import { freePort } from "../../lib/ports";
import { BOARD_PREFIX } from "../bench-env";
import { DB_URL } from "./common";
import { BENCH_STRIPE_WEBHOOK_SECRET } from "./payments";
import { BENCH_CRON_SECRET } from "./auction";
import { BENCH_LIVE_SECRET } from "./live";

// One client at thousands of requests a second: lift the default policies (the limiter still runs, its cost is measured).
const LIFTED = { tokens: 100_000_000, window: "60 s" };
const BENCH_LIMITS = JSON.stringify({ anonymous: LIFTED, user: LIFTED, write: LIFTED, signals: LIFTED, money: LIFTED, search: LIFTED });
// What a production server insists on; the bench never calls the identity provider.
const PRODUCTION_SETTINGS = {
  CLERK_SECRET_KEY: "sk_test_bench_unused",
  CLERK_ISSUER: DEV_ISSUER,
  CLERK_AUTHORIZED_PARTIES: "https://app.example.com",
  MOBILE_STATE_SECRET: randomBytes(32).toString("hex"),
  // Makes middleware.ts active (Clerk's middleware on the staff console) as in production; /api never reaches it.
  CLERK_PUBLISHABLE_KEY: `pk_live_${Buffer.from(`${new URL(DEV_ISSUER).host}$`).toString("base64")}`,
  // Stripe's webhook is measured with events the bench signs; no call reaches Stripe.
  STRIPE_SECRET_KEY: "sk_test_bench_unused",
  STRIPE_WEBHOOK_SECRET: BENCH_STRIPE_WEBHOOK_SECRET,
  // The auction bench settles its auction through the marketplace cron.
  CRON_SECRET: BENCH_CRON_SECRET,
  // The live stream bench signs the provider's deliveries.
  LIVE_EVENTS_WEBHOOK_SECRET: BENCH_LIVE_SECRET,
};

export async function startServer(dir: string, publicKey: string): Promise<{ base: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NEXT_DIST_DIR: dir,
      NODE_ENV: "production",
      DATABASE_URL: DB_URL,
      // Production refuses to start without a Redis: the local one unless REDIS_URL says otherwise.
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      CLERK_JWT_KEY: publicKey,
      ...PRODUCTION_SETTINGS,
      NEXT_TELEMETRY_DISABLED: "1",
      CLERK_TELEMETRY_DISABLED: "1",
      RATE_LIMIT_PREFIX: `bench:${Date.now()}`,
      LEADERBOARD_PREFIX: BOARD_PREFIX,
      RATE_LIMIT_OVERRIDES: BENCH_LIMITS,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      if (i > 300) throw new Error("server did not start");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, pid: server.pid!, stop: () => server.kill("SIGTERM") };
}
