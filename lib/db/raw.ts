import type { Prisma } from "../generated/prisma/client";
import type { Db, DbTx } from "./client";

// Prisma's client costs about 0.3 ms of Node CPU per statement over pg's own (measured: `SELECT 1` 0.59 ms against
// 0.17 ms), and a Node server's throughput is bounded by its CPU per request. So the app's raw statements that run
// on their own (not in a transaction) skip it: raw(db) is `direct` (lib/db/client.ts), pg on the same pool with the
// values Prisma's raw queries give. Domain modules import this file, not the client, so loading them opens no pool.

/** What a function that sends only raw SQL needs: the app's client, a transaction, a script's client, or `direct`. */
export interface RawDb {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

type Transaction = <T>(work: (tx: RawDb) => Promise<T>) => Promise<T>;
let app: { client: unknown; direct: RawDb; transaction: Transaction } | undefined;

/** Called once by lib/db/client.ts: the app's client, its direct path and its direct transactions. */
export function registerDirect(client: unknown, direct: RawDb, transaction: Transaction): void {
  app = { client, direct, transaction };
}

/** `direct` for the app's own client; a transaction or any other client as given (its statements stay in it). */
export const raw = (client: RawDb | DbTx): RawDb => (app && client === app.client ? app.direct : (client as RawDb));

/**
 * A transaction whose work sends only raw statements: on the app's client, on one of its pool's connections without
 * Prisma (BEGIN … COMMIT); on any other client, its own interactive transaction with `options`.
 */
export function rawTransaction<T>(client: Db, work: (tx: RawDb) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T> {
  return app && client === app.client ? app.transaction(work) : client.$transaction((tx) => work(tx), options);
}
