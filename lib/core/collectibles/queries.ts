import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";

// Cards (the catalog), collectibles (serial-numbered copies with an owner) and their owner history.

export type Rarity = "common" | "rare" | "epic" | "legendary";

export interface CollectibleRow {
  id: string;
  serial: number;
  ownerId: string;
  purchaseId: string | null;
  drawIndex: number | null;
  acquiredAt: Date;
  cardId: string;
  kind: "player" | "team";
  name: string;
  rarity: Rarity;
  editionSize: number;
  mintedCount: number;
  imageUrl: string | null;
  teamId: string;
  playerId: string | null;
}

export const CARD_COLUMNS = Prisma.sql`k.id AS "cardId", k.kind, k.name, k.rarity::text AS rarity, k.edition_size AS "editionSize",
  k.minted_count AS "mintedCount", k.image_url AS "imageUrl", k.team_id AS "teamId", k.player_id AS "playerId"`;

const COLLECTIBLE = Prisma.sql`
  SELECT c.id::text AS id, c.serial, c.owner_id::text AS "ownerId", c.purchase_id::text AS "purchaseId", c.draw_index AS "drawIndex",
         c.acquired_at AS "acquiredAt", ${CARD_COLUMNS}
  FROM collectibles c JOIN collectible_cards k ON k.id = c.card_id`;

export interface OwnedFilter {
  teamId?: string;
  rarity?: Rarity;
  before?: string;
  take: number;
}

/** A page of the user's collectibles, newest first (keyset on the time-ordered id). */
export function ownedBy(db: RawDb | DbTx, ownerId: string, f: OwnedFilter) {
  const where = [Prisma.sql`c.owner_id = ${ownerId}::uuid`];
  if (f.teamId) where.push(Prisma.sql`k.team_id = ${f.teamId}`);
  if (f.rarity) where.push(Prisma.sql`k.rarity = ${f.rarity}::"Rarity"`);
  if (f.before) where.push(Prisma.sql`c.id < ${f.before}::uuid`);
  return raw(db).$queryRaw<CollectibleRow[]>`${COLLECTIBLE} WHERE ${Prisma.join(where, " AND ")} ORDER BY c.id DESC LIMIT ${f.take}`;
}

export async function collectibleById(db: RawDb | DbTx, id: string): Promise<CollectibleRow | undefined> {
  const [row] = await raw(db).$queryRaw<CollectibleRow[]>`${COLLECTIBLE} WHERE c.id = ${id}::uuid`;
  return row;
}

/** The collectible's owner; none for an unknown collectible. */
export async function ownerOf(db: RawDb | DbTx, collectibleId: string): Promise<string | undefined> {
  const [row] = await raw(db).$queryRaw<{ ownerId: string }[]>`SELECT owner_id::text AS "ownerId" FROM collectibles WHERE id = ${collectibleId}::uuid`;
  return row?.ownerId;
}

/**
 * Locks the collectible's row for the transaction and answers its owner (none when no such item). Listing and minting
 * both take this lock first and then look at the other in a statement of their own (which sees what committed while
 * they waited), so an item is never both listed and minted.
 */
export async function lockCollectible(tx: DbTx, collectibleId: string): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ ownerId: string }[]>`SELECT owner_id::text AS "ownerId" FROM collectibles WHERE id = ${collectibleId}::uuid FOR UPDATE`;
  return row?.ownerId;
}

/** Locks several collectibles in id order (the order every transaction that locks more than one uses). */
export async function lockCollectibles(tx: DbTx, collectibleIds: string[]): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM collectibles WHERE id = ANY(${[...new Set(collectibleIds)].sort()}::uuid[]) ORDER BY id FOR UPDATE`;
}

export async function cardExists(db: RawDb | DbTx, cardId: string): Promise<boolean> {
  const rows = await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM collectible_cards WHERE id = ${cardId}`;
  return rows.length > 0;
}

/** The collectibles drawn by pack openings (one statement for a page of purchases). */
export function collectiblesOfPurchases(db: RawDb | DbTx, purchaseIds: string[]) {
  return raw(db).$queryRaw<CollectibleRow[]>`${COLLECTIBLE} WHERE c.purchase_id = ANY(${purchaseIds}::uuid[])`;
}

export interface TransferRow {
  id: string;
  fromUserId: string | null;
  toUserId: string;
  toHandle: string | null;
  toDisplayName: string | null;
  reason: string;
  referenceId: string | null;
  price: number | null;
  createdAt: Date;
}

