import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { transactionPooled } from "../env";

/** The app's Prisma client (lib/db/client.ts), which opens transactions. */
export type Db = PrismaClient;
/** A transaction client or the root client: domain functions accept either. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

// Prisma's client costs about 0.3 ms of Node CPU per statement over pg's own (measured: `SELECT 1` 0.59 ms against
// 0.17 ms), and a Node server's throughput is bounded by its CPU per request. So the app's raw statements that run
// on their own (not in a transaction) skip it: raw(db) is `direct` (lib/db/client.ts), pg on the same pool with the
// values Prisma's raw queries give. Domain modules import this file, not the client, so loading them opens no pool.

// Named prepared statements live in one server session: behind a transaction pooler the next statement may reach
// another session, where the name is unknown or taken, so there every statement goes unnamed (DATABASE_POOLER in
// lib/env.ts; what that costs: docs/decisions/0071-transaction-pooler-ready.md).
let named: boolean | undefined;
/** Whether statements may carry names: not when DATABASE_URL is a transaction pooler. */
export const namedStatements = () => (named ??= !transactionPooled());
/** A hand-named statement's name (a hot read sent on the pool), or none behind a transaction pooler. */
export const statementNamed = (name: string): string | undefined => (namedStatements() ? name : undefined);

/** What a function that sends only raw SQL needs: the app's client, a transaction, a script's client, or `direct`. */
export interface RawDb {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

// Where int8 becomes a number. Money and Rep columns are int8 (bigint in JS, from Prisma's models and from raw SQL on
// either path); the domain and JSON keep them as plain numbers, exact below 2^53 (wallets stop at WALLET_BALANCE_MAX,
// 10^15, and every money input is bounded). The data layer converts, once, where a value is read: a query function
// types those columns `bigint` in its row (Int8<Row, keys>) and returns int8(row, keys); a Prisma model read converts
// in its serializer with Number(). Sums of int8 are numeric: cast them ::int8. JSON built in SQL needs nothing.

/** `Row` as the database returns it: its int8 columns `K` as bigint (nullable ones as bigint | null). */
export type Int8<Row, K extends keyof Row> = { [P in keyof Row]: P extends K ? (null extends Row[P] ? bigint | null : bigint) : Row[P] };

type Num<T> = T extends bigint ? number : T;
/** `Row` with its columns `K` as numbers where they were bigint. */
export type Numbers<Row, K extends keyof Row> = { [P in keyof Row]: P extends K ? Num<Row[P]> : Row[P] };

/** The row with its int8 columns `keys` as numbers (converted in place: rows are the driver's fresh objects). */
export function int8<Row, K extends keyof Row>(row: Row, keys: readonly K[]): Numbers<Row, K> {
  const r = row as Record<K, unknown>;
  for (const k of keys) if (r[k] !== null) r[k] = Number(r[k]);
  return row as Numbers<Row, K>;
}

type Transaction = <T>(work: (tx: RawDb) => Promise<T>) => Promise<T>;
let app: { client: unknown; direct: RawDb; transaction: Transaction } | undefined;

/** Called once by lib/db/client.ts: the app's client, its direct path and its direct transactions. */
export function registerDirect(client: unknown, direct: RawDb, transaction: Transaction): void {
  app = { client, direct, transaction };
}

// A read replica's client and its direct path (lib/db/replica.ts registers each), so raw(db) skips Prisma there too.
const replicaDirects = new WeakMap<object, RawDb>();
/** Called by lib/db/replica.ts for each replica's client. */
export function registerReplicaDirect(client: object, direct: RawDb): void {
  replicaDirects.set(client, direct);
}

/** `direct` for the app's own client (or a replica's); a transaction or any other client as given (its statements stay in it). */
export const raw = (client: RawDb | DbTx): RawDb => (app && client === app.client ? app.direct : (replicaDirects.get(client) ?? (client as RawDb)));

/**
 * A transaction whose work sends only raw statements: on the app's client, on one of its pool's connections without
 * Prisma (BEGIN … COMMIT); on any other client, its own interactive transaction with `options`.
 */
export function rawTransaction<T>(client: Db, work: (tx: RawDb) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T> {
  return app && client === app.client ? app.transaction(work) : client.$transaction((tx) => work(tx), options);
}
