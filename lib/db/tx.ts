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

/** A unique-constraint violation: Prisma's P2002 (whichever way the driver adapter reports it) or pg's 23505 (`direct`). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } } | null;
  return e?.code === "P2002" || e?.code === "23505" || e?.meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation";
}
