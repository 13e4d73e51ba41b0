import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { lockUser } from "../../db/tx";
import type { RawDb } from "../../db/raw";
import { toCollectible } from "../../core/collectibles/service";
import { decodeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { DomainError, notFound, validationError } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import {
  binderById,
  bindersOf,
  countBinders,
  countItems,
  deleteBinder,
  deleteItem,
  hasItem,
  insertBinder,
  insertItem,
  itemsOf,
  lockBinder,
  reorderBinders,
  touchBinder,
  updateBinder,
  type BinderRow,
} from "./queries";
import { BINDER_ITEMS_MAX, BINDERS_MAX } from "./schemas";
import { errors as bindersErrors } from "./errors";

// Binders: a fan's albums of the collectibles they own, in their order. Public binders show to others unless the
// owner's profile is private; anything a caller may not see is 404. Writes lock the user's row (binder count) or
// the binder (its items), so caps hold under concurrent requests.

const toBinder = (b: BinderRow) => ({
  id: b.id,
  userId: b.userId,
  name: b.name,
  isPublic: b.isPublic,
  position: b.position,
  cover: b.coverUrl ? { url: b.coverUrl, thumbhash: b.coverThumbhash } : null,
  itemCount: b.itemCount,
  createdAt: b.createdAt.toISOString(),
  updatedAt: b.updatedAt.toISOString(),
});

/** The owner's binders: all of them for the owner, the public ones (none for a private profile) for anyone else. */
export async function listBinders(db: RawDb | DbTx, viewerId: string | null, ownerId: string) {
  return { binders: (await bindersOf(db, ownerId, ownerId !== viewerId)).map(toBinder) };
}

const visible = (b: BinderRow | undefined, viewerId: string | null) => b && (b.userId === viewerId || (b.isPublic && !b.ownerPrivate));

export async function getBinder(db: RawDb | DbTx, viewerId: string | null, binderId: string, q: { cursor?: string; limit: number }) {
  const b = await binderById(db, binderId);
  if (!visible(b, viewerId)) throw notFound("Binder");
  let after: number | undefined;
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    if (c.id !== binderId || !/^\d{1,6}$/.test(c.sortKey)) throw invalidCursor();
    after = Number(c.sortKey);
  }
  const rows = await itemsOf(db, binderId, after, q.limit + 1);
  const page = keysetPage(
    "items",
    rows,
    q.limit,
    (r) => encodeCursor(r.position, binderId),
    (r) => ({
      ...toCollectible(r),
      position: r.position,
      addedAt: r.addedAt.toISOString(),
    }),
  );
  return { binder: toBinder(b!), ...page };
}

export async function createBinder(db: Db, userId: string, input: { name: string; isPublic: boolean }) {
  const id = uuidv7();
  await db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    if ((await countBinders(tx, userId)) >= BINDERS_MAX)
      throw new DomainError(bindersErrors.BINDER_LIMIT_REACHED, `You have ${BINDERS_MAX} binders, the most allowed.`);
    await insertBinder(tx, { id, userId, ...input });
  });
  return { binder: toBinder((await binderById(db, id))!) };
}

async function ownBinder(db: RawDb | DbTx, userId: string, binderId: string) {
  const b = await binderById(db, binderId);
  if (!b || b.userId !== userId) throw notFound("Binder");
  return b;
}

export async function renameBinder(db: RawDb | DbTx, userId: string, binderId: string, change: { name?: string; isPublic?: boolean }) {
  await ownBinder(db, userId, binderId);
  await updateBinder(db, userId, binderId, change);
  return { binder: toBinder((await binderById(db, binderId))!) };
}

export async function removeBinder(db: RawDb | DbTx, userId: string, binderId: string) {
  if ((await deleteBinder(db, userId, binderId)) === 0) throw notFound("Binder");
  return { removed: true };
}

/** Puts the caller's binders in the given order: exactly their binder ids, each once. */
export async function orderBinders(db: Db, userId: string, binderIds: string[]) {
  await db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    const mine = (await bindersOf(tx, userId, false)).map((b) => b.id);
    if (binderIds.length !== mine.length || new Set(binderIds).size !== binderIds.length || !binderIds.every((id) => mine.includes(id))) {
      throw validationError("binderIds must list each of your binders exactly once.", [
        { path: "body.binderIds", message: "each of your binders exactly once" },
      ]);
    }
    await reorderBinders(tx, userId, binderIds);
  });
  return listBinders(db, userId, userId);
}

/** Adds an owned collectible at the end of the binder: created (201) or already there (200). */
export async function addItem(db: Db, userId: string, binderId: string, collectibleId: string) {
  const created = await db.$transaction(async (tx) => {
    if (!(await lockBinder(tx, userId, binderId))) throw notFound("Binder");
    if ((await countItems(tx, binderId)) >= BINDER_ITEMS_MAX && !(await hasItem(tx, binderId, collectibleId))) {
      throw new DomainError(bindersErrors.BINDER_FULL, `A binder holds at most ${BINDER_ITEMS_MAX} items.`);
    }
    const outcome = await insertItem(tx, userId, binderId, collectibleId);
    if (outcome === "not_owner") throw notFound("Collectible");
    if (outcome === "added") await touchBinder(tx, binderId);
    return outcome === "added";
  });
  return { created, binder: toBinder((await binderById(db, binderId))!) };
}

export async function removeItem(db: RawDb | DbTx, userId: string, binderId: string, collectibleId: string) {
  await ownBinder(db, userId, binderId);
  const removed = (await deleteItem(db, binderId, collectibleId)) > 0;
  if (removed) await touchBinder(db, binderId);
  return { removed };
}
