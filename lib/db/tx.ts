import type { RawDb } from "./raw";

// Transaction building blocks every domain uses: options, row locks, and reading constraint violations.

/**
 * Options for an interactive transaction: wait at most 15 s for a pooled connection, and give the work `timeoutMs`
 * (15 s unless a long job asks for more). Prisma's 5 s defaults are too tight under the concurrency tests' bursts.
 */
export const txOptions = (timeoutMs = 15_000) => ({ maxWait: 15_000, timeout: timeoutMs });

/**
 * Locks the user's row for the rest of the transaction, serializing every write of one user: caps, once-only grants
 * and quotas are counted under it. False when the user does not exist. FOR NO KEY UPDATE, not FOR UPDATE: a
 * transaction has often taken FOR KEY SHARE on the row already by inserting a row that references the user (an
 * idempotency key, a ledger row), and two concurrent requests of one fan upgrading those to FOR UPDATE deadlock; NO KEY
 * UPDATE conflicts with itself (so it serializes just the same) but not with key-share locks.
 */
export async function lockUser(tx: RawDb, userId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
  return rows.length > 0;
}

/**
 * SQLSTATEs of a transaction PostgreSQL aborted because of a concurrent one, which may simply run again:
 * deadlock_detected (40P01: two transactions each waiting for a lock the other holds; one is chosen and rolled back)
 * and serialization_failure (40001: a REPEATABLE READ or SERIALIZABLE transaction met a concurrent change).
 */
const CONFLICT_SQLSTATES = new Set(["40P01", "40001"]);

/**
 * True when the error (or what it wraps: `cause`, Prisma's `meta.driverAdapterError`) is a deadlock or a serialization
 * failure: pg's `code`, the driver adapter's `originalCode` and kind `TransactionWriteConflict`, Prisma's P2034.
 */
export function isTransactionConflict(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length && seen.size < 16) {
    const e = queue.shift() as Record<string, unknown> | null | undefined;
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    if (e.code === "P2034" || e.kind === "TransactionWriteConflict") return true;
    if ([e.code, e.originalCode].some((code) => typeof code === "string" && CONFLICT_SQLSTATES.has(code))) return true;
    queue.push(e.cause, (e.meta as Record<string, unknown> | undefined)?.driverAdapterError);
  }
  return false;
}

/** How many times a transaction a conflict aborted runs again (once: a second conflict reaches the caller). */
export const CONFLICT_RETRIES = 1;

/**
 * Runs `transaction` (a whole transaction: BEGIN … COMMIT) and, when PostgreSQL aborted it for a deadlock or a
 * serialization failure, runs it once more after a short random pause (the winner of the deadlock usually commits in
 * it). The abort rolled everything back, so running the work again is safe for its database writes; a transaction's
 * work must not have effects outside the database that a second run would repeat. lib/db/client.ts wraps every
 * interactive transaction with it (`db.$transaction(fn)`, rawTransaction); the pipeline answers a conflict that
 * survives the retry 503 SERVICE_UNAVAILABLE with Retry-After, never 500 (lib/http/route.ts).
 */
export async function retryingConflicts<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= CONFLICT_RETRIES || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}

/** A unique-constraint violation: Prisma's P2002 (whichever way the driver adapter reports it) or pg's 23505 (`direct`). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } } | null;
  return e?.code === "P2002" || e?.code === "23505" || e?.meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation";
}
