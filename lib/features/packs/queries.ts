import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import type { Rarity, Weights } from "./draw";

// Packs, their odds tables, purchases, openings and the draw seeds.

export interface PackRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  price: number;
  currency: "COIN";
  itemsPerPack: number;
  stock: number | null;
  soldCount: number;
  saleStartsAt: Date | null;
  saleEndsAt: Date | null;
  isFreeStarter: boolean;
  active: boolean;
  oddsVersion: number;
  weights: Weights;
  poolSizes: Record<Rarity, number>;
}

const PACK = Prisma.sql`
  SELECT p.id, p.slug, p.name, p.description, p.price, p.currency::text AS currency, p.items_per_pack AS "itemsPerPack", p.stock,
         p.sold_count AS "soldCount", p.sale_starts_at AS "saleStartsAt", p.sale_ends_at AS "saleEndsAt", p.is_free_starter AS "isFreeStarter",
         p.active, p.odds_version AS "oddsVersion", o.weights,
         (SELECT jsonb_object_agg(k, jsonb_array_length(v)) FROM jsonb_each(o.pool) AS e(k, v)) AS "poolSizes"
  FROM packs p JOIN pack_odds_tables o ON o.pack_id = p.id AND o.version = p.odds_version`;

/** Active packs, starter pack included (it is granted, not sold), by price then id. */
export async function activePacks(db: RawDb | DbTx) {
  const rows = await raw(db).$queryRaw<Int8<PackRow, "price">[]>`${PACK} WHERE p.active ORDER BY p.price, p.id`;
  return rows.map((r) => int8(r, ["price"]));
}

export async function packById(db: RawDb | DbTx, id: string): Promise<PackRow | undefined> {
  const [row] = await raw(db).$queryRaw<Int8<PackRow, "price">[]>`${PACK} WHERE p.id = ${id} AND p.active`;
  return row && int8(row, ["price"]);
}

export interface OddsTableRow {
  packId: string;
  version: number;
  weights: Weights;
  pool: Record<Rarity, string[]>;
  createdAt: Date;
}

export async function oddsTable(db: RawDb | DbTx, packId: string, version: number): Promise<OddsTableRow | undefined> {
  const [row] = await raw(db).$queryRaw<OddsTableRow[]>`
    SELECT pack_id AS "packId", version, weights, pool, created_at AS "createdAt" FROM pack_odds_tables WHERE pack_id = ${packId} AND version = ${version}`;
  return row;
}

/**
 * Takes one pack from sale: counts it sold when it is active, on sale now, not the starter pack and within its
 * stock (a conditional UPDATE: the last packs go to exactly as many buyers). None otherwise.
 */
export async function takePack(tx: DbTx, id: string): Promise<{ price: number; currency: "COIN"; oddsVersion: number } | undefined> {
  const [row] = await tx.$queryRaw<{ price: bigint; currency: "COIN"; oddsVersion: number }[]>`
    UPDATE packs SET sold_count = sold_count + 1
    WHERE id = ${id} AND active AND NOT is_free_starter AND (stock IS NULL OR sold_count < stock)
      AND (sale_starts_at IS NULL OR sale_starts_at <= now()) AND (sale_ends_at IS NULL OR sale_ends_at > now())
    RETURNING price, currency::text AS currency, odds_version AS "oddsVersion"`;
  return row && int8(row, ["price"]);
}

/** An active pack's stock and packs sold, its row locked (FOR UPDATE) for the rest of the transaction; none when unknown or inactive. */
export async function lockActivePack(tx: DbTx, id: string): Promise<{ stock: number | null; soldCount: number } | undefined> {
  const [row] = await raw(tx).$queryRaw<{ stock: number | null; soldCount: number }[]>`
    SELECT stock, sold_count AS "soldCount" FROM packs WHERE id = ${id} AND active FOR UPDATE`;
  return row;
}

/** Sets a pack's stock (null: unlimited), never below what was sold (CHECK too); none when that would be. */
export async function setPackStock(db: RawDb | DbTx, id: string, stock: number | null): Promise<boolean> {
  const rows = await raw(db).$queryRaw<unknown[]>`
    UPDATE packs SET stock = ${stock} WHERE id = ${id} AND (${stock}::int IS NULL OR ${stock}::int >= sold_count) RETURNING 1`;
  return rows.length > 0;
}

export async function insertPurchase(tx: DbTx, p: { id: string; userId: string; packId: string; price: number; currency: "COIN" }) {
  await tx.$executeRaw`
    INSERT INTO pack_purchases (id, user_id, pack_id, source, price, currency)
    VALUES (${p.id}::uuid, ${p.userId}::uuid, ${p.packId}, 'purchase', ${p.price}, ${p.currency}::"Currency")`;
}

export interface PurchaseRow {
  id: string;
  userId: string;
  packId: string;
  packSlug: string;
  packName: string;
  itemsPerPack: number;
  oddsVersion: number;
  source: string;
  price: number;
  currency: "COIN";
  createdAt: Date;
  openedAt: Date | null;
  seedHash: string | null;
  seedRevealed: string | null;
  nonce: number | null;
  openedOddsVersion: number | null;
  draws: Draw[] | null;
}

export interface Draw {
  index: number;
  roll: number;
  rarity: Rarity;
  pick: number;
  /** The card taken: pool[rarity][pick], or the next one with copies left (cardRarity, cardIndex). */
  cardRarity: Rarity;
  cardIndex: number;
  cardId: string;
  serial: number;
  collectibleId: string;
}

