import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "../generated/prisma/client";
import { databaseUrl, dbPoolSize, transactionPooled } from "../env";
import { namedStatements, registerDirect, type RawDb } from "./raw";
import { retryingConflicts } from "./tx";

// One rule for reaching the database (README "Module contract"):
//
//   | the code                                  | uses                                              | takes          |
//   |-------------------------------------------|---------------------------------------------------|----------------|
//   | ordinary reads and writes                 | Prisma's models; db.$transaction for several      | Db / DbTx      |
//   | a measured hot path (docs/performance.md) | raw SQL through raw(db): pg, skipping Prisma      | RawDb          |
//   | a transaction of raw statements only      | rawTransaction(db, (tx) => …): BEGIN … COMMIT     | Db, then RawDb |
//   | concurrent calls of one hot statement     | lib/db/batch.ts over raw SQL, only where measured | Db             |
//
// A function takes the narrowest of these it uses: RawDb when it sends only raw SQL (then the app's client, a
// transaction or a script's client all fit), DbTx when it uses models, Db only when it opens a transaction itself.
//
// Where each lives: a domain module's raw SQL (statements and Prisma.sql fragments) only in its data files, queries.ts
// (reads, their row types, serializers), writes.ts, and <part>-queries.ts / <part>-writes.ts where a module is split
// by feature, as typed functions its other files call (ESLint refuses SQL elsewhere; decision 0070). Prisma's model
// calls are plain CRUD and may sit in a service. The infrastructure (lib/db, lib/auth, lib/http) keeps its own few.

// Db and DbTx are declared with RawDb (lib/db/raw.ts), which domain modules import without opening a pool.
export type { Db, DbTx } from "./raw";
export type Pool = pg.Pool;

// Pools are sized on purpose: a 2-core box with PostgreSQL beside it does best with few connections.
// The pool sends no startup options: a transaction pooler (PgBouncer, Supavisor, Neon's) refuses or drops them. The
// settings these sessions need (generic plans, no JIT, join reordering, a small GIN pending list) are the database's
// own, set by `npm run db:migrate` (DATABASE_SETTINGS in lib/db/migrate.ts), so every session gets them, pooled or not.
const poolConfig = (url: string, max: number): pg.PoolConfig => ({
  connectionString: url,
  max,
  idleTimeoutMillis: 30_000,
  connectionTimeoutMillis: 5_000,
});

/** A standalone pool (scripts, tests); the caller ends it. */
export const createPool = (url = databaseUrl(), max = dbPoolSize()) => new pg.Pool(poolConfig(url, max));

// Every statement Prisma sends is a named prepared statement, so PostgreSQL plans it once per connection instead of
// on every execution: planning the engagement reads (a dozen subqueries) cost more than running them. Names are a
// hash of the SQL text; the texts are the code's own (values are always parameters), so their number is bounded.
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_MAX = 5_000;
/** The statement namer of a pool: none behind a transaction pooler (`named` false: namedStatements, lib/db/raw.ts). */
const statementNamer =
  (named: () => boolean) =>
  ({ sql }: { sql: string }): string | undefined => {
    if (!named()) return undefined;
    let name = statementNames.get(sql);
    if (name === undefined) {
      if (statementNames.size >= STATEMENT_NAMES_MAX) return undefined; // unforeseen variety: leave the rest unprepared
      name = `p_${createHash("sha1").update(sql).digest("base64url")}`;
      statementNames.set(sql, name);
    }
    return name;
  };
const statementName = statementNamer(namedStatements);
// (pg runs a statement without a name unprepared; the adapter's type wants a string.)
const adapterOptionsOf = (name: (query: { sql: string }) => string | undefined) => ({
  statementNameGenerator: name as (query: { sql: string }) => string,
});
const adapterOptions = adapterOptionsOf(statementName);

/**
 * The client with its interactive transactions (`$transaction(fn, options)`) run again once when PostgreSQL aborts
 * them for a deadlock or a serialization failure (retryingConflicts, lib/db/tx.ts): every domain's transactions get
 * it without each call site asking. A batch (`$transaction([...])`) is sent as it is.
 */
function retryingTransactions(client: PrismaClient): PrismaClient {
  const begin = client.$transaction.bind(client) as (arg: unknown, options?: unknown) => Promise<unknown>;
  const $transaction = (arg: unknown, options?: unknown) => (typeof arg === "function" ? retryingConflicts(() => begin(arg, options)) : begin(arg, options));
  return Object.assign(client, { $transaction: $transaction as PrismaClient["$transaction"] });
}

/** A standalone client (scripts, tests) that owns its pool: $disconnect closes it. */
export function createDb(url = databaseUrl(), max = dbPoolSize()): PrismaClient {
  return retryingTransactions(new PrismaClient({ adapter: new PrismaPg(poolConfig(url, max), adapterOptions) }));
}

function createAppPool(url = databaseUrl()): pg.Pool {
  const pool = new pg.Pool(poolConfig(url, dbPoolSize()));
  // An idle connection dropped by the server (restart, failover) must not crash the process; the pool replaces it.
  pool.on("error", (error) => process.stderr.write(JSON.stringify({ level: "warn", msg: "idle database connection lost", error: error.message }) + "\n"));
  return pool;
}

