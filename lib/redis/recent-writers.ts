import { env, readYourWritesMs } from "../env";
import { within } from "../time";
import { redisBackend, scriptRedis } from "./client";

// Read-your-writes with read replicas (docs/decisions/0072-read-replicas.md): after a signed-in fan's successful
// write, the pipeline marks the fan for REPLICA_READ_YOUR_WRITES_MS (lib/http/route.ts), and the reads that may be
// served by a replica (readMayLag, lib/db/replica.ts) go to the primary for a marked fan. The mark lives where the
// rate limits do (the next request may reach another instance): Redis (`SET … PX`), or in process with the memory
// backend. Only called when a replica is configured.

const g = globalThis as unknown as { __recentWriters?: Map<string, number> };
// This process's own marks (user id → until, ms): the same instance never asks Redis about a fan it just marked.
const local = (g.__recentWriters ??= new Map<string, number>());
const LOCAL_MAX = 10_000;

const keyOf = (userId: string) => `${env().RATE_LIMIT_PREFIX}:wrote:${userId}`;
const redisTimeout = () => new Error("Redis did not answer in time");

/**
 * Marks the fan as having just written. Awaited before the write's answer is sent, so a read the client sends after
 * it can only find the mark (a fire-and-forget SET could lose that race). A Redis that fails does not fail the
 * request (the write has committed): the mark then holds on this instance only, and readers that cannot reach Redis
 * read the primary anyway (wroteRecently).
 */
export async function markRecentWriter(userId: string): Promise<void> {
  const ms = readYourWritesMs();
  const now = Date.now();
  if (local.size >= LOCAL_MAX) for (const [id, until] of local) if (until <= now) local.delete(id);
  local.set(userId, now + ms);
  const backend = await redisBackend();
  if (backend.kind === "memory") return;
  await within(scriptRedis(backend).set(keyOf(userId), "1", { px: ms }), env().RATE_LIMIT_TIMEOUT_MS, redisTimeout).catch(() => {});
}

/** Whether the fan wrote within REPLICA_READ_YOUR_WRITES_MS; true when Redis cannot say (the primary is always right). */
export async function wroteRecently(userId: string): Promise<boolean> {
  const until = local.get(userId);
  if (until !== undefined && until > Date.now()) return true;
  const backend = await redisBackend();
  if (backend.kind === "memory") return false;
  try {
    return (await within(scriptRedis(backend).get(keyOf(userId)), env().RATE_LIMIT_TIMEOUT_MS, redisTimeout)) !== null;
  } catch {
    return true;
  }
}
