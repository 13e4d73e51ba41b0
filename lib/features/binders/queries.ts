import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { CARD_COLUMNS, type CollectibleRow } from "../../core/collectibles/service";

// Binders and their items. An item is a collectible its binder's owner owns: transferOwnership removes it from the
// old owner's binders when it changes hands. Reads also count and show only items the owner still owns: an add that
// commits while a sale's statement runs (which reads binder_items as of its start) can leave a row behind.

export interface BinderRow {
  id: string;
  userId: string;
  name: string;
  isPublic: boolean;
  position: number;
  coverUrl: string | null;
  coverThumbhash: string | null;
  itemCount: number;
  createdAt: Date;
  updatedAt: Date;
  ownerPrivate: boolean;
}

const BINDER = Prisma.sql`
  SELECT b.id::text AS id, b.user_id::text AS "userId", b.name, b.is_public AS "isPublic", b.position, b.cover_url AS "coverUrl",
         b.cover_thumbhash AS "coverThumbhash", (SELECT count(*)::int FROM binder_items i JOIN collectibles c ON c.id = i.collectible_id AND c.owner_id = b.user_id
          WHERE i.binder_id = b.id) AS "itemCount",
         b.created_at AS "createdAt", b.updated_at AS "updatedAt", u.is_private AS "ownerPrivate"
  FROM binders b JOIN users u ON u.id = b.user_id`;

/** A user's binders in their order; `publicOnly` for someone else looking (none when the profile is private). */
export function bindersOf(db: RawDb | DbTx, userId: string, publicOnly: boolean) {
  const filter = publicOnly ? Prisma.sql`AND b.is_public AND NOT u.is_private` : Prisma.empty;
  return raw(db).$queryRaw<BinderRow[]>`${BINDER} WHERE b.user_id = ${userId}::uuid ${filter} ORDER BY b.position, b.id`;
}

export async function binderById(db: RawDb | DbTx, id: string): Promise<BinderRow | undefined> {
  const [row] = await raw(db).$queryRaw<BinderRow[]>`${BINDER} WHERE b.id = ${id}::uuid`;
  return row;
}

export async function countBinders(tx: DbTx, userId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM binders WHERE user_id = ${userId}::uuid`;
  return row!.n;
}

export async function insertBinder(tx: DbTx, b: { id: string; userId: string; name: string; isPublic: boolean }) {
  await tx.$executeRaw`
    INSERT INTO binders (id, user_id, name, is_public, position, updated_at)
    VALUES (${b.id}::uuid, ${b.userId}::uuid, ${b.name}, ${b.isPublic},
            (SELECT coalesce(max(position) + 1, 0) FROM binders WHERE user_id = ${b.userId}::uuid), now())`;
}

export const updateBinder = (db: RawDb | DbTx, userId: string, id: string, c: { name?: string; isPublic?: boolean }) =>
  raw(db).$executeRaw`
    UPDATE binders SET name = coalesce(${c.name ?? null}, name), is_public = coalesce(${c.isPublic ?? null}::boolean, is_public), updated_at = now()
    WHERE id = ${id}::uuid AND user_id = ${userId}::uuid`;

export const deleteBinder = (db: RawDb | DbTx, userId: string, id: string) =>
  raw(db).$executeRaw`DELETE FROM binders WHERE id = ${id}::uuid AND user_id = ${userId}::uuid`;

/** Rewrites the positions of the user's binders to the given order (ids already checked to be exactly theirs). */
export const reorderBinders = (tx: DbTx, userId: string, ids: string[]) =>
  tx.$executeRaw`
    UPDATE binders b SET position = o.n - 1, updated_at = now()
    FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS o(id, n)
    WHERE b.id = o.id AND b.user_id = ${userId}::uuid`;

/** Locks the user's binder (items are counted and appended under it); false when it is not theirs. */
export async function lockBinder(tx: DbTx, userId: string, id: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM binders WHERE id = ${id}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
  return rows.length > 0;
}

export async function countItems(tx: DbTx, binderId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM binder_items i JOIN binders b ON b.id = i.binder_id JOIN collectibles c ON c.id = i.collectible_id AND c.owner_id = b.user_id
    WHERE i.binder_id = ${binderId}::uuid`;
  return row!.n;
}

/** Appends an owned collectible to the binder: "added", "present" (already in it) or "not_owner". */
export async function insertItem(tx: DbTx, userId: string, binderId: string, collectibleId: string) {
  const [row] = await tx.$queryRaw<{ owned: boolean; added: boolean }[]>`
    WITH item AS (SELECT id FROM collectibles WHERE id = ${collectibleId}::uuid AND owner_id = ${userId}::uuid),
         ins AS (
           INSERT INTO binder_items (binder_id, collectible_id, position)
           SELECT ${binderId}::uuid, item.id, (SELECT coalesce(max(position) + 1, 0) FROM binder_items WHERE binder_id = ${binderId}::uuid)
           FROM item
           ON CONFLICT (binder_id, collectible_id) DO NOTHING
           RETURNING 1
         )
    SELECT EXISTS (SELECT 1 FROM item) AS owned, EXISTS (SELECT 1 FROM ins) AS added`;
  return !row!.owned ? "not_owner" : row!.added ? "added" : "present";
}

export async function hasItem(db: RawDb | DbTx, binderId: string, collectibleId: string): Promise<boolean> {
  const rows = await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM binder_items WHERE binder_id = ${binderId}::uuid AND collectible_id = ${collectibleId}::uuid`;
  return rows.length > 0;
}

export const deleteItem = (db: RawDb | DbTx, binderId: string, collectibleId: string) =>
  raw(db).$executeRaw`DELETE FROM binder_items WHERE binder_id = ${binderId}::uuid AND collectible_id = ${collectibleId}::uuid`;

export const touchBinder = (db: RawDb | DbTx, id: string) => raw(db).$executeRaw`UPDATE binders SET updated_at = now() WHERE id = ${id}::uuid`;

export interface ItemRow extends CollectibleRow {
  position: number;
  addedAt: Date;
}

/** A page of a binder's items in their order (keyset on position). */
export function itemsOf(db: RawDb | DbTx, binderId: string, after: number | undefined, take: number) {
  const keyset = after === undefined ? Prisma.empty : Prisma.sql`AND i.position > ${after}`;
  return raw(db).$queryRaw<ItemRow[]>`
    SELECT c.id::text AS id, c.serial, c.owner_id::text AS "ownerId", c.purchase_id::text AS "purchaseId", c.draw_index AS "drawIndex",
           c.acquired_at AS "acquiredAt", ${CARD_COLUMNS}, i.position, i.added_at AS "addedAt"
    FROM binder_items i JOIN binders b ON b.id = i.binder_id
    JOIN collectibles c ON c.id = i.collectible_id AND c.owner_id = b.user_id JOIN collectible_cards k ON k.id = c.card_id
    WHERE i.binder_id = ${binderId}::uuid ${keyset}
    ORDER BY i.position
    LIMIT ${take}`;
}
