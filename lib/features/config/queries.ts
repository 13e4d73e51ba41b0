import type { DbTx } from "../../db/client";
import { int8, raw, type Int8 } from "../../db/raw";

// Reads and writes of the remote config's three small tables. The whole config is read at once (every process
// caches it, lib/features/config/service.ts); writes are single-row upserts by key, each with its audit entry.

export interface FlagRow {
  key: string;
  description: string;
  rolloutBps: number;
  updatedBy: string;
  updatedAt: Date;
}

export interface KillSwitchRow {
  feature: string;
  paused: boolean;
  scoped: boolean;
  userIds: string[];
  message: string | null;
  updatedBy: string;
  updatedAt: Date;
}

export interface SettingRow {
  key: string;
  value: string;
  updatedBy: string;
  updatedAt: Date;
}

/** Everything, in one round trip (one statement per table, read in one transaction-less batch). */
export async function readAll(db: DbTx) {
  const [flags, switches, settings] = await Promise.all([
    raw(db).$queryRaw<FlagRow[]>`
      SELECT key, description, rollout_bps AS "rolloutBps", updated_by AS "updatedBy", updated_at AS "updatedAt" FROM feature_flags ORDER BY key`,
    raw(db).$queryRaw<KillSwitchRow[]>`
      SELECT feature, paused, scoped, COALESCE(user_ids, '{}')::text[] AS "userIds", message, updated_by AS "updatedBy", updated_at AS "updatedAt"
      FROM kill_switches ORDER BY feature`,
    raw(db).$queryRaw<SettingRow[]>`SELECT key, value, updated_by AS "updatedBy", updated_at AS "updatedAt" FROM config_settings ORDER BY key`,
  ]);
  return { flags, switches, settings };
}

export function flagOf(db: DbTx, key: string) {
  return db.featureFlag.findUnique({ where: { key } });
}

export function killSwitchOf(db: DbTx, feature: string) {
  return db.killSwitch.findUnique({ where: { feature } });
}

export function settingOf(db: DbTx, key: string) {
  return db.configSetting.findUnique({ where: { key } });
}

/**
 * Serializes the changes of one config entry (a flag, a switch, a setting): concurrent writers of the same key run
 * one after the other, so each sees the previous one's row (one create, one audit entry per real change).
 */
export async function lockEntry(tx: DbTx, kind: "flag" | "switch" | "setting", key: string): Promise<void> {
  await raw(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`config:${kind}:${key}`}, 0))`;
}

export interface AppProductRow {
  id: string;
  coins: number;
  appStoreProductId: string | null;
  googlePlayProductId: string | null;
}

/**
 * The coin bundles on sale, as the app config lists them (store product ids; prices are GET /api/v1/wallet/products).
 * A read of lib/features/payments' catalog table, which sits above this module (a top-up checks the spending limits,
 * which read the kill switches here): the same rows and order as its activeProducts.
 */
export async function appProducts(db: DbTx): Promise<AppProductRow[]> {
  const rows = await raw(db).$queryRaw<Int8<AppProductRow, "coins">[]>`
    SELECT id, coins, app_store_product_id AS "appStoreProductId", google_play_product_id AS "googlePlayProductId"
    FROM coin_products WHERE active ORDER BY sort_order, id`;
  return rows.map((r) => int8(r, ["coins"]));
}
