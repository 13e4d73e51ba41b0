import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import { WALLET_BALANCE_MAX } from "./schemas";

// The wallet ledger's statements. A balance moves only with its ledger row, in one statement (a data-modifying CTE):
// a credit upserts the wallet only while the balance stays within its ceiling, a debit updates it only while the
// balance covers it (the CHECKs 0 <= balance <= 2^53 - 1 are the backstop), so concurrent movements of one wallet
// queue on its row and never overdraw or overfill it.

export type Currency = "COIN";
export type WalletTxReason = "purchase" | "sale" | "fee" | "refund" | "reward" | "adjustment" | "hold" | "topup" | "clawback" | "trade";

export interface Movement {
  userId: string;
  currency: Currency;
  /** Minor units: > 0 credits, < 0 debits. */
  amount: number;
  reason: WalletTxReason;
  referenceType: string;
  referenceId: string;
  note?: string | null;
  staffId?: string | null;
}

export interface TransactionRow {
  id: string;
  currency: Currency;
  amount: number;
  balanceAfter: number;
  reason: WalletTxReason;
  referenceType: string;
  referenceId: string;
  note: string | null;
  createdAt: Date;
}

const TX_INT8 = ["amount", "balanceAfter"] as const;
const TX_COLUMNS = Prisma.sql`id::text AS id, currency::text AS currency, amount, balance_after AS "balanceAfter", reason::text AS reason,
  reference_type AS "referenceType", reference_id AS "referenceId", note, created_at AS "createdAt"`;

/**
 * The most a credit may raise a balance to: WALLET_BALANCE_MAX, except a refund (funds a hold or a payment took from
 * this wallet coming back), which is never refused below 2^53 - 1, so no one at the ceiling can block an auction, an
 * offer's closing or a reversal.
 */
const ceilingOf = (m: Movement) => (m.reason === "refund" ? Number.MAX_SAFE_INTEGER : WALLET_BALANCE_MAX);

/**
 * Writes one ledger row and moves the balance by it; none when a debit is larger than the balance or a credit would
 * take it past its ceiling. `debt` is the wallet's debt after it (lib/features/payments: a credit then settles it).
 */
export async function move(tx: RawDb | DbTx, m: Movement): Promise<(TransactionRow & { debt: number }) | undefined> {
  const wallet =
    m.amount > 0
      ? Prisma.sql`INSERT INTO wallets (user_id, currency, balance, updated_at)
          SELECT ${m.userId}::uuid, ${m.currency}::"Currency", ${m.amount}::int8, now() WHERE ${m.amount}::int8 <= ${ceilingOf(m)}::int8
          ON CONFLICT (user_id, currency) DO UPDATE SET balance = wallets.balance + EXCLUDED.balance, updated_at = now()
          WHERE wallets.balance + EXCLUDED.balance <= ${ceilingOf(m)}::int8
          RETURNING balance, debt`
      : Prisma.sql`UPDATE wallets SET balance = balance + ${m.amount}, updated_at = now()
          WHERE user_id = ${m.userId}::uuid AND currency = ${m.currency}::"Currency" AND balance + ${m.amount} >= 0
          RETURNING balance, debt`;
  const [row] = await tx.$queryRaw<Int8<TransactionRow & { debt: number }, (typeof TX_INT8)[number] | "debt">[]>`
    WITH w AS (${wallet})
    INSERT INTO wallet_transactions (id, user_id, currency, amount, balance_after, reason, reference_type, reference_id, note, staff_id)
    SELECT ${UUIDV7_SQL}, ${m.userId}::uuid, ${m.currency}::"Currency", ${m.amount}::int8, w.balance, ${m.reason}::"WalletTxReason",
           ${m.referenceType}, ${m.referenceId}, ${m.note ?? null}, ${m.staffId ?? null}
    FROM w
    RETURNING ${TX_COLUMNS}, (SELECT debt FROM w) AS debt`;
  return row && int8(row, [...TX_INT8, "debt"]);
}

/**
 * Settles the wallet's debt from its balance (lib/features/payments): one `clawback` row of min(balance, debt), referencing
 * the credit that brought the money. Run right after a credit, whose statement holds the wallet's row lock.
 */
export async function settleDebt(tx: RawDb | DbTx, userId: string, currency: Currency, creditId: string): Promise<TransactionRow | undefined> {
  const [row] = await tx.$queryRaw<Int8<TransactionRow, (typeof TX_INT8)[number]>[]>`
    WITH s AS (SELECT least(balance, debt) AS amount FROM wallets WHERE user_id = ${userId}::uuid AND currency = ${currency}::"Currency"),
    w AS (
      UPDATE wallets SET balance = wallets.balance - s.amount, debt = wallets.debt - s.amount, updated_at = now()
      FROM s WHERE wallets.user_id = ${userId}::uuid AND wallets.currency = ${currency}::"Currency" AND s.amount > 0
      RETURNING wallets.balance, s.amount)
    INSERT INTO wallet_transactions (id, user_id, currency, amount, balance_after, reason, reference_type, reference_id, note)
    SELECT ${UUIDV7_SQL}, ${userId}::uuid, ${currency}::"Currency", -w.amount, w.balance, 'clawback'::"WalletTxReason", 'debt', ${creditId},
           'Debt of a refunded or disputed top-up, settled from this credit'
    FROM w
    RETURNING ${TX_COLUMNS}`;
  return row && int8(row, TX_INT8);
}

/**
 * Takes `amount` back from a locked wallet (lib/features/payments' claw-back): what the balance holds as one `clawback` row,
 * the rest added to its debt. Answers what was taken and what is owed.
 */
