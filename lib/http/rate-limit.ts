import { performance } from "node:perf_hooks";
import { Ratelimit } from "@upstash/ratelimit";
import { z } from "zod";
import { env } from "../env";
import { hashTag, redisBackend, scriptRedis, type ScriptRedis } from "../redis/client";
import { log } from "../kernel/log";

// Named policies, each served by one long-lived limiter (its ephemeral block cache must outlive requests).
export const RATE_LIMIT_POLICIES = {
  /** Writes by a signed-in user. */
  write: { tokens: 60, window: "60 s" },
  /** Rep earn attempts by a signed-in user. */
  earn: { tokens: 30, window: "60 s" },
  /** Locker-room posts and comments created by a signed-in user (spam control; reactions and votes use write). */
  ugc: { tokens: 20, window: "60 s" },
  /** Feed-signal batches by a signed-in user (POST /api/feed/signals). */
  signals: { tokens: 30, window: "60 s" },
  /** Routes that move money or ownership (buy, open, adjust): per user. */
  money: { tokens: 30, window: "60 s" },
  /** Gifts proposed per sender (trades asking nothing back; checked inside POST /api/v1/marketplace/trades and …/counter). */
  gifts: { tokens: 20, window: "1 h" },
  /** Mobile token exchanges by client address: slows down guessing. */
  exchange: { tokens: 20, window: "60 s" },
  /** Mobile session tokens minted per user by /api/mobile/callback (checked inside the flow, once the user is known). */
  mobileCallback: { tokens: 10, window: "60 s" },
  /** Search (GET /api/v1/search): per user, or per client address signed out; each call is a ranked index read. */
  search: { tokens: 120, window: "60 s" },
  /** Public lookups by client address. */
  public: { tokens: 300, window: "60 s" },
  /** Default of routes that name no policy, for callers without a session: by client address (generous: many clients share NATs). */
  anonymous: { tokens: 600, window: "60 s" },
  /** Default of routes that name no policy, for signed-in callers (bearer, admin, optional with a token): by user. */
  user: { tokens: 600, window: "60 s" },
  /** Default of cron and webhook routes: by route, so a leaked secret cannot run a job in a loop. */
  machine: { tokens: 60, window: "60 s" },
} as const;

export type RateLimitPolicy = keyof typeof RATE_LIMIT_POLICIES;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix ms when the window resets. */
  reset: number;
  /** The policy's window in seconds (for RateLimit-Policy). */
  windowSeconds: number;
  /** The limiter could not answer (Redis down or slow) and the request was let through. */
  degraded: boolean;
}

export type Limiter = (identifier: string) => Promise<RateLimitResult>;

type Duration = `${number} ${"ms" | "s" | "m" | "h"}`;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const durationMs = (d: string) => {
  const [n, unit] = d.split(" ") as [string, keyof typeof UNIT_MS];
  return Number(n) * UNIT_MS[unit];
};

/** A policy's effective numbers: the built-in ones, or RATE_LIMIT_OVERRIDES'; the window also in ms and whole seconds. */
export function policyLimits(policy: RateLimitPolicy): { tokens: number; window: Duration; windowMs: number; windowSeconds: number } {
  const { tokens, window } = { ...RATE_LIMIT_POLICIES[policy], ...overrides()[policy] };
  const windowMs = durationMs(window);
  return { tokens, window, windowMs, windowSeconds: Math.max(1, Math.round(windowMs / 1000)) };
}

/** The answer when the store cannot count (Redis down or slow, or never chosen): let the request through, logged. */
function failOpen(policy: RateLimitPolicy, why: "timed out" | "unavailable", error?: unknown): RateLimitResult {
  const { tokens, windowSeconds } = policyLimits(policy);
  log("warn", { msg: `rate limiter ${why}; failing open`, policy, ...(error === undefined ? {} : { error: String(error) }) });
  return { allowed: true, limit: tokens, remaining: tokens, reset: Date.now(), windowSeconds, degraded: true };
}

/**
 * The longest a limiter call holds a request beyond RATE_LIMIT_TIMEOUT_MS: for a Redis connection being made (at
 * start-up, or again after Redis closed it), and for an answer that came while this process was busy (answerWithin).
 * One connection attempt, one command (createTcpRedis's connectTimeout and commandTimeout). A Redis that is down is
 * not waited for.
 */
export const MAX_WAIT_MS = 1_000;

const TIMED_OUT = Symbol("timed out");