// One pool and one client per process (Next dev reloads modules, so keep them on globalThis). Prisma runs on the
// pool; the hottest reads and writes use it directly (see raw()).
const g = globalThis as unknown as { __pool?: pg.Pool; __db?: PrismaClient };
export const pool: pg.Pool = g.__pool ?? (g.__pool = createAppPool());
export const db: PrismaClient = g.__db ?? (g.__db = retryingTransactions(new PrismaClient({ adapter: new PrismaPg(pool, adapterOptions) })));

// Values as Prisma's raw queries give them (tests/db/direct.test.ts compares the two): int8 as bigint, numeric as
// Decimal, date and timestamp as UTC instants; the other types as pg parses them (json parsed, enums as text). Money
// and Rep (int8) become numbers in the query functions that read them, on either path (lib/db/raw.ts: int8).
const utcTimestamp = (s: string) => new Date(`${s.replace(" ", "T")}Z`);
const utcDate = (s: string) => new Date(`${s}T00:00:00Z`);
const decimal = (s: string) => new Prisma.Decimal(s);
// One-dimensional arrays of these types: elements hold no commas or braces (timestamps come quoted).
const arrayOf = (parse: (s: string) => unknown) => (s: string) =>
  s === "{}"
    ? []
    : s
        .slice(1, -1)
        .split(",")
        .map((e) => (e === "NULL" ? null : parse(e.replace(/^"|"$/g, ""))));
const PARSERS: Record<number, (s: string) => unknown> = {
  20: BigInt, // int8
  1016: arrayOf(BigInt),
  1700: decimal, // numeric
  1231: arrayOf(decimal),
  1082: utcDate, // date
  1182: arrayOf(utcDate),
  1114: utcTimestamp, // timestamp without time zone
  1115: arrayOf(utcTimestamp),
};
const directTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    (format !== "binary" && PARSERS[oid]) || pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};
// Dates as UTC instants (pg would write local time with an offset: the same instant, but `::date` keeps its day).
const directValue = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
const statementOf = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) =>
  query instanceof Prisma.Sql ? query : Prisma.sql(query, ...(values as Prisma.Sql[]));
/** RawDb over a pool (each statement on its own, autocommit) or one checked-out connection (a transaction's). */
function rawOn(on: pg.Pool | pg.PoolClient, name = statementName): RawDb {
  const run = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) => {
    const { text, values: params } = statementOf(query, values);
    return on.query({ name: name({ sql: text }), text, values: params.map(directValue), types: directTypes });
  };
  return {
    $queryRaw: async <T>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => (await run(query, values)).rows as T,
    $executeRaw: async (query, ...values) => (await run(query, values)).rowCount ?? 0,
  };
}

/** Raw statements straight on the app's pool, as named prepared statements, each on its own (autocommit). */
export const direct: RawDb = rawOn(pool);

/**
 * A transaction of raw statements on one of the app pool's connections, without Prisma's client (≈ 0.3 ms of Node
 * CPU per statement, BEGIN and COMMIT included). Rolled back if `work` throws; a connection that failed is dropped.
 * Run again once when PostgreSQL aborts it for a deadlock or a serialization failure (retryingConflicts).
 */
const directTransaction = <T>(work: (tx: RawDb) => Promise<T>): Promise<T> => retryingConflicts(() => directAttempt(work));

async function directAttempt<T>(work: (tx: RawDb) => Promise<T>): Promise<T> {
  const connection = await pool.connect();
  let broken: Error | undefined;
  // A checked-out connection that breaks (a restart, a cut) emits "error": without a listener that would end the
  // process. Its statements fail on their own; the connection is dropped on release.
  const onError = (error: Error) => (broken = error);
  connection.on("error", onError);
  try {
    // Each statement, lock waits included, gets the 15 s an interactive transaction gets (txOptions).
    await connection.query("BEGIN; SET LOCAL statement_timeout = 15000");
    const result = await work(rawOn(connection));
    await connection.query("COMMIT");
    return result;
  } catch (error) {
    await connection.query("ROLLBACK").catch((rollbackFailed: Error) => (broken = rollbackFailed));
    throw error;
  } finally {
    connection.off("error", onError);
    connection.release(broken);
  }
}
registerDirect(db, direct, directTransaction);

/**
 * A read replica's pool, Prisma client and direct path, as the app's (lib/db/replica.ts makes one per replica URL,
 * on first use): the same values and the same named/unnamed rule, judged on the replica's own URL (a replica may be
 * pooled too). Writes fail there (a hot standby is read-only).
 */
export function createReplica(url: string): { pool: pg.Pool; db: PrismaClient; direct: RawDb } {
  const replicaPool = createAppPool(url);
  const pooled = transactionPooled(url);
  const name = statementNamer(() => !pooled);
  const client = new PrismaClient({ adapter: new PrismaPg(replicaPool, adapterOptionsOf(name)) });
  return { pool: replicaPool, db: client, direct: rawOn(replicaPool, name) };
}
