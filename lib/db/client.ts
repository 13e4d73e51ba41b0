import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client";
import { databaseUrl, dbPoolSize } from "../env";

export type Db = PrismaClient;
/** A transaction client or the root client: domain functions accept either. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export function createDb(url = databaseUrl(), max = dbPoolSize()): PrismaClient {
  // The pool is sized on purpose: a 2-core box with PostgreSQL beside it does best with few connections.
  const adapter = new PrismaPg({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
  return new PrismaClient({ adapter });
}

// One client per process (Next dev reloads modules, so keep it on globalThis).
const g = globalThis as unknown as { __db?: PrismaClient };
export const db: PrismaClient = g.__db ?? (g.__db = createDb());
