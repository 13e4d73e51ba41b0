import { z } from "zod";

// Configuration read once from the environment and validated with zod; errors name what is wrong.
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().url().default("postgresql://postgres@127.0.0.1:5432/fan_engagement"),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  REDIS_URL: z.string().url().default("redis://127.0.0.1:6379"),
  UPSTASH_REDIS_REST_URL: z.string().url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  RATE_LIMIT_TIMEOUT_MS: z.coerce.number().int().min(1).max(10_000).default(200),
  RATE_LIMIT_PREFIX: z.string().min(1).default("rl"),
  // JSON map of policy → { tokens, window } replacing the built-in numbers, e.g. '{"write":{"tokens":600,"window":"60 s"}}'.
  RATE_LIMIT_OVERRIDES: z.string().optional(),
  CLERK_JWT_KEY: z.string().optional(),
  CLERK_AUTHORIZED_PARTIES: z.string().optional(),
  CLERK_CLOCK_SKEW_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  // How long a process keeps a team's public detail (0 = never); syncs in the same process clear it.
  TEAM_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  // The Terms of Use version a user must have accepted to post user-generated content.
  UGC_TERMS_VERSION: z.string().min(1).default("2026-01"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Env = z.infer<typeof schema>;
let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  if (parsed.data.UPSTASH_REDIS_REST_URL && !parsed.data.UPSTASH_REDIS_REST_TOKEN) {
    throw new Error("Invalid environment: UPSTASH_REDIS_REST_TOKEN is required with UPSTASH_REDIS_REST_URL");
  }
  return (cached = parsed.data);
}

export const databaseUrl = () => env().DATABASE_URL;
export const dbPoolSize = () => env().DB_POOL_SIZE;
