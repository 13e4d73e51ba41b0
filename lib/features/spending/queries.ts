import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import type { LimitKind, LimitPeriod } from "./schemas";

// Spending limits' statements. Periods are the UTC day and the UTC calendar month, on the database's clock.

export interface LimitRow {
  kind: LimitKind;
  period: LimitPeriod;
  amount: number;
  pendingAmount: number | null;
  pendingFrom: Date | null;
  /** pendingFrom has passed: the raise is the limit now. */
  raised: boolean;
}

export async function limitRowsOf(db: RawDb | DbTx, userId: string): Promise<LimitRow[]> {
  const rows = await raw(db).$queryRaw<Int8<LimitRow, "amount" | "pendingAmount">[]>`
    SELECT kind, period, amount, pending_amount AS "pendingAmount", pending_from AS "pendingFrom", COALESCE(pending_from <= now(), false) AS raised
    FROM spending_limits WHERE user_id = ${userId}::uuid`;
  return rows.map((r) => int8(r, ["amount", "pendingAmount"]));
}

export function putLimit(
  tx: RawDb | DbTx,
  userId: string,
  l: { kind: LimitKind; period: LimitPeriod; amount: number; pendingAmount: number | null; pendingHours: number },
) {
  const pendingFrom = l.pendingAmount === null ? Prisma.sql`NULL::timestamptz` : Prisma.sql`now() + make_interval(hours => ${l.pendingHours}::int)`;
  return raw(tx).$executeRaw`
    INSERT INTO spending_limits (user_id, kind, period, amount, pending_amount, pending_from, updated_at)
    VALUES (${userId}::uuid, ${l.kind}, ${l.period}, ${l.amount}::int8, ${l.pendingAmount}::int8, ${pendingFrom}, now())
    ON CONFLICT (user_id, kind, period) DO UPDATE
      SET amount = EXCLUDED.amount, pending_amount = EXCLUDED.pending_amount, pending_from = EXCLUDED.pending_from, updated_at = now()`;
}

export interface Usage {
  packsDay: number;
  packsMonth: number;
  topupsDay: number;
  topupsMonth: number;
  dayEndsAt: Date;
  monthEndsAt: Date;
}

const DAY_START = Prisma.sql`(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
const MONTH_START = Prisma.sql`(date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/**
 * The user's pack spend and coins bought (top-ups started or paid, not failed ones) this UTC day and month, and when
 * each period ends. Index pack_purchases (user_id, created_at); a fan's coin purchases by coin_purchases (user_id, id).
 */
export async function usageOf(db: RawDb | DbTx, userId: string): Promise<Usage> {
  const [row] = await raw(db).$queryRaw<Int8<Usage, "packsDay" | "packsMonth" | "topupsDay" | "topupsMonth">[]>`
    SELECT (SELECT COALESCE(sum(p.price) FILTER (WHERE p.created_at >= ${DAY_START}), 0)::int8 FROM pack_purchases p
            WHERE p.user_id = ${userId}::uuid AND p.created_at >= ${MONTH_START} AND p.source = 'purchase') AS "packsDay",
           (SELECT COALESCE(sum(p.price), 0)::int8 FROM pack_purchases p
            WHERE p.user_id = ${userId}::uuid AND p.created_at >= ${MONTH_START} AND p.source = 'purchase') AS "packsMonth",
           (SELECT COALESCE(sum(c.coins) FILTER (WHERE c.created_at >= ${DAY_START}), 0)::int8 FROM coin_purchases c
            WHERE c.user_id = ${userId}::uuid AND c.created_at >= ${MONTH_START} AND c.state <> 'failed') AS "topupsDay",
           (SELECT COALESCE(sum(c.coins), 0)::int8 FROM coin_purchases c
            WHERE c.user_id = ${userId}::uuid AND c.created_at >= ${MONTH_START} AND c.state <> 'failed') AS "topupsMonth",
           ${DAY_START} + interval '1 day' AS "dayEndsAt", ${MONTH_START} + interval '1 month' AS "monthEndsAt"`;
  return int8(row!, ["packsDay", "packsMonth", "topupsDay", "topupsMonth"]);
}

/** The fan's country setting (users.country), if any. */
export async function countrySetting(db: RawDb | DbTx, userId: string): Promise<string | null> {
  const [row] = await raw(db).$queryRaw<{ country: string | null }[]>`SELECT country FROM users WHERE id = ${userId}::uuid`;
  return row?.country ?? null;
}
