import { recordAudit, type StaffActor } from "../audit/service";
import { walletAdjustmentLimit } from "../../auth/roles";
import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { lockUser, txOptions } from "../../db/tx";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { DomainError, notFound, validationError } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import { balancesOf, move, settleDebt, transactionsOf, type Movement, type TransactionRow } from "./queries";

export { clawFromWallet, fitsCeiling, ledgerInvariant, lockWallets } from "./queries";
import { adjustmentBody, CURRENCIES, DECIMALS, WALLET_BALANCE_MAX, type AdjustmentInput } from "./schemas";
import { errors as walletsErrors } from "./errors";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { balancesOf, transactionsOf } from "./queries";

// Wallets: a balance per user and currency in integer minor units, moved only with an append-only ledger row
// (lib/core/wallets/queries.ts). Other modules pay and get paid through pay() and credit(), inside their own transaction.

export const toTransaction = ({ debt: _debt, ...t }: TransactionRow & { debt?: number }) => ({ ...t, createdAt: t.createdAt.toISOString() });

const insufficient = (amount: number, currency: string) =>
  new DomainError(
    walletsErrors.INSUFFICIENT_FUNDS,
    `Your ${currency} balance does not cover ${(amount / 10 ** DECIMALS.COIN).toFixed(DECIMALS.COIN)} ${currency}.`,
  );

/** Debits `amount` (> 0) minor units in the caller's transaction, else 409 INSUFFICIENT_FUNDS (the transaction rolls back). */
export async function pay(tx: RawDb | DbTx, m: Omit<Movement, "amount"> & { amount: number }) {
  const row = await move(tx, { ...m, amount: -m.amount });
  if (!row) throw insufficient(m.amount, m.currency);
  return row;
}

const coins = (minor: number) => (minor / 10 ** DECIMALS.COIN).toLocaleString("en-US", { minimumFractionDigits: DECIMALS.COIN });

/**
 * Credits `amount` (> 0) minor units in the caller's transaction, else 409 BALANCE_LIMIT (past the wallet ceiling).
 * A wallet in debt (a clawed-back top-up, lib/features/payments) settles it from the credit first, in the same transaction.
 */
export async function credit(tx: RawDb | DbTx, m: Movement) {
  const row = await move(tx, m);
  if (!row) {
    throw new DomainError(
      walletsErrors.BALANCE_LIMIT,
      `This would take a ${m.currency} wallet past its ceiling of ${coins(WALLET_BALANCE_MAX)} ${m.currency}; nothing changed.`,
    );
  }
  if (row.debt > 0) await settleDebt(tx, m.userId, m.currency, row.id);
  return row;
}

/** Every currency's wallet of the user (a wallet that never moved shows 0). */
export async function getWallets(db: RawDb | DbTx, userId: string) {
  const rows = await balancesOf(db, userId);
  return {
    wallets: CURRENCIES.map((currency) => {
      const w = rows.find((r) => r.currency === currency);
      return {
        currency,
        balance: w?.balance ?? 0,
        debt: w?.debt ?? 0,
        frozen: (w?.debt ?? 0) > 0,
        decimals: DECIMALS[currency],
        updatedAt: w?.updatedAt.toISOString() ?? null,
      };
    }),
  };
}

export async function listTransactions(db: RawDb | DbTx, userId: string, q: { currency: "COIN"; cursor?: string; limit: number }) {
  const rows = await transactionsOf(db, userId, q.currency, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("transactions", rows, q.limit, (r) => encodeIdCursor(r.id), toTransaction);
}

/**
 * A staff credit or debit with its reason (at most ADJUSTMENT_MAX minor units either way, checked by the callers'
 * schemas and again here; staff other than admin at most their role's limit, else 403 ADJUSTMENT_OVER_LIMIT): one
 * ledger row (reason `adjustment`, the staff member as referenceId) and its audit entry (`wallet.adjust` on the user,
 * with the role used), in one transaction under the user's row lock (the project's lock order: user, then wallet). A
 * debit beyond the balance is 409 INSUFFICIENT_FUNDS, past the ceiling 409 BALANCE_LIMIT: nothing changes.
 */
export async function adjust(db: Db, input: AdjustmentInput, actor: StaffActor) {
  const parsed = adjustmentBody.safeParse(input);
  if (!parsed.success) {
    throw validationError(
      "The adjustment is invalid.",
      parsed.error.issues.map((i) => ({ path: ["body", ...i.path].join("."), message: i.message })),
    );
  }
  const valid = parsed.data;
  const limit = walletAdjustmentLimit(actor.role);
  if (limit !== null && Math.abs(valid.amount) > limit) {
    throw new DomainError(walletsErrors.ADJUSTMENT_OVER_LIMIT, `Your role (${actor.role}) may adjust a wallet by at most ${limit} minor units at a time.`);
  }
  return db.$transaction(async (tx) => {
    if (!(await lockUser(tx, valid.userId))) throw notFound("User");
    const m: Movement = {
      userId: valid.userId,
      currency: valid.currency,
      amount: valid.amount,
      reason: "adjustment",
      referenceType: "staff",
      referenceId: actor.id,
      note: valid.note,
      staffId: actor.id,
    };
    const row = valid.amount > 0 ? await credit(tx, m) : await pay(tx, { ...m, amount: -valid.amount });
    await recordAudit(tx, actor, {
      action: "wallet.adjust",
      targetType: "user",
      targetId: valid.userId,
      before: { currency: valid.currency, balance: row.balanceAfter - valid.amount },
      after: { currency: valid.currency, balance: row.balanceAfter, amount: valid.amount, transactionId: row.id },
      note: valid.note,
    });
    return { userId: valid.userId, transaction: toTransaction(row) };
  }, txOptions());
}
