import { createHash } from "node:crypto";
import { once } from "node:events";
import { Cluster, Redis as IORedis } from "ioredis";
import { Redis as UpstashRedis } from "@upstash/redis";
import { DEFAULT_REDIS_URL, env, redisClusterNodes } from "../env";
import { log } from "../kernel/log";

/**
 * The subset of @upstash/redis that @upstash/ratelimit calls. In production it is Upstash's REST client;
 * elsewhere an adapter over a TCP connection to the Redis at REDIS_URL.
 */
export interface ScriptRedis {
  evalsha<T = unknown>(sha: string, keys: string[], args: unknown[]): Promise<T>;
  eval<T = unknown>(script: string, keys: string[], args: unknown[]): Promise<T>;
  get<T = unknown>(key: string): Promise<T | null>;
  set(key: string, value: unknown, opts?: { px?: number; ex?: number }): Promise<unknown>;
  ping(): Promise<unknown>;
  /** TCP only (a REST client has no connection to wait for): see TcpScriptRedis.whenReady. */
  whenReady?(maxWaitMs: number): Promise<void>;
}

/** A TCP client: one Redis, or a Redis Cluster (which routes each command, a script by its first key, to its slot's master). */
export type TcpClient = IORedis | Cluster;

// Upstash's scripts start with a shebang whose flag plain Redis rejects; the scripts do not need it.
const SHEBANG = /^#!lua[^\n]*\n/;

/**
 * The ScriptRedis of a TCP connection, to one Redis or to a Redis Cluster. Wrap the client as it is created: whenReady
 * learns from its connection errors. On a cluster every script names at least one key, all in one hash slot (a
 * script without keys has no slot to be sent to): docs/decisions/0073-redis-cluster.md.
 */
export class TcpScriptRedis implements ScriptRedis {
  // Library hash (sha1 of the original script) → script as we send it.
  private scripts = new Map<string, { body: string; sha: string }>();
  /** Why the last connection attempt failed, until one succeeds: Redis is down. */
  private lastError: Error | undefined;
  constructor(readonly client: TcpClient) {
    client.on("error", (error: Error) => (this.lastError = error));
    client.on("ready", () => (this.lastError = undefined));
    // Every caller waiting in whenReady listens until its wait ends (at most its maxWaitMs): a burst adds many
    // listeners for a moment, none stays.
    client.setMaxListeners(0);
  }

  /**
   * Resolves when the connection can take commands: at once when it is ready, else when the connection attempt under
   * way succeeds, waiting at most `maxWaitMs`. Rejects without waiting when Redis is down (the last attempt failed and
   * none succeeded since), and when the attempt fails or takes longer.
   */
  async whenReady(maxWaitMs: number): Promise<void> {
    if (this.client.status === "ready") return;
    if (this.lastError) throw new Error(`Redis is down (${this.lastError.message})`);
    try {
      await once(this.client, "ready", { signal: AbortSignal.timeout(maxWaitMs) }); // rejects on an "error" event too
    } catch (error) {
      const reason = error instanceof Error && error.name !== "AbortError" ? error.message : `not connected after ${maxWaitMs} ms`;
      throw new Error(`Redis is down (${reason})`);
    }
  }

  async evalsha<T>(sha: string, keys: string[], args: unknown[]): Promise<T> {
    const script = this.scripts.get(sha);
    if (!script) throw new Error("NOSCRIPT script not registered yet");
    try {
      return (await this.client.evalsha(script.sha, keys.length, ...keys, ...args.map(String))) as T;
    } catch (error) {
      if (!String(error).includes("NOSCRIPT")) throw error;
      return (await this.client.eval(script.body, keys.length, ...keys, ...args.map(String))) as T;
    }
  }

  async eval<T>(script: string, keys: string[], args: unknown[]): Promise<T> {
    const body = script.replace(SHEBANG, "");
    const libHash = createHash("sha1").update(script).digest("hex");
    this.scripts.set(libHash, { body, sha: createHash("sha1").update(body).digest("hex") });
    return (await this.client.eval(body, keys.length, ...keys, ...args.map(String))) as T;
  }

  ping(): Promise<unknown> {
    return this.client.ping();
  }

  async get<T>(key: string): Promise<T | null> {
    const value = await this.client.get(key);
    if (value === null) return null;
    try {
      return JSON.parse(value) as T;
    } catch {
      return value as T;
    }
  }

