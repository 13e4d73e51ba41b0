// The cart and checkout: lines at the price they were added, capped at CART_MAX_LINES, and a checkout that buys
// every line or nothing.
import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { lockUser } from "../../db/tx";
import { lockCollectibles } from "../../core/collectibles/service";
import { DomainError, notFound } from "../../kernel/errors";
import { idempotent, type IdempotencyKey } from "../../db/idempotency";
import { getWallets, lockWallets } from "../../core/wallets/service";
import { refuseLocked } from "../challenges/service";
import { ChangedHands, own, settle, toListing, unavailable } from "./ownership";
import { cartOf, closeListing, deleteCartLines, insertCartLine, itemsOfListings, listingById, listingsByIds, lockListing, type LockedListing } from "./queries";
import { CART_MAX_LINES } from "./schemas";
import { errors as marketplaceErrors } from "./errors";
import { assertMayTrade } from "../moderation/service";

export async function getCart(db: RawDb | DbTx, userId: string) {
  const lines = await cartOf(db, userId);
  const listings = new Map(
    (lines.length
      ? await listingsByIds(
          db,
          lines.map((l) => l.listingId),
        )
      : []
    ).map((r) => [r.listingId, r]),
  );
  const out = lines.map((line) => {
    const l = listings.get(line.listingId);
    const available = l?.status === "active" && l.listingKind === "fixed";
    return {
      listingId: line.listingId,
      addedPrice: line.addedPrice,
      addedAt: line.addedAt.toISOString(),
      available,
      priceChanged: l !== undefined && l.price !== line.addedPrice,
      listing: l ? toListing(l) : null,
    };
  });
  return { lines: out, total: out.filter((l) => l.available).reduce((s, l) => s + l.addedPrice, 0) };
}

export async function addToCart(db: Db, userId: string, listingId: string) {
  await db.$transaction(async (tx) => {
    const l = await listingById(tx, listingId);
    if (!l) throw notFound("Listing");
    if (l.status !== "active" || l.listingKind !== "fixed") throw unavailable("Only active fixed-price listings go in a cart.");
    if (l.sellerId === userId) throw own();
    // Lines are counted under the user's row lock, so concurrent adds cannot pass the cap.
    await lockUser(tx, userId);
    const lines = await cartOf(tx, userId);
    if (!lines.some((x) => x.listingId === listingId) && lines.length >= CART_MAX_LINES) {
      throw new DomainError(marketplaceErrors.CART_FULL, `A cart holds at most ${CART_MAX_LINES} lines.`);
    }
    await insertCartLine(tx, userId, listingId, l.price);
  });
  return getCart(db, userId);
}

export async function removeFromCart(db: RawDb | DbTx, userId: string, listingId: string) {
  await deleteCartLines(db, userId, [listingId]);
  return getCart(db, userId);
}

/**
 * Buys every line of the cart at the price it was added, or nothing: each listing is locked (in id order) and
 * re-checked; a line sold, withdrawn or repriced is 409 CART_CHANGED naming it, a short balance INSUFFICIENT_FUNDS.
 */
export async function checkout(db: Db, userId: string, idempotency: IdempotencyKey) {
  await assertMayTrade(db, userId);
  return idempotent(db, { userId, ...idempotency, request: {} }, async (tx) => {
    const lines = (await cartOf(tx, userId)).sort((a, b) => (a.listingId < b.listingId ? -1 : 1));
    if (lines.length === 0) throw new DomainError(marketplaceErrors.CART_EMPTY, "Your cart is empty.");
    // The one lock order: the items (in id order), then their listings (in id order), then the wallets.
    await lockCollectibles(
      tx,
      await itemsOfListings(
        tx,
        lines.map((l) => l.listingId),
      ),
    );
    const locked: LockedListing[] = [];
    const problems: { path: string; message: string }[] = [];
    for (const line of lines) {
      const l = await lockListing(tx, line.listingId);
      if (!l || l.status !== "active" || l.kind !== "fixed") problems.push({ path: `lines.${line.listingId}`, message: "no longer available" });
      else if (l.sellerId === userId) problems.push({ path: `lines.${line.listingId}`, message: "your own listing" });
      else if (l.price !== line.addedPrice) problems.push({ path: `lines.${line.listingId}`, message: `price is now ${l.price}` });
      else locked.push(l);
    }
    if (problems.length > 0)
      throw new DomainError(marketplaceErrors.CART_CHANGED, "Some cart lines changed since you added them: nothing was bought.", problems);
    await refuseLocked(
      tx,
      locked.map((l) => l.collectibleId),
    );
    await lockWallets(tx, [userId, ...locked.map((l) => l.sellerId)], "COIN");
    const orders = [];
    for (const l of locked) {
      let fee: number;
      try {
        fee = await settle(tx, { ...l, buyerId: userId, via: "sale", referenceId: l.id, held: false });
      } catch (e) {
        if (e instanceof ChangedHands)
          throw new DomainError(marketplaceErrors.CART_CHANGED, "A cart line is no longer available: nothing was bought.", [
            { path: `lines.${l.id}`, message: "no longer available" },
          ]);
        throw e;
      }
      await closeListing(tx, l.id, { status: "sold", buyerId: userId, salePrice: l.price, fee });
      orders.push({ listingId: l.id, collectibleId: l.collectibleId, price: l.price });
    }
    await deleteCartLines(
      tx,
      userId,
      locked.map((l) => l.id),
    );
    const { wallets } = await getWallets(tx, userId);
    return { orders, total: orders.reduce((s, o) => s + o.price, 0), balance: wallets.find((w) => w.currency === "COIN")!.balance };
  });
}
