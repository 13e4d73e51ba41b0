// Is a failure "PostgreSQL cannot be reached right now" (a restart, a failover, a network cut, a full server) rather
// than a bug or a bad query? The pipeline answers those 503 SERVICE_UNAVAILABLE with Retry-After instead of a 500.
// No imports: lib/http uses it without loading the Prisma client.

/** Seconds a client should wait before retrying a request that found the database unavailable. */
export const DATABASE_RETRY_AFTER_S = 5;

/** Socket failures of pg (node:net), and what the driver adapter maps them to. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
/**
 * SQLSTATEs of a server that is going away or not taking connections: admin_shutdown (57P01: fast shutdown or
 * pg_terminate_backend of every session), crash_shutdown (57P02), cannot_connect_now (57P03: starting up, shutting
 * down, in recovery), too_many_connections (53300). Class 08 (connection exceptions) is matched by prefix.
 */
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** Prisma: can't reach the server (P1001), reached but timed out (P1002), the server closed the connection (P1017). */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017"]);
/** @prisma/adapter-pg's DriverAdapterError kinds (error.meta.driverAdapterError.cause.kind). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** pg's own errors, which carry no code: a socket closed under a query, a connect timeout, a broken client reused. */
const PG_MESSAGES = /\b(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)\b/;

type Bag = Record<string, unknown>;

function matches(e: Bag): boolean {
  for (const key of ["code", "originalCode", "errorCode"] as const) {
    const code = e[key];
    if (typeof code !== "string") continue;
    if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || PRISMA_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
  return typeof e.message === "string" && PG_MESSAGES.test(e.message);
}

/**
 * True when the error (or what it wraps: `cause`, an AggregateError's `errors`, Prisma's
 * `meta.driverAdapterError`) says the database is unreachable or refusing connections. Errors of a reachable
 * database (constraint violations, syntax errors, statement timeouts, serialization failures) are not.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length && seen.size < 32) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const bag = e as Bag;
    if (matches(bag)) return true;
    queue.push(bag.cause, (bag.meta as Bag | undefined)?.driverAdapterError);
    if (Array.isArray(bag.errors)) queue.push(...bag.errors);
  }
  return false;
}