  async set(key: string, value: unknown, opts?: { px?: number; ex?: number }): Promise<unknown> {
    const v = typeof value === "string" ? value : JSON.stringify(value);
    if (opts?.px) return this.client.set(key, v, "PX", opts.px);
    if (opts?.ex) return this.client.set(key, v, "EX", opts.ex);
    return this.client.set(key, v);
  }
}

/**
 * Runs Lua scripts: by SHA once Redis knows the script (EVALSHA), with EVAL the first time and whenever Redis has
 * forgotten it (NOSCRIPT after a restart or a flush). Each script runs atomically, in one round trip.
 */
export function scriptRunner(redis: ScriptRedis) {
  const shas = new Map<string, string>();
  return async <T>(script: string, keys: string[], args: (string | number)[]): Promise<T> => {
    const sha = shas.get(script);
    if (sha) {
      try {
        return await redis.evalsha<T>(sha, keys, args);
      } catch (error) {
        if (!/NOSCRIPT/i.test(String(error))) throw error;
      }
    }
    const result = await redis.eval<T>(script, keys, args);
    shas.set(script, createHash("sha1").update(script).digest("hex"));
    return result;
  };
}

const TIMEOUTS = { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectTimeout: 1_000 } as const;
const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2_000);

/** A TCP client whose commands fail within about a second while Redis is down, instead of waiting for it. */
export function createTcpRedis(url: string): IORedis {
  const client = new IORedis(url, { ...TIMEOUTS, lazyConnect: false, enableAutoPipelining: true, retryStrategy });
  client.on("error", () => {}); // reported per command; do not crash the process
  return client;
}

/** "host:port" → ioredis's node address. */
const nodeAddress = (node: string) => {
  const at = node.lastIndexOf(":");
  return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
};

/**
 * A Redis Cluster client with the same timeouts as createTcpRedis, for REDIS_CLUSTER_NODES (any masters: the client
 * learns the others and the slots from them). Commands are pipelined per node (enableAutoPipelining).
 */
export function createClusterRedis(nodes: string[]): Cluster {
  const client = new Cluster(nodes.map(nodeAddress), {
    redisOptions: { ...TIMEOUTS },
    enableAutoPipelining: true,
    lazyConnect: false,
    clusterRetryStrategy: retryStrategy,
    // A failover moves slots: follow MOVED/ASK and refresh the slot map, briefly, then fail like a Redis that is down.
    maxRedirections: 16,
    retryDelayOnClusterDown: 100,
    retryDelayOnFailover: 100,
    slotsRefreshTimeout: 1_000,
  });
  client.on("error", () => {}); // reported per command; do not crash the process
  return client;
}

/**
 * `key`'s hash slot with `suffix` after it: a key Redis Cluster puts in the same slot as `key` (a script's second
 * key, a rename's target). A key with a hash tag ("{…}", non-empty) hashes by it, so the suffix keeps it; any other
 * key hashes whole, so it becomes the tag.
 */
export function sameSlotKey(key: string, suffix: string): string {
  const open = key.indexOf("{");
  const close = open < 0 ? -1 : key.indexOf("}", open + 1);
  return close > open + 1 ? `${key}${suffix}` : `{${key}}${suffix}`;
}

/**
 * `id` as a hash tag, for keys that a library builds around it (@upstash/ratelimit's "<prefix>:<id>:<window>"), so
 * every key of one id lands in one slot. An id holding a brace would end the tag early: its digest stands in for it.
 */
export function hashTag(id: string): string {
  return /^[^{}]+$/.test(id) ? `{${id}}` : `{${createHash("sha1").update(id).digest("hex")}}`;
}

/**
 * Which store serves rate limits (and, later, pub/sub): the one place that decides.
 * - `upstash`: UPSTASH_REDIS_REST_URL is set (always wins);
 * - `cluster`: REDIS_CLUSTER_NODES is set (a TCP Redis Cluster: docs/decisions/0073-redis-cluster.md);
 * - `tcp`: REDIS_URL is set, or (outside production) nothing is configured and a Redis answers on 127.0.0.1:6379;
 * - `memory`: REDIS_BACKEND=memory, or (outside production) nothing is configured and no local Redis answers:
 *   an in-process store, so limits hold per process only.
 * In production nothing is chosen silently: without REDIS_URL, Upstash or REDIS_BACKEND=memory this throws (and
 * lib/startup.ts stops the server, naming the variables).
 */