/**
 * `answer`, or TIMED_OUT when Redis has not given it after `timeoutMs` of waiting. Only time this process spends
 * waiting (its event loop idle) counts, not time it spends busy: a new process loading its routes' code for its first
 * requests is busy for hundreds of ms, while the command waits to be sent or its answer to be read, and a plain timer
 * would fire first. Busy or not, the wait ends after MAX_WAIT_MS (or `timeoutMs` when longer).
 */
function answerWithin<T>(answer: Promise<T>, timeoutMs: number): Promise<T | typeof TIMED_OUT> {
  const since = performance.eventLoopUtilization();
  const deadline = performance.now() + Math.max(timeoutMs, MAX_WAIT_MS);
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout;
    const wait = (ms: number) => {
      timer = setTimeout(() => {
        const waited = performance.eventLoopUtilization(since).idle;
        if (waited >= timeoutMs || performance.now() >= deadline) resolve(TIMED_OUT);
        else wait(Math.min(timeoutMs - waited, deadline - performance.now()));
      }, ms);
    };
    wait(timeoutMs);
    answer.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/**
 * Fails open on purpose: when Redis is down, or takes longer than RATE_LIMIT_TIMEOUT_MS to answer, the request
 * proceeds (logged as degraded). Rate limits protect capacity; they must not take the API down with them. Correctness
 * rules (caps, idempotency) live in PostgreSQL and do not depend on Redis.
 * The timeout counts from a ready connection (a call that finds it being made waits for it first) and only while the
 * process waits (answerWithin): the first requests of a new process are counted, not let through.
 */
export function createLimiter(policy: RateLimitPolicy, redis: ScriptRedis, { timeoutMs, prefix }: { timeoutMs: number; prefix: string }): Limiter {
  const { tokens, window, windowSeconds } = policyLimits(policy);
  // timeout 0: the library's own timer (a plain setTimeout) is off; answerWithin times the call.
  const limiter = new Ratelimit({
    redis: redis as never,
    limiter: Ratelimit.slidingWindow(tokens, window),
    prefix: `${prefix}:${policy}`,
    timeout: 0,
    analytics: false,
  });
  return async (identifier) => {
    try {
      await redis.whenReady?.(MAX_WAIT_MS); // throws when Redis is down
      // The sliding window's script reads the current and the previous window's keys ("<prefix>:<id>:<window>"): the
      // identifier as a hash tag keeps both in one slot of a Redis Cluster (docs/decisions/0073-redis-cluster.md).
      const r = await answerWithin(limiter.limit(hashTag(identifier)), timeoutMs);
      if (r === TIMED_OUT) return failOpen(policy, "timed out"); // its token may still be spent when the answer comes
      return { allowed: r.success, limit: r.limit || tokens, remaining: r.remaining, reset: r.reset, windowSeconds, degraded: false };
    } catch (error) {
      return failOpen(policy, "unavailable", error);
    }
  };
}

const overrideSchema = z.partialRecord(
  z.enum(Object.keys(RATE_LIMIT_POLICIES) as [RateLimitPolicy, ...RateLimitPolicy[]]),
  z.object({
    tokens: z.number().int().min(1),
    window: z
      .string()
      .regex(/^\d+ (ms|s|m|h)$/)
      .transform((w) => w as Duration),
  }),
);

let parsedOverrides: Partial<Record<RateLimitPolicy, { tokens: number; window: Duration }>> | undefined;
function overrides(): Partial<Record<RateLimitPolicy, { tokens: number; window: Duration }>> {
  if (parsedOverrides) return parsedOverrides;
  const raw = env().RATE_LIMIT_OVERRIDES;
  if (!raw) return (parsedOverrides = {});
  try {
    return (parsedOverrides = overrideSchema.parse(JSON.parse(raw)));
  } catch (error) {
    throw new Error(`Invalid environment: RATE_LIMIT_OVERRIDES: ${error instanceof Error ? error.message : error}`);
  }
}

/**
 * The in-process store (no Redis configured or reachable outside production, or REDIS_BACKEND=memory): the same
 * sliding window as @upstash/ratelimit's (windows aligned to the epoch; the previous window's count weighted by the
 * share of it still inside the sliding window, floored), the same result shape. Limits hold per process only.
 */
export function createMemoryLimiter(policy: RateLimitPolicy, { now = Date.now }: { now?: () => number } = {}): Limiter {
  const { tokens, windowMs, windowSeconds } = policyLimits(policy);
  // identifier → requests counted in the window `at` (its index since the epoch) and in the one before it.
  const buckets = new Map<string, { at: number; current: number; previous: number }>();
  let sweptAt = 0;
  return async (identifier) => {
    const t = now();
    const at = Math.floor(t / windowMs);
    if (at > sweptAt) {
      // Once per window: forget identifiers idle for two windows, so the map stays as small as the active set.
      for (const [id, b] of buckets) if (b.at < at - 1) buckets.delete(id);
      sweptAt = at;
    }
    let b = buckets.get(identifier);
    if (!b) buckets.set(identifier, (b = { at, current: 0, previous: 0 }));
    else if (b.at !== at) {
      b.previous = b.at === at - 1 ? b.current : 0;
      b.current = 0;
      b.at = at;
    }
    const weightedPrevious = Math.floor((1 - (t % windowMs) / windowMs) * b.previous);
    const reset = (at + 1) * windowMs;
    if (weightedPrevious + b.current >= tokens) return { allowed: false, limit: tokens, remaining: 0, reset, windowSeconds, degraded: false };
    b.current += 1;
    return { allowed: true, limit: tokens, remaining: tokens - (b.current + weightedPrevious), reset, windowSeconds, degraded: false };
  };
}

/**
 * Start-up (lib/startup.ts): connects the limiters' Redis and loads their script into it, so that the first requests
 * of a new process each cost one EVALSHA on a ready connection instead of racing RATE_LIMIT_TIMEOUT_MS against the
 * connection and the script's first EVAL (and failing open in a burst). Every policy runs the same sliding-window
 * script: one call with rate 0 (it spends no token) loads it. Throws when Redis does not answer within `maxWaitMs`.
 */
export async function warmUpRateLimits(maxWaitMs: number): Promise<void> {
  const backend = await redisBackend();
  if (backend.kind === "memory") return;
  const redis = scriptRedis(backend);
  await redis.whenReady?.(maxWaitMs);
  const limiter = new Ratelimit({
    redis: redis as never,
    limiter: Ratelimit.slidingWindow(1, "60 s"),
    prefix: `${env().RATE_LIMIT_PREFIX}:warm-up`,
    timeout: maxWaitMs,
  });
  if ((await limiter.limit(hashTag("start-up"), { rate: 0 })).reason === "timeout") throw new Error(`Redis did not answer within ${maxWaitMs} ms`);
}

const limiters = new Map<RateLimitPolicy, Limiter>();
/** The policy's limiter over the store lib/redis/client.ts chose (decided once per process, at start-up or first use). */
export function limiterFor(policy: RateLimitPolicy): Limiter {
  let limiter = limiters.get(policy);
  if (!limiter) {
    const e = env();
    const chosen = redisBackend().then((backend) =>
      backend.kind === "memory"
        ? createMemoryLimiter(policy)
        : createLimiter(policy, scriptRedis(backend), { timeoutMs: e.RATE_LIMIT_TIMEOUT_MS, prefix: e.RATE_LIMIT_PREFIX }),
    );
    chosen.catch(() => {}); // reported per call below
    limiter = async (identifier) => {
      try {
        return await (
          await chosen
        )(identifier);
      } catch (error) {
        // No store could be chosen (production without Redis, normally stopped at start-up): fail open like a Redis outage.
        return failOpen(policy, "unavailable", error);
      }
    };
    limiters.set(policy, limiter);
  }
  return limiter;
}

/**
 * The headers of a limited answer (IETF draft-ietf-httpapi-ratelimit-headers): the policy (`<limit>;w=<window s>`),
 * the limit, what is left and the seconds until the window resets; and the older X-RateLimit-* (reset as Unix
 * seconds) that clients already read. None when the limiter failed open.
 */
export function rateLimitHeaders(rate: RateLimitResult | undefined, now = Date.now()): Record<string, string> {
  if (!rate || rate.degraded) return {};
  const limit = String(rate.limit);
  const remaining = String(Math.max(0, rate.remaining));
  return {
    "RateLimit-Policy": `${limit};w=${rate.windowSeconds}`,
    "RateLimit-Limit": limit,
    "RateLimit-Remaining": remaining,
    "RateLimit-Reset": String(Math.max(0, Math.ceil((rate.reset - now) / 1000))),
    "X-RateLimit-Limit": limit,
    "X-RateLimit-Remaining": remaining,
    "X-RateLimit-Reset": String(Math.ceil(rate.reset / 1000)),
  };
}

export const RATE_LIMIT_HEADER_NAMES = [
  "RateLimit-Policy",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
] as const;
