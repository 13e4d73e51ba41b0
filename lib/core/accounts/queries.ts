import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";

// Account deletion's statements: the caller's scheduled deletion, the coins it forfeits, and the erasure cron's
// claims. The erasure's own statements (one per table) are in lib/operations/erasure/writes.ts.

export interface DeletionRow {
  state: "scheduled" | "erased";
  requestedAt: Date;
  dueAt: Date;
}

const COLUMNS = Prisma.sql`state, requested_at AS "requestedAt", due_at AS "dueAt"`;

export async function deletionOf(db: RawDb | DbTx, userId: string): Promise<DeletionRow | undefined> {
  const [row] = await raw(db).$queryRaw<DeletionRow[]>`SELECT ${COLUMNS} FROM account_deletions WHERE user_id = ${userId}::uuid`;
  return row;
}

/** Schedules the deletion once: a second request keeps the first (its date unchanged). The row either way. */
export async function insertDeletion(db: RawDb | DbTx, userId: string, graceDays: number): Promise<DeletionRow> {
  const [row] = await raw(db).$queryRaw<DeletionRow[]>`
    WITH ins AS (
      INSERT INTO account_deletions (user_id, due_at, not_before)
      VALUES (${userId}::uuid, now() + make_interval(days => ${graceDays}::int), now() + make_interval(days => ${graceDays}::int))
      ON CONFLICT (user_id) DO NOTHING
      RETURNING ${COLUMNS})
    SELECT * FROM ins UNION ALL SELECT ${COLUMNS} FROM account_deletions WHERE user_id = ${userId}::uuid AND NOT EXISTS (SELECT 1 FROM ins)`;
  return row!;
}

/**
 * The scheduled deletion locked for a cancel, unless the erasure holds it: `locked` when a row exists that another
 * transaction (the erasure's claim) holds, `none` when there is no row.
 */
export async function lockDeletionForCancel(tx: RawDb | DbTx, userId: string): Promise<DeletionRow | "locked" | "none"> {
  const [row] = await raw(tx).$queryRaw<DeletionRow[]>`SELECT ${COLUMNS} FROM account_deletions WHERE user_id = ${userId}::uuid FOR UPDATE SKIP LOCKED`;
  if (row) return row;
  return (await deletionOf(tx, userId)) ? "locked" : "none";
}

export const deleteScheduledDeletion = (tx: RawDb | DbTx, userId: string) =>
  raw(tx).$executeRaw`DELETE FROM account_deletions WHERE user_id = ${userId}::uuid AND state = 'scheduled'`;

/** The caller's coins: the COIN balance, and what open offers, leading bids and open trades hold (minor units). */
export async function coinsOf(db: RawDb | DbTx, userId: string): Promise<{ balance: number; held: number }> {
  const [row] = await raw(db).$queryRaw<{ balance: string; held: string }[]>`
    SELECT coalesce((SELECT balance FROM wallets WHERE user_id = ${userId}::uuid AND currency = 'COIN'), 0)::text AS balance,
           (coalesce((SELECT sum(amount) FROM offers WHERE buyer_id = ${userId}::uuid AND status = 'open'), 0)
            + coalesce((SELECT sum(max_amount) FROM bids WHERE bidder_id = ${userId}::uuid AND released_at IS NULL
                        AND EXISTS (SELECT 1 FROM listings l WHERE l.top_bid_id = bids.id AND l.status = 'active')), 0)
            + coalesce((SELECT sum(offer_coins) FROM trades WHERE proposer_id = ${userId}::uuid AND status = 'open'), 0))::text AS held`;
  return { balance: Number(row!.balance), held: Number(row!.held) };
}

/**
 * Claims one scheduled deletion whose time has come, skipping one another run holds: the row stays locked for the
 * claiming transaction (the erasure), so a cancel meanwhile answers 409 and a concurrent run takes the next one.
 */
