import { createHash } from "node:crypto";
import { Redis as IORedis } from "ioredis";
import { Redis as UpstashRedis } from "@upstash/redis";
import { env } from "../env";

/**
 * The subset of @upstash/redis that @upstash/ratelimit calls. In production it is Upstash's REST client;
 * elsewhere an adapter over a TCP connection to the Redis at REDIS_URL.
 */
export interface ScriptRedis {
  evalsha<T = unknown>(sha: string, keys: string[], args: unknown[]): Promise<T>;
  eval<T = unknown>(script: string, keys: string[], args: unknown[]): Promise<T>;
  get<T = unknown>(key: string): Promise<T | null>;
  set(key: string, value: unknown, opts?: { px?: number; ex?: number }): Promise<unknown>;
}

// Upstash's scripts start with a shebang whose flag plain Redis rejects; the scripts do not need it.
const SHEBANG = /^#!lua[^\n]*\n/;

export class TcpScriptRedis implements ScriptRedis {
  // Library hash (sha1 of the original script) → script as we send it.
  private scripts = new Map<string, { body: string; sha: string }>();
  constructor(readonly client: IORedis) {}

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

/** A TCP client whose commands fail within about a second while Redis is down, instead of waiting for it. */
export function createTcpRedis(url: string): IORedis {
  const client = new IORedis(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 1_000,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  client.on("error", () => {}); // reported per command; do not crash the process
  return client;
}

const g = globalThis as unknown as { __scriptRedis?: ScriptRedis };

export function scriptRedis(): ScriptRedis {
  if (g.__scriptRedis) return g.__scriptRedis;
  const e = env();
  g.__scriptRedis = e.UPSTASH_REDIS_REST_URL
    ? (new UpstashRedis({ url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN! }) as unknown as ScriptRedis)
    : new TcpScriptRedis(createTcpRedis(e.REDIS_URL));
  return g.__scriptRedis;
}