export type RedisBackend =
  | { kind: "upstash"; url: string }
  | { kind: "tcp"; url: string; configured: boolean }
  | { kind: "cluster"; nodes: string[] }
  | { kind: "memory"; reason: string };

const g = globalThis as unknown as { __scriptRedis?: ScriptRedis; __redisBackend?: Promise<RedisBackend> };

export const NO_REDIS_IN_PRODUCTION =
  "REDIS_URL or UPSTASH_REDIS_REST_URL (with UPSTASH_REDIS_REST_TOKEN) is required in production (or REDIS_CLUSTER_NODES for a Redis Cluster, or REDIS_BACKEND=memory for per-process limits)";

/** The store in use, decided once per process (probing the local Redis at most once) and logged then. */
export function redisBackend(): Promise<RedisBackend> {
  return (g.__redisBackend ??= decideBackend().then((backend) => {
    // Per-process limits in production are a deliberate choice (REDIS_BACKEND=memory) but worth a warning.
    log(backend.kind === "memory" && env().NODE_ENV === "production" ? "warn" : "info", { msg: `rate limits: ${describeBackend(backend)}` });
    return backend;
  }));
}

async function decideBackend(): Promise<RedisBackend> {
  const e = env();
  if (e.UPSTASH_REDIS_REST_URL) return { kind: "upstash", url: e.UPSTASH_REDIS_REST_URL };
  const nodes = redisClusterNodes();
  if (nodes.length) return { kind: "cluster", nodes };
  if (e.REDIS_URL) return { kind: "tcp", url: e.REDIS_URL, configured: true };
  if (e.REDIS_BACKEND === "memory") return { kind: "memory", reason: "REDIS_BACKEND=memory" };
  if (e.NODE_ENV === "production") throw new Error(NO_REDIS_IN_PRODUCTION);
  if (await redisAnswers(DEFAULT_REDIS_URL)) return { kind: "tcp", url: DEFAULT_REDIS_URL, configured: false };
  return { kind: "memory", reason: `no REDIS_URL or Upstash configured and no Redis answers at ${DEFAULT_REDIS_URL}` };
}

/** True when a Redis at `url` answers PING within `timeoutMs` (a plain connection: no retries, no queue). */
export async function redisAnswers(url: string, timeoutMs = 500): Promise<boolean> {
  const client = new IORedis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * The script client of a Redis backend (Upstash's REST client, or the TCP adapter); not for `memory`. One per process
 * (on globalThis), made by whichever bundle asks first: the start-up (instrumentation.ts) or a route. Each bundle has
 * its own copy of this module's classes, so callers use the ScriptRedis interface, never `instanceof`.
 */
export function scriptRedis(backend: Exclude<RedisBackend, { kind: "memory" }>): ScriptRedis {
  if (g.__scriptRedis) return g.__scriptRedis;
  const e = env();
  g.__scriptRedis =
    backend.kind === "upstash"
      ? (new UpstashRedis({ url: backend.url, token: e.UPSTASH_REDIS_REST_TOKEN! }) as unknown as ScriptRedis)
      : new TcpScriptRedis(backend.kind === "cluster" ? createClusterRedis(backend.nodes) : createTcpRedis(backend.url));
  return g.__scriptRedis;
}

/** How the backend is described in logs (no credentials: the URL's password is dropped). */
export function describeBackend(b: RedisBackend): string {
  if (b.kind === "memory") return `in-process (${b.reason}); limits hold per process`;
  if (b.kind === "cluster") return `Redis Cluster at ${b.nodes.join(",")} (REDIS_CLUSTER_NODES)`;
  const u = new URL(b.url);
  u.password = "";
  u.username = "";
  return b.kind === "upstash" ? `Upstash (${u.host})` : `Redis at ${u.toString()}${b.configured ? "" : " (found locally; REDIS_URL unset)"}`;
}

/** Where rate limits are counted, as readiness reports it. */
export async function rateLimitBackend(): Promise<"upstash" | "redis" | "redis-cluster" | "memory"> {
  const kind = (await redisBackend()).kind;
  return kind === "tcp" ? "redis" : kind === "cluster" ? "redis-cluster" : kind;
}

/** PING the rate limiter's store (readiness); rejects when it cannot answer. The in-process store always answers. */
export async function pingRateLimitStore(): Promise<void> {
  const backend = await redisBackend();
  if (backend.kind === "memory") return;
  await scriptRedis(backend).ping();
}