const PURCHASE = Prisma.sql`
  SELECT pp.id::text AS id, pp.user_id::text AS "userId", pp.pack_id AS "packId", p.slug AS "packSlug", p.name AS "packName",
         p.items_per_pack AS "itemsPerPack", p.odds_version AS "oddsVersion", pp.source, pp.price, pp.currency::text AS currency,
         pp.created_at AS "createdAt", pp.opened_at AS "openedAt", s.seed_hash AS "seedHash",
         CASE WHEN s.retired_at IS NOT NULL THEN s.seed END AS "seedRevealed", o.nonce, o.odds_version AS "openedOddsVersion", o.draws
  FROM pack_purchases pp
  JOIN packs p ON p.id = pp.pack_id
  LEFT JOIN pack_openings o ON o.purchase_id = pp.id
  LEFT JOIN draw_seeds s ON s.id = o.seed_id`;

/** The user's purchase (none when it is not theirs). */
export async function purchaseOf(db: RawDb | DbTx, userId: string, id: string): Promise<PurchaseRow | undefined> {
  const [row] = await raw(db).$queryRaw<Int8<PurchaseRow, "price">[]>`${PURCHASE} WHERE pp.id = ${id}::uuid AND pp.user_id = ${userId}::uuid`;
  return row && int8(row, ["price"]);
}

/**
 * Locks the user's purchase for the rest of the transaction; false when it is not theirs. A statement of its own:
 * a locking read with joins would re-check only the locked row after waiting, and miss an opening committed meanwhile.
 */
export async function lockPurchase(tx: DbTx, userId: string, id: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM pack_purchases WHERE id = ${id}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
  return rows.length > 0;
}

/** A page of the user's purchases, newest first; `unopened` only those not opened yet. */
export async function purchasesOf(db: RawDb | DbTx, userId: string, f: { unopened?: boolean; before?: string; take: number }) {
  const where = [Prisma.sql`pp.user_id = ${userId}::uuid`];
  if (f.unopened) where.push(Prisma.sql`pp.opened_at IS NULL`);
  if (f.before) where.push(Prisma.sql`pp.id < ${f.before}::uuid`);
  const rows = await raw(db).$queryRaw<Int8<PurchaseRow, "price">[]>`${PURCHASE} WHERE ${Prisma.join(where, " AND ")} ORDER BY pp.id DESC LIMIT ${f.take}`;
  return rows.map((r) => int8(r, ["price"]));
}

export interface SeedRow {
  id: string;
  seedHash: string;
  seed: string;
  active: boolean;
  createdAt: Date;
  retiredAt: Date | null;
}

const SEED = Prisma.sql`SELECT id::text AS id, seed_hash AS "seedHash", seed, active_slot IS NOT NULL AS active, created_at AS "createdAt", retired_at AS "retiredAt" FROM draw_seeds`;

export async function activeSeed(db: RawDb | DbTx, { share = false } = {}): Promise<SeedRow | undefined> {
  const lock = share ? Prisma.sql`FOR SHARE` : Prisma.empty;
  const [row] = await raw(db).$queryRaw<SeedRow[]>`${SEED} WHERE active_slot = 1 ${lock}`;
  return row;
}

/** Inserts a seed as the active one unless one is active already (the unique active_slot decides). */
export async function insertActiveSeed(db: RawDb | DbTx, s: { id: string; seed: string; seedHash: string }): Promise<void> {
  await raw(db).$executeRaw`
    INSERT INTO draw_seeds (id, seed_hash, seed, active_slot) VALUES (${s.id}::uuid, ${s.seedHash}, ${s.seed}, 1)
    ON CONFLICT (active_slot) DO NOTHING`;
}

/** Retires the active seed (its seed becomes public) and answers it; none when none was active. */
export async function retireActiveSeed(tx: DbTx): Promise<SeedRow | undefined> {
  const [row] = await tx.$queryRaw<SeedRow[]>`
    UPDATE draw_seeds SET active_slot = NULL, retired_at = now() WHERE active_slot = 1
    RETURNING id::text AS id, seed_hash AS "seedHash", seed, false AS active, created_at AS "createdAt", retired_at AS "retiredAt"`;
  return row;
}

/** Seeds newest first (keyset on the time-ordered id). */
export function seedsPage(db: RawDb | DbTx, before: string | undefined, take: number) {
  const keyset = before ? Prisma.sql`WHERE id < ${before}::uuid` : Prisma.empty;
  return raw(db).$queryRaw<SeedRow[]>`${SEED} ${keyset} ORDER BY id DESC LIMIT ${take}`;
}

export async function nextNonce(tx: DbTx): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT nextval(pg_get_serial_sequence('pack_openings', 'nonce'))::int AS n`;
  return row!.n;
}

export async function insertOpening(tx: DbTx, o: { purchaseId: string; seedId: string; nonce: number; oddsVersion: number; draws: Draw[] }) {
  await tx.$executeRaw`
    WITH opened AS (UPDATE pack_purchases SET opened_at = now() WHERE id = ${o.purchaseId}::uuid)
    INSERT INTO pack_openings (purchase_id, seed_id, nonce, odds_version, draws)
    VALUES (${o.purchaseId}::uuid, ${o.seedId}::uuid, ${o.nonce}, ${o.oddsVersion}, ${JSON.stringify(o.draws)}::jsonb)`;
}
