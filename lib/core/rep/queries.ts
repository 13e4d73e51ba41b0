import { Prisma } from "../../generated/prisma/client";
import type { DbTx, Pool } from "../../db/client";
import { statementNamed } from "../../db/raw";
import type { RepSource } from "../../generated/prisma/enums";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";

/** Rep a user has earned (every source; spending never lowers it, a staff reversal does), from `users` as `u`. */
export const REP_EARNED = Prisma.sql`(u.rep_earned_fan_amp + u.rep_earned_club + u.rep_earned_player_amp + u.rep_earned_service_direct)`;

export interface EntryRow {
  id: string;
  source: RepSource;
  /** A number, or the bigint of a Prisma model read (converted here: lib/db/raw.ts, int8). */
  amount: number | bigint;
  reason: string;
  createdAt: Date;
}

export function toLedgerEntry(row: EntryRow) {
  return { id: row.id, source: row.source, amount: Number(row.amount), timestamp: row.createdAt.toISOString(), reason: row.reason };
}

const LEDGER_COLUMNS = `SELECT e.id, e.source, e.amount, e.reason, e.created_at AS "createdAt" FROM rep_entries e`;
// Row comparison keeps the scan on the (user_id, created_at desc, id desc) index at any depth.
const LEDGER_FIRST = `${LEDGER_COLUMNS} WHERE e.user_id = $1 ORDER BY e.created_at DESC, e.id DESC LIMIT $2`;
const LEDGER_AFTER = `${LEDGER_COLUMNS} WHERE e.user_id = $1 AND (e.created_at, e.id) < ($3, $4) ORDER BY e.created_at DESC, e.id DESC LIMIT $2`;

/** Keyset page of a user's ledger, newest first (created_at desc, id desc). A hot read: plain pg, prepared once. */
export async function listLedger(pool: Pool, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  // Plain pg gives int8 as text: the amount becomes a number here (lib/db/raw.ts: int8).
  type Row = Omit<EntryRow, "amount"> & { amount: string };
  const { rows } = after
    ? await pool.query<Row>({ name: statementNamed("rep_ledger_after"), text: LEDGER_AFTER, values: [userId, limit + 1, after.at, after.id] })
    : await pool.query<Row>({ name: statementNamed("rep_ledger_first"), text: LEDGER_FIRST, values: [userId, limit + 1] });
  const entries: EntryRow[] = rows.map((r) => ({ ...r, amount: Number(r.amount) }));
  return keysetPage("entries", entries, limit, (r) => encodeCursor(r.createdAt.getTime(), r.id), toLedgerEntry);
}

/** What an earn claim checks on the user's row (rep/service.ts: earn). */
export interface LockedUser {
  rep_balance: bigint;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  notifyTeams: boolean;
  notifyMilestones: boolean;
  notifyCommunity: boolean;
}

/** Locks the user's row for the earn's transaction, answering what the claim checks on it; undefined for no such user. */
export async function lockEarningUser(tx: DbTx, userId: string): Promise<LockedUser | undefined> {
  const locked = await tx.$queryRaw<LockedUser[]>`
        SELECT rep_balance, handle, display_name AS "displayName", avatar_url AS "avatarUrl", notify_teams AS "notifyTeams",
               notify_milestones AS "notifyMilestones", notify_community AS "notifyCommunity"
        FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
  return locked[0];
}
