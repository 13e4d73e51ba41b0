import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import { insertNotifications, notBlockedEitherWaySql } from "../notifications/service";
import { ALERTS_PER_HOUR } from "./schemas";

// Reads and writes of market data. A sale row is written by the marketplace's settle, in the transaction of the sale.

/** Records a sale (card and serial read from the collectible), in the sale's transaction. */
export async function recordSale(
  tx: RawDb | DbTx,
  s: { collectibleId: string; sellerId: string; buyerId: string; price: number; fee: number; currency: "COIN"; via: "sale" | "offer"; referenceId: string },
) {
  await raw(tx).$executeRaw`
    INSERT INTO market_sales (id, card_id, collectible_id, serial, seller_id, buyer_id, price, fee, currency, via, reference_id)
    SELECT ${UUIDV7_SQL}, c.card_id, c.id, c.serial, ${s.sellerId}::uuid, ${s.buyerId}::uuid, ${s.price}::int8, ${s.fee}::int8,
           ${s.currency}::"Currency", ${s.via}, ${s.referenceId}::uuid
    FROM collectibles c WHERE c.id = ${s.collectibleId}::uuid`;
}

/** Marks a listing's sale reversed by staff, in the reversal's transaction. */
export const markSaleRefunded = (tx: RawDb | DbTx, listingId: string) =>
  raw(tx).$executeRaw`UPDATE market_sales SET refunded_at = now() WHERE reference_id = ${listingId}::uuid AND via = 'sale' AND refunded_at IS NULL`;

export interface CardMarketRow {
  cardId: string;
  kind: "player" | "team";
  name: string;
  rarity: "common" | "rare" | "epic" | "legendary";
  editionSize: number;
  mintedCount: number;
  imageUrl: string | null;
  teamId: string;
  playerId: string | null;
  floor: { listingId: string; price: number; serial: number } | null;
  lastSale: { price: number; serial: number; at: string; refunded: boolean } | null;
  volume: number;
  sales: number;
}

/**
 * A card with its market now, in one statement: the floor walks the card's active listings cheapest first (index
 * listings(card_id, status, price)) to the first one buyable now; the last sale and the day's figures read
 * market_sales by card and time.
 */
export async function cardMarketOf(db: RawDb | DbTx, cardId: string): Promise<CardMarketRow | undefined> {
  const [row] = await raw(db).$queryRaw<Int8<CardMarketRow, "volume" | "sales">[]>`
    SELECT k.id AS "cardId", k.kind, k.name, k.rarity, k.edition_size AS "editionSize", k.minted_count AS "mintedCount",
           k.image_url AS "imageUrl", k.team_id AS "teamId", k.player_id AS "playerId",
           (SELECT json_build_object('listingId', l.id, 'price', l.price, 'serial', c.serial)
              FROM listings l JOIN collectibles c ON c.id = l.collectible_id
             WHERE l.card_id = k.id AND l.status = 'active' AND l.kind = 'fixed' AND c.owner_id = l.seller_id
               AND NOT EXISTS (SELECT 1 FROM nft_mints m WHERE m.mint_key = l.collectible_id::text)
             ORDER BY l.price, l.id LIMIT 1) AS floor,
           (SELECT json_build_object('price', s.price, 'serial', s.serial, 'at', s.created_at, 'refunded', s.refunded_at IS NOT NULL)
              FROM market_sales s WHERE s.card_id = k.id ORDER BY s.created_at DESC, s.id DESC LIMIT 1) AS "lastSale",
           d.volume, d.sales
    FROM collectible_cards k
    CROSS JOIN LATERAL (SELECT coalesce(sum(s.price), 0) AS volume, count(*) AS sales FROM market_sales s
                         WHERE s.card_id = k.id AND s.created_at > now() - interval '24 hours' AND s.refunded_at IS NULL) d
    WHERE k.id = ${cardId}`;
  return row && int8(row, ["volume", "sales"]);
}

/** Fans holding at least one copy of the card (index collectibles(card_id, owner_id)). */
export async function holdersOf(db: RawDb | DbTx, cardId: string): Promise<number> {
  const [row] = await raw(db).$queryRaw<{ n: bigint }[]>`SELECT count(DISTINCT owner_id) AS n FROM collectibles WHERE card_id = ${cardId}`;
  return Number(row!.n);
}

export interface SaleRow {
  id: string;
  cardId: string;
  collectibleId: string;
  serial: number;
  sellerId: string;
  buyerId: string;
  price: number;
  currency: "COIN";
  via: "sale" | "offer";
  createdAt: Date;
  refundedAt: Date | null;
}

/** Sales newest first, of one card or all, after the keyset (created_at, id). */
export async function salesPage(db: RawDb | DbTx, f: { cardId?: string; after?: { at: Date; id: string }; take: number }) {
  const where = [Prisma.sql`true`];
  if (f.cardId !== undefined) where.push(Prisma.sql`card_id = ${f.cardId}`);
  if (f.after) where.push(Prisma.sql`(created_at, id) < (${f.after.at}, ${f.after.id}::uuid)`);
  const rows = await raw(db).$queryRaw<Int8<SaleRow, "price">[]>`
    SELECT id::text AS id, card_id AS "cardId", collectible_id::text AS "collectibleId", serial, seller_id::text AS "sellerId",
           buyer_id::text AS "buyerId", price, currency, via, created_at AS "createdAt", refunded_at AS "refundedAt"
    FROM market_sales WHERE ${Prisma.join(where, " AND ")}
    ORDER BY created_at DESC, id DESC LIMIT ${f.take}`;
  return rows.map((r) => int8(r, ["price"]));
}

