import pg from "pg";
import { assertVerificationKey } from "./auth/tokens";
import { env } from "./env";
import { identityProvider } from "./auth/identity-provider";
import { log } from "./kernel/log";
import { assertFcmServiceAccount } from "./core/push/providers";
import { warmUpRateLimits } from "./http/rate-limit";
import { redisBackend } from "./redis/client";

/**
 * Start-up checks (instrumentation.ts, Node.js runtime): a configuration error stops the process with a message
 * naming what is wrong, instead of surfacing as 500s on the first request. Next.js itself only logs a failed
 * instrumentation hook and goes on serving, hence the exit.
 *
 * In production nothing falls back silently: DATABASE_URL must be set and answer, and rate limits need REDIS_URL or
 * REDIS_CLUSTER_NODES (answering) or Upstash (or REDIS_BACKEND=memory, chosen explicitly). Elsewhere the store is chosen and logged here.
 * The rate limiters' Redis is connected and their script loaded here, before the first request (warmUpRateLimits).
 */
export async function checkStartup(): Promise<void> {
  try {
    env();
    assertFcmServiceAccount();
    // Kill switches: the pipeline's feature check (lib/http/features.ts). Imported once the environment is known to be
    // valid: the module opens the database pool, which reads it.
    (await import("./features/config/gate")).registerConfigGate();
    await assertVerificationKey();
    if (env().NODE_ENV === "production") {
      identityProvider();
      await assertDatabase();
    }
    const backend = await redisBackend(); // throws in production when no store is configured
    await warmUpRateLimits(3_000).catch((error) => {
      if (env().NODE_ENV === "production" && backend.kind === "tcp") throw new Error(`REDIS_URL: no Redis answers at ${safeUrl(backend.url)}`);
      if (env().NODE_ENV === "production" && backend.kind === "cluster")
        throw new Error(`REDIS_CLUSTER_NODES: no Redis Cluster answers at ${backend.nodes.join(",")} (${error instanceof Error ? error.message : error})`);
      // Elsewhere (and with Upstash) the server starts: limits fail open until Redis answers.
      log("warn", { msg: "rate limiter: Redis not ready at start-up; failing open until it answers", error: String(error) });
    });
  } catch (error) {
    console.error(`Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

async function assertDatabase(): Promise<void> {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is required in production");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    throw new Error(`DATABASE_URL: cannot reach PostgreSQL at ${safeUrl(url)} (${error instanceof Error ? error.message || error.name : error})`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A URL fit for a log line: without its password. */
function safeUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}
