import { Ratelimit } from "@upstash/ratelimit";
import { z } from "zod";
import { env } from "../env";
import { scriptRedis, type ScriptRedis } from "../redis/client";
import { log } from "./log";

// Named policies, each served by one long-lived limiter (its ephemeral block cache must outlive requests).
export const RATE_LIMIT_POLICIES = {
  /** Writes by a signed-in user. */
  write: { tokens: 60, window: "60 s" },
  /** Rep earn attempts by a signed-in user. */
  earn: { tokens: 30, window: "60 s" },
  /** Mobile token exchanges by client address: slows down guessing. */
  exchange: { tokens: 20, window: "60 s" },
  /** Mobile session tokens minted per user by /api/mobile/callback (checked inside the flow, once the user is known). */
  mobileCallback: { tokens: 10, window: "60 s" },
  /** Public lookups by client address. */
  public: { tokens: 300, window: "60 s" },
} as const;

export type RateLimitPolicy = keyof typeof RATE_LIMIT_POLICIES;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix ms when the window resets. */
  reset: number;
  /** The limiter could not answer (Redis down or slow) and the request was let through. */
  degraded: boolean;
}

export type Limiter = (identifier: string) => Promise<RateLimitResult>;

/**
 * Fails open on purpose: when Redis is unreachable or slower than RATE_LIMIT_TIMEOUT_MS the request
 * proceeds (logged as degraded). Rate limits protect capacity; they must not take the API down with them.
 * Correctness rules (caps, idempotency) live in PostgreSQL and do not depend on Redis.
 */
export function createLimiter(
  policy: RateLimitPolicy,
  redis: ScriptRedis,
  { timeoutMs, prefix }: { timeoutMs: number; prefix: string },
): Limiter {
  const { tokens, window } = { ...RATE_LIMIT_POLICIES[policy], ...overrides()[policy] };
  const limiter = new Ratelimit({
    redis: redis as never,
    limiter: Ratelimit.slidingWindow(tokens, window),
    prefix: `${prefix}:${policy}`,
    timeout: timeoutMs,
    analytics: false,
  });
  return async (identifier) => {
    try {
      const r = await limiter.limit(identifier);
      const degraded = r.reason === "timeout";
      if (degraded) log("warn", { msg: "rate limiter timed out; failing open", policy });
      return { allowed: r.success, limit: r.limit || tokens, remaining: r.remaining, reset: r.reset, degraded };
    } catch (error) {
      log("warn", { msg: "rate limiter unavailable; failing open", policy, error: String(error) });
      return { allowed: true, limit: tokens, remaining: tokens, reset: Date.now(), degraded: true };
    }
  };
}

type Duration = `${number} ${"ms" | "s" | "m" | "h"}`;
const overrideSchema = z.partialRecord(
  z.enum(Object.keys(RATE_LIMIT_POLICIES) as [RateLimitPolicy, ...RateLimitPolicy[]]),
  z.object({ tokens: z.number().int().min(1), window: z.string().regex(/^\d+ (ms|s|m|h)$/).transform((w) => w as Duration) }),
);

function overrides(): Partial<Record<RateLimitPolicy, { tokens: number; window: Duration }>> {
  const raw = env().RATE_LIMIT_OVERRIDES;
  if (!raw) return {};
  try {
    return overrideSchema.parse(JSON.parse(raw));
  } catch (error) {
    throw new Error(`Invalid environment: RATE_LIMIT_OVERRIDES: ${error instanceof Error ? error.message : error}`);
  }
}

const limiters = new Map<RateLimitPolicy, Limiter>();

export function limiterFor(policy: RateLimitPolicy): Limiter {
  let limiter = limiters.get(policy);
  if (!limiter) {
    const e = env();
    limiter = createLimiter(policy, scriptRedis(), { timeoutMs: e.RATE_LIMIT_TIMEOUT_MS, prefix: e.RATE_LIMIT_PREFIX });
    limiters.set(policy, limiter);
  }
  return limiter;
}
