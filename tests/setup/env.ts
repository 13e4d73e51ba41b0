import { inject } from "vitest";

// Domain tests import lib modules that read the environment: point them at this run's database.
process.env.DATABASE_URL = inject("databaseUrl");
process.env.DB_POOL_SIZE = "4";
process.env.CLERK_JWT_KEY = inject("publicKey");
process.env.LOG_LEVEL = "silent";
process.env.LEADERBOARD_PREFIX = `lb:${inject("redisPrefix")}`;
// The servers' Redis (one, or the fleet's cluster), for tests that read or write boards and limits themselves.
Object.assign(process.env, inject("redisEnv"));