export async function claimDueDeletion(tx: DbTx, skip: string[]): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ userId: string }[]>`
    SELECT user_id::text AS "userId" FROM account_deletions
    WHERE state = 'scheduled' AND not_before <= now() AND user_id <> ALL(${skip}::uuid[])
    ORDER BY not_before LIMIT 1 FOR UPDATE SKIP LOCKED`;
  return row?.userId;
}

/** Pushes a scheduled deletion's next attempt later (it must wait, or it failed). */
export const postponeDeletion = (db: RawDb | DbTx, userId: string, minutes: number, error: string | null) =>
  raw(db).$executeRaw`
    UPDATE account_deletions SET not_before = now() + make_interval(mins => ${minutes}::int), attempts = attempts + 1, last_error = ${error}
    WHERE user_id = ${userId}::uuid AND state = 'scheduled'`;

/** Marks the deletion erased, with the follow-up work left for after the commit. */
export const markErased = (tx: DbTx, userId: string, e: { coinsForfeited: number; files: string[]; idpSubject: string }) =>
  tx.$executeRaw`
    UPDATE account_deletions SET state = 'erased', erased_at = now(), not_before = now(), attempts = attempts + 1, last_error = NULL,
           coins_forfeited = ${e.coinsForfeited}::int8, pending_files = ${e.files}::text[], idp_subject = ${e.idpSubject}
    WHERE user_id = ${userId}::uuid AND state = 'scheduled'`;

export interface FollowUpRow {
  userId: string;
  pendingFiles: string[];
  idpSubject: string | null;
}

/** Erased accounts with follow-up work due (files, the identity-provider user), claimed like the erasures. */
export async function claimFollowUp(tx: DbTx, skip: string[]): Promise<FollowUpRow | undefined> {
  const [row] = await tx.$queryRaw<FollowUpRow[]>`
    SELECT user_id::text AS "userId", coalesce(pending_files, '{}') AS "pendingFiles", idp_subject AS "idpSubject" FROM account_deletions
    WHERE state = 'erased' AND not_before <= now() AND user_id <> ALL(${skip}::uuid[])
    ORDER BY not_before LIMIT 1 FOR UPDATE SKIP LOCKED`;
  return row;
}

/** What is left of the follow-up: done ('infinity'), or retried in `minutes`. */
export const setFollowUp = (db: RawDb | DbTx, userId: string, left: { files: string[]; idpSubject: string | null }, minutes: number, error: string | null) =>
  raw(db).$executeRaw`
    UPDATE account_deletions SET pending_files = ${left.files}::text[], idp_subject = ${left.idpSubject}, last_error = ${error},
           not_before = CASE WHEN ${left.files.length === 0 && left.idpSubject === null} THEN 'infinity'::timestamptz ELSE now() + make_interval(mins => ${minutes}::int) END
    WHERE user_id = ${userId}::uuid AND state = 'erased'`;

/**
 * The trading gate's test (lib/features/moderation assertMayTrade folds it in): true while the user's deletion is
 * scheduled (they answer 409 ACCOUNT_DELETION_PENDING). A SQL boolean over the account_deletions primary key.
 */
export const deletionPendingSql = (userId: Prisma.Sql) =>
  Prisma.sql`EXISTS (SELECT 1 FROM account_deletions ad WHERE ad.user_id = ${userId} AND ad.state = 'scheduled')`;

export interface QueueRow {
  userId: string;
  handle: string | null;
  requestedAt: Date;
  dueAt: Date;
  notBefore: Date;
  attempts: number;
  lastError: string | null;
}

/** The deletion queue (the staff console): scheduled deletions by when the cron may next take them, a keyset page. */
export function deletionQueue(db: RawDb | DbTx, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (d.not_before, d.user_id) > (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<QueueRow[]>`
    SELECT d.user_id::text AS "userId", u.handle, d.requested_at AS "requestedAt", d.due_at AS "dueAt", d.not_before AS "notBefore",
           d.attempts, d.last_error AS "lastError"
    FROM account_deletions d JOIN users u ON u.id = d.user_id
    WHERE d.state = 'scheduled' ${keyset}
    ORDER BY d.not_before, d.user_id LIMIT ${take}`;
}