export const cardExists = async (db: RawDb | DbTx, cardId: string) =>
  (await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM collectible_cards WHERE id = ${cardId}`).length > 0;

export interface AlertRow {
  id: string;
  cardId: string;
  serialMin: number | null;
  serialMax: number | null;
  maxPrice: number;
  currency: "COIN";
  createdAt: Date;
}

const ALERT_COLUMNS = Prisma.sql`id::text AS id, card_id AS "cardId", serial_min AS "serialMin", serial_max AS "serialMax", max_price AS "maxPrice", currency, created_at AS "createdAt"`;

export async function alertsOf(db: RawDb | DbTx, userId: string, before: string | undefined, take: number) {
  const keyset = before ? Prisma.sql`AND id < ${before}::uuid` : Prisma.empty;
  const rows = await raw(db).$queryRaw<Int8<AlertRow, "maxPrice">[]>`
    SELECT ${ALERT_COLUMNS} FROM price_alerts WHERE user_id = ${userId}::uuid ${keyset} ORDER BY id DESC LIMIT ${take}`;
  return rows.map((r) => int8(r, ["maxPrice"]));
}

export async function countAlerts(tx: DbTx, userId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM price_alerts WHERE user_id = ${userId}::uuid`;
  return Number(row!.n);
}

export async function insertAlert(
  tx: DbTx,
  a: { id: string; userId: string; cardId: string; maxPrice: number; serialMin: number | null; serialMax: number | null },
): Promise<AlertRow> {
  const [row] = await tx.$queryRaw<Int8<AlertRow, "maxPrice">[]>`
    INSERT INTO price_alerts (id, user_id, card_id, max_price, serial_min, serial_max)
    VALUES (${a.id}::uuid, ${a.userId}::uuid, ${a.cardId}, ${a.maxPrice}::int8, ${a.serialMin}, ${a.serialMax})
    RETURNING ${ALERT_COLUMNS}`;
  return int8(row!, ["maxPrice"]);
}

export const deleteAlert = (db: RawDb | DbTx, userId: string, id: string) =>
  raw(db).$executeRaw`DELETE FROM price_alerts WHERE id = ${id}::uuid AND user_id = ${userId}::uuid`;

/**
 * PRICE_ALERT to each fan whose alert a fixed-price listing now matches (its card, serial range, at or below the
 * alert's price), but the seller and fans blocked either way; once per alert and listing (the cause key, so a
 * repricing that still matches sends nothing new), and at most ALERTS_PER_HOUR an hour per fan.
 */
export const firePriceAlerts = (tx: RawDb | DbTx, listingId: string) =>
  insertNotifications(raw(tx), {
    type: "PRICE_ALERT",
    recipient: Prisma.sql`a.user_id`,
    cause: Prisma.sql`'price_alert:' || a.id || ':' || l.id`,
    actor: null,
    payload: Prisma.sql`jsonb_build_object('alertId', a.id::text, 'listingId', l.id::text, 'cardId', l.card_id, 'serial', c.serial, 'price', l.price,
                              'maxPrice', a.max_price, 'title', k.name || ' #' || c.serial || ' is listed at your price',
                              'body', 'A copy you have a price alert for was just listed.', 'href', '/api/v1/marketplace/listings/' || l.id)`,
    from: Prisma.sql`FROM listings l
    JOIN collectibles c ON c.id = l.collectible_id
    JOIN collectible_cards k ON k.id = l.card_id
    JOIN price_alerts a ON a.card_id = l.card_id AND a.max_price >= l.price AND a.currency = l.currency
    WHERE l.id = ${listingId}::uuid AND l.kind = 'fixed' AND l.status = 'active' AND a.user_id <> l.seller_id
      AND (a.serial_min IS NULL OR c.serial >= a.serial_min) AND (a.serial_max IS NULL OR c.serial <= a.serial_max)
      AND ${notBlockedEitherWaySql(Prisma.sql`a.user_id`, Prisma.sql`l.seller_id`)}
      AND (SELECT count(*) FROM notifications n WHERE n.user_id = a.user_id AND n.type = 'PRICE_ALERT'
             AND n.created_at > now() - interval '1 hour') < ${ALERTS_PER_HOUR}`,
  });

export interface ReputationRow {
  userId: string;
  completedSales: number;
  refundedSales: number;
  createdAt: Date;
  earnedRep: number;
}

/** Each seller's record from the ledgers: sales made and reversed (index market_sales(seller_id)), age, Rep earned. */
export async function reputationsOf(db: RawDb | DbTx, userIds: string[]): Promise<ReputationRow[]> {
  const rows = await raw(db).$queryRaw<Int8<ReputationRow, "completedSales" | "refundedSales" | "earnedRep">[]>`
    SELECT u.id::text AS "userId", u.created_at AS "createdAt",
           u.rep_earned_club + u.rep_earned_fan_amp + u.rep_earned_player_amp + u.rep_earned_service_direct AS "earnedRep",
           s.completed AS "completedSales", s.refunded AS "refundedSales"
    FROM users u
    CROSS JOIN LATERAL (SELECT count(*) FILTER (WHERE refunded_at IS NULL) AS completed, count(*) FILTER (WHERE refunded_at IS NOT NULL) AS refunded
                        FROM market_sales WHERE seller_id = u.id) s
    WHERE u.id = ANY(${userIds}::uuid[])`;
  return rows.map((r) => int8(r, ["completedSales", "refundedSales", "earnedRep"]));
}
