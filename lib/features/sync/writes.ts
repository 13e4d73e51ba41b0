import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { raw } from "../../db/raw";

// The sync's own statements: the lock every run holds, and the webhook's delivery claims.

/** pg_advisory_xact_lock key shared by every sync run (advisory locks are per database). */
const SYNC_LOCK_KEY = 7_301_955_118;

/** Takes the sync lock for the rest of the transaction: a second run waits for the first. */
export async function lockSync(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SYNC_LOCK_KEY}::bigint)`;
}

/** Drops `source`'s delivery claims older than a day. */
export async function deleteOldDeliveries(db: PrismaClient, source: string): Promise<void> {
  await raw(db).$executeRaw`DELETE FROM webhook_deliveries WHERE source = ${source} AND received_at < now() - interval '1 day'`;
}

/** Claims a delivery id of `source` (INSERT … ON CONFLICT DO NOTHING): true the first time, false for a replay. */
export async function insertDelivery(db: PrismaClient, source: string, id: string): Promise<boolean> {
  const rows = await raw(db).$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (id, source, received_at) VALUES (${id}, ${source}, now())
    ON CONFLICT (id) DO NOTHING RETURNING id`;
  return rows.length === 1;
}