export async function clawFromWallet(
  tx: RawDb | DbTx,
  c: { userId: string; currency: Currency; amount: number; referenceType: string; referenceId: string; note: string },
): Promise<{ taken: number; owed: number }> {
  const [row] = await tx.$queryRaw<{ taken: string; owed: string }[]>`
    WITH s AS (SELECT least(balance, ${c.amount}::int8) AS taken FROM wallets WHERE user_id = ${c.userId}::uuid AND currency = ${c.currency}::"Currency"),
    w AS (
      UPDATE wallets SET balance = wallets.balance - s.taken, debt = wallets.debt + (${c.amount}::int8 - s.taken), updated_at = now()
      FROM s WHERE wallets.user_id = ${c.userId}::uuid AND wallets.currency = ${c.currency}::"Currency"
      RETURNING wallets.balance, s.taken),
    t AS (
      INSERT INTO wallet_transactions (id, user_id, currency, amount, balance_after, reason, reference_type, reference_id, note)
      SELECT ${UUIDV7_SQL}, ${c.userId}::uuid, ${c.currency}::"Currency", -w.taken, w.balance, 'clawback'::"WalletTxReason", ${c.referenceType}, ${c.referenceId}, ${c.note}
      FROM w WHERE w.taken > 0)
    SELECT taken::text, (${c.amount}::int8 - taken)::text AS owed FROM w`;
  if (!row) throw new Error(`clawFromWallet: no wallet for ${c.userId} (lock it first)`);
  return { taken: Number(row.taken), owed: Number(row.owed) };
}

type BalanceRow = { currency: Currency; balance: number; debt: number; updatedAt: Date };
export async function balancesOf(db: RawDb | DbTx, userId: string): Promise<BalanceRow[]> {
  const rows = await raw(db).$queryRaw<Int8<BalanceRow, "balance" | "debt">[]>`
    SELECT currency::text AS currency, balance, debt, updated_at AS "updatedAt" FROM wallets WHERE user_id = ${userId}::uuid ORDER BY currency`;
  return rows.map((r) => int8(r, ["balance", "debt"]));
}

/** A page of a wallet's ledger, newest first (keyset on the time-ordered id). */
export async function transactionsOf(db: RawDb | DbTx, userId: string, currency: Currency, before: string | undefined, take: number) {
  const keyset = before ? Prisma.sql`AND id < ${before}::uuid` : Prisma.empty;
  const rows = await raw(db).$queryRaw<Int8<TransactionRow, (typeof TX_INT8)[number]>[]>`
    SELECT ${TX_COLUMNS} FROM wallet_transactions
    WHERE user_id = ${userId}::uuid AND currency = ${currency}::"Currency" ${keyset}
    ORDER BY id DESC
    LIMIT ${take}`;
  return rows.map((r) => int8(r, TX_INT8));
}

export interface InvariantRow {
  userId: string;
  currency: Currency;
  balance: number;
  ledgerSum: number;
  transactions: number;
}

/** Wallets whose balance differs from the sum of their ledger (none, when the books are right), and the totals. */
export async function ledgerInvariant(db: RawDb | DbTx, limit = 100) {
  const [totals] = await raw(db).$queryRaw<{ wallets: number; transactions: number; balances: number }[]>`
    SELECT (SELECT count(*)::int FROM wallets) AS wallets, (SELECT count(*)::int FROM wallet_transactions) AS transactions,
           (SELECT coalesce(sum(balance), 0)::text FROM wallets) AS balances`;
  const mismatches = await raw(db).$queryRaw<Int8<InvariantRow, "balance">[]>`
    SELECT w.user_id::text AS "userId", w.currency::text AS currency, w.balance, coalesce(t.total, 0)::text AS "ledgerSum",
           coalesce(t.n, 0)::int AS transactions
    FROM wallets w
    LEFT JOIN (SELECT user_id, currency, sum(amount) AS total, count(*) AS n FROM wallet_transactions GROUP BY user_id, currency) t
      ON t.user_id = w.user_id AND t.currency = w.currency
    WHERE w.balance <> coalesce(t.total, 0)
    ORDER BY w.user_id, w.currency
    LIMIT ${limit}`;
  return {
    wallets: totals!.wallets,
    transactions: totals!.transactions,
    balances: Number(totals!.balances),
    mismatches: mismatches.map((m) => ({ ...int8(m, ["balance"]), ledgerSum: Number(m.ledgerSum) })),
  };
}

/** Whether a sale's credit of `amount` would keep the wallet within its ceiling (read under the caller's wallet lock). */
export async function fitsCeiling(tx: RawDb | DbTx, userId: string, currency: Currency, amount: number): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ fits: boolean }[]>`
    SELECT coalesce((SELECT balance FROM wallets WHERE user_id = ${userId}::uuid AND currency = ${currency}::"Currency"), 0) + ${amount}::int8
           <= ${WALLET_BALANCE_MAX}::int8 AS fits`;
  return row!.fits;
}

/**
 * Locks the users' wallets of one currency (creating any that do not exist yet) in user-id order. A request that
 * moves money between two wallets takes this first, so two such requests never lock the same pair in opposite orders.
 */
export async function lockWallets(tx: RawDb | DbTx, userIds: string[], currency: Currency): Promise<void> {
  const ids = [...new Set(userIds)].sort();
  await tx.$executeRaw`
    INSERT INTO wallets (user_id, currency) SELECT id, ${currency}::"Currency" FROM unnest(${ids}::uuid[]) AS id ORDER BY id
    ON CONFLICT (user_id, currency) DO NOTHING`;
  await tx.$queryRaw`
    SELECT 1 FROM wallets WHERE user_id = ANY(${ids}::uuid[]) AND currency = ${currency}::"Currency" ORDER BY user_id FOR UPDATE`;
}
