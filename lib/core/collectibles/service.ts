import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { decodeCursor, decodeIdCursor, encodeCursor, encodeIdCursor, invalidCursor } from "../../kernel/cursor";
import { notFound } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import { cardsPage, catalogByRarity, collectibleById, historyOf, ownedBy, type CollectibleRow, type Rarity } from "./queries";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export {
  CARD_COLUMNS,
  lockCollectibles,
  lockCollectible,
  transferOwnership,
  ownerOf,
  cardExists,
  collectiblesOfPurchases,
  insertDrawn,
  takeSerial,
} from "./queries";
export type { CollectibleRow, Rarity, NewCollectible } from "./queries";

// Collectibles: the card catalog, the caller's collection and one collectible with its owner history. Copies are
// created by pack openings (lib/features/packs) and change owner through the marketplace.

type CardRow = Omit<CollectibleRow, "id" | "serial" | "ownerId" | "purchaseId" | "drawIndex" | "acquiredAt">;

export const toCard = (r: CardRow) => ({
  id: r.cardId,
  kind: r.kind,
  name: r.name,
  rarity: r.rarity,
  editionSize: r.editionSize,
  minted: r.mintedCount,
  imageUrl: r.imageUrl,
  teamId: r.teamId,
  playerId: r.playerId,
});

export const toCollectible = (r: CollectibleRow) => ({
  id: r.id,
  serial: r.serial,
  card: toCard(r),
  ownerId: r.ownerId,
  acquiredAt: r.acquiredAt.toISOString(),
  purchaseId: r.purchaseId,
});

export async function listOwned(db: RawDb | DbTx, userId: string, q: { teamId?: string; rarity?: Rarity; cursor?: string; limit: number }) {
  const rows = await ownedBy(db, userId, { ...q, before: q.cursor ? decodeIdCursor(q.cursor) : undefined, take: q.limit + 1 });
  return keysetPage("collectibles", rows, q.limit, (r) => encodeIdCursor(r.id), toCollectible);
}

export async function listCards(db: RawDb | DbTx, q: { teamId?: string; rarity?: Rarity; cursor?: string; limit: number }) {
  const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
  if (cursor && cursor.sortKey !== "card") throw invalidCursor();
  const after = cursor?.id;
  const rows = await cardsPage(db, { ...q, after, take: q.limit + 1 });
  return keysetPage("cards", rows, q.limit, (r) => encodeCursor("card", r.cardId), toCard);
}

/** One collectible with its owner and owner history; public like a profile's showcase. */
export async function getCollectible(db: RawDb | DbTx, id: string) {
  const row = await collectibleById(db, id);
  if (!row) throw notFound("Collectible");
  const history = await historyOf(db, id, 100);
  const current = history.findLast((h) => h.toUserId === row.ownerId);
  return {
    ...toCollectible(row),
    owner: { id: row.ownerId, handle: current?.toHandle ?? null, displayName: current?.toDisplayName ?? null },
    history: history.map((h) => ({
      fromUserId: h.fromUserId,
      toUserId: h.toUserId,
      toHandle: h.toHandle,
      toDisplayName: h.toDisplayName,
      reason: h.reason,
      referenceId: h.referenceId,
      price: h.price,
      at: h.createdAt.toISOString(),
    })),
  };
}

/** The catalog's size per rarity (the staff console). */
export const catalogSummary = (db: RawDb | DbTx) => catalogByRarity(db);
