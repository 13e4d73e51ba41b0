import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import type { ProductRow } from "./queries";
import type { PurchaseFlag, PurchaseState } from "./schemas";

// What the staff console (/admin/payments) reads and changes: every bundle (on sale or not) and its upsert, the
// latest purchases of every fan (a flagged one marked), and the frozen wallets (a debt from a claw-back).

export interface ConsoleProduct extends ProductRow {
  active: boolean;
  sortOrder: number;
}

export async function allProducts(db: RawDb | DbTx): Promise<ConsoleProduct[]> {
  const rows = await raw(db).$queryRaw<Int8<ConsoleProduct, "coins">[]>`
    SELECT id, name, coins, prices, app_store_product_id AS "appStoreProductId", google_play_product_id AS "googlePlayProductId",
           active, sort_order AS "sortOrder"
    FROM coin_products ORDER BY sort_order, id`;
  return rows.map((r) => int8(r, ["coins"]));
}

/** The bundle, its row locked (FOR UPDATE) for the rest of the transaction; none when it does not exist yet. */
export async function lockProduct(tx: RawDb | DbTx, id: string): Promise<ConsoleProduct | undefined> {
  const [row] = await raw(tx).$queryRaw<Int8<ConsoleProduct, "coins">[]>`
    SELECT id, name, coins, prices, app_store_product_id AS "appStoreProductId", google_play_product_id AS "googlePlayProductId",
           active, sort_order AS "sortOrder"
    FROM coin_products WHERE id = ${id} FOR UPDATE`;
  return row && int8(row, ["coins"]);
}

/** Creates the bundle or replaces its fields (a store product id another bundle holds fails: unique, 23505). */
export async function saveProduct(tx: RawDb | DbTx, p: Omit<ConsoleProduct, "coins"> & { coins: number }): Promise<void> {
  await raw(tx).$executeRaw`
    INSERT INTO coin_products (id, name, coins, prices, app_store_product_id, google_play_product_id, active, sort_order)
    VALUES (${p.id}, ${p.name}, ${p.coins}::int8, ${JSON.stringify(p.prices)}::jsonb, ${p.appStoreProductId}, ${p.googlePlayProductId}, ${p.active}, ${p.sortOrder})
    ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, coins = EXCLUDED.coins, prices = EXCLUDED.prices,
      app_store_product_id = EXCLUDED.app_store_product_id, google_play_product_id = EXCLUDED.google_play_product_id,
      active = EXCLUDED.active, sort_order = EXCLUDED.sort_order`;
}

export interface ConsolePurchase {
  id: string;
  userId: string;
  handle: string | null;
  provider: string;
  providerTxnId: string | null;
  productId: string;
  coins: number;
  amount: number;
  currency: string;
  state: PurchaseState;
  clawedCoins: number;
  /** Credited while the fan could not buy coins (lib/features/payments creditPurchase): the reason's code. */
  flag: PurchaseFlag | null;
  createdAt: Date;
}

/** The latest purchases of every fan, newest first, optionally of one state (keyset on the time-ordered id). */
export async function latestPurchases(db: RawDb | DbTx, state: PurchaseState | undefined, before: string | undefined, take: number) {
  const where = [Prisma.sql`true`];
  if (state) where.push(Prisma.sql`p.state = ${state}`);
  if (before) where.push(Prisma.sql`p.id < ${before}::uuid`);
  const rows = await raw(db).$queryRaw<Int8<ConsolePurchase, "coins" | "amount" | "clawedCoins">[]>`
    SELECT p.id::text AS id, p.user_id::text AS "userId", u.handle, p.provider, p.provider_txn_id AS "providerTxnId", p.product_id AS "productId",
           p.coins, p.amount, p.currency, p.state, p.clawed_coins AS "clawedCoins", p.flag, p.created_at AS "createdAt"
    FROM coin_purchases p JOIN users u ON u.id = p.user_id
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY p.id DESC LIMIT ${take}`;
  return rows.map((r) => int8(r, ["coins", "amount", "clawedCoins"]));
}

export interface FrozenWallet {
  userId: string;
  handle: string | null;
  balance: number;
  debt: number;
  updatedAt: Date;
}

/** Wallets with a debt (frozen for trading), the largest debt first (index wallets_in_debt). */
export async function frozenWallets(db: RawDb | DbTx, take: number): Promise<FrozenWallet[]> {
  const rows = await raw(db).$queryRaw<Int8<FrozenWallet, "balance" | "debt">[]>`
    SELECT w.user_id::text AS "userId", u.handle, w.balance, w.debt, w.updated_at AS "updatedAt"
    FROM wallets w JOIN users u ON u.id = w.user_id
    WHERE w.debt > 0 ORDER BY w.debt DESC, w.user_id LIMIT ${take}`;
  return rows.map((r) => int8(r, ["balance", "debt"]));
}
