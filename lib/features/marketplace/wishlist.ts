// The wishlist: a listing's item, a card or a collectible, with the cheapest active listing of each (new listings
// notify the users who wished for them: notifyWishlisted).
import type { DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { cardExists, ownerOf } from "../../core/collectibles/service";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { notFound, validationError } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import { UUID_PATTERN } from "../../kernel/schemas";
import { deleteWish, insertWish, listingById, wishlistItem, wishlistOf, type WishlistRow } from "./queries";
import type { WishlistInput } from "./schemas";

const toWish = (w: WishlistRow) => ({
  id: w.id,
  itemType: w.itemType,
  itemId: w.itemId,
  listingId: w.listingId,
  createdAt: w.createdAt.toISOString(),
  cheapestListing: w.cheapestListingId ? { id: w.cheapestListingId, price: w.cheapestPrice! } : null,
});

/** Adds a listing's item, a card or a collectible to the wishlist: 201 when new, the same entry (200) when there. */
export async function addWish(db: RawDb | DbTx, userId: string, input: WishlistInput) {
  let item: { itemType: "card" | "collectible"; itemId: string; listingId: string | null };
  if (input.listingId) {
    const l = await listingById(db, input.listingId);
    if (!l) throw notFound("Listing");
    item = { itemType: "collectible", itemId: l.id, listingId: l.listingId };
  } else if (input.itemType === "collectible") {
    if (!UUID_PATTERN.test(input.itemId!))
      throw validationError("itemId must be a collectible id (UUID).", [{ path: "body.itemId", message: "Expected a UUID" }]);
    if (!(await ownerOf(db, input.itemId!))) throw notFound("Collectible");
    item = { itemType: "collectible", itemId: input.itemId!.toLowerCase(), listingId: null };
  } else {
    if (!(await cardExists(db, input.itemId!))) throw notFound("Card");
    item = { itemType: "card", itemId: input.itemId!, listingId: null };
  }
  const { id, created } = await insertWish(db, { userId, ...item });
  return { created, item: toWish((await wishlistItem(db, userId, id))!) };
}

export async function listWishes(db: RawDb | DbTx, userId: string, q: { cursor?: string; limit: number }) {
  const rows = await wishlistOf(db, userId, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("items", rows, q.limit, (r) => encodeIdCursor(r.id), toWish);
}

export async function removeWish(db: RawDb | DbTx, userId: string, id: string) {
  if ((await deleteWish(db, userId, id)) === 0) throw notFound("Wishlist item");
}
