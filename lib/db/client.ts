import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client";
import { databaseUrl, dbPoolSize } from "../env";

export type Db = PrismaClient;
/** A transaction client or the root client: domain functions accept either. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;
export type Pool = pg.Pool;

// The pool is sized on purpose: a 2-core box with PostgreSQL beside it does best with few connections.
export const createPool = (url = databaseUrl(), max = dbPoolSize()) =>
  new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });

export function createDb(url = databaseUrl(), max = dbPoolSize(), pool = createPool(url, max)): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}

// One pool and one client per process (Next dev reloads modules, so keep them on globalThis). Prisma runs on the
// pool; the hottest reads use it directly with named prepared statements (planned once per connection, and
// about 0.15 ms less Node CPU per query than Prisma's raw-query path, measured).
const g = globalThis as unknown as { __pool?: pg.Pool; __db?: PrismaClient };
export const pool: pg.Pool = g.__pool ?? (g.__pool = createPool());
export const db: PrismaClient = g.__db ?? (g.__db = createDb(undefined, undefined, pool));