/** A collectible's owner history, oldest first (its first owner, then each change), at most `take`. */
export async function historyOf(db: RawDb | DbTx, collectibleId: string, take: number) {
  const rows = await raw(db).$queryRaw<Int8<TransferRow, "price">[]>`
    SELECT t.id::text AS id, t.from_user_id::text AS "fromUserId", t.to_user_id::text AS "toUserId", u.handle AS "toHandle",
           u.display_name AS "toDisplayName", t.reason, t.reference_id AS "referenceId", t.price, t.created_at AS "createdAt"
    FROM collectible_transfers t LEFT JOIN users u ON u.id = t.to_user_id
    WHERE t.collectible_id = ${collectibleId}::uuid
    ORDER BY t.id
    LIMIT ${take}`;
  return rows.map((r) => int8(r, ["price"]));
}

/** Takes the next serial of a card's edition: none when the edition is sold out. */
export async function takeSerial(tx: DbTx, cardId: string): Promise<number | undefined> {
  const [row] = await tx.$queryRaw<{ serial: number }[]>`
    UPDATE collectible_cards SET minted_count = minted_count + 1 WHERE id = ${cardId} AND minted_count < edition_size
    RETURNING minted_count AS serial`;
  return row?.serial;
}

export interface NewCollectible {
  id: string;
  cardId: string;
  serial: number;
  drawIndex: number;
}

/** Inserts an opening's collectibles for their first owner, with the first line of each one's history. */
export async function insertDrawn(tx: DbTx, ownerId: string, purchaseId: string, items: NewCollectible[]): Promise<void> {
  await tx.$executeRaw`
    WITH c AS (
      INSERT INTO collectibles (id, card_id, serial, owner_id, purchase_id, draw_index)
      SELECT i.id, i.card_id, i.serial, ${ownerId}::uuid, ${purchaseId}::uuid, i.draw_index
      FROM unnest(${items.map((i) => i.id)}::uuid[], ${items.map((i) => i.cardId)}::text[], ${items.map((i) => i.serial)}::int[],
                  ${items.map((i) => i.drawIndex)}::int[]) AS i(id, card_id, serial, draw_index)
      RETURNING id
    )
    INSERT INTO collectible_transfers (id, collectible_id, from_user_id, to_user_id, reason, reference_id)
    SELECT ${UUIDV7_SQL}, c.id, NULL, ${ownerId}::uuid, 'pack_opening', ${purchaseId} FROM c`;
}

export interface CardFilter {
  teamId?: string;
  rarity?: Rarity;
  after?: string;
  take: number;
}

/** A page of the card catalog by id. */
export function cardsPage(db: RawDb | DbTx, f: CardFilter) {
  const where = [Prisma.sql`true`];
  if (f.teamId) where.push(Prisma.sql`k.team_id = ${f.teamId}`);
  if (f.rarity) where.push(Prisma.sql`k.rarity = ${f.rarity}::"Rarity"`);
  if (f.after) where.push(Prisma.sql`k.id > ${f.after}`);
  return raw(db).$queryRaw<Omit<CollectibleRow, "id" | "serial" | "ownerId" | "purchaseId" | "drawIndex" | "acquiredAt">[]>`
    SELECT ${CARD_COLUMNS} FROM collectible_cards k WHERE ${Prisma.join(where, " AND ")} ORDER BY k.id LIMIT ${f.take}`;
}

/**
 * Moves a collectible from its owner to another, with its history row, and takes it out of the old owner's binders.
 * None when `from` no longer owns it (the caller's refusal). Run under the collectible's listing or offer lock.
 */
export async function transferOwnership(
  tx: DbTx,
  t: { collectibleId: string; from: string; to: string; reason: "sale" | "offer" | "staff" | "trade" | "gift"; referenceId: string; price: number | null },
): Promise<boolean> {
  const [moved] = await tx.$queryRaw<{ id: string }[]>`
    WITH moved AS (
      UPDATE collectibles SET owner_id = ${t.to}::uuid, acquired_at = now()
      WHERE id = ${t.collectibleId}::uuid AND owner_id = ${t.from}::uuid
      RETURNING id
    ), unbound AS (
      DELETE FROM binder_items WHERE collectible_id IN (SELECT id FROM moved)
    )
    INSERT INTO collectible_transfers (id, collectible_id, from_user_id, to_user_id, reason, reference_id, price)
    SELECT ${UUIDV7_SQL}, moved.id, ${t.from}::uuid, ${t.to}::uuid, ${t.reason}, ${t.referenceId}, ${t.price} FROM moved
    RETURNING collectible_id::text AS id`;
  return moved !== undefined;
}

/** The catalog per rarity: cards, copies drawn and copies that can ever exist. */
export function catalogByRarity(db: RawDb | DbTx) {
  return raw(db).$queryRaw<{ rarity: Rarity; cards: number; minted: number; editions: number }[]>`
    SELECT rarity::text AS rarity, count(*)::int AS cards, sum(minted_count)::int AS minted, sum(edition_size)::float8 AS editions
    FROM collectible_cards GROUP BY rarity ORDER BY rarity`;
}
