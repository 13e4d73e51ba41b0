// Offers on an item, listed or not: making one (its amount held), the owner's accept (settled like a sale) and
// decline, the buyer's cancel, and reading them.
import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { lockCollectible, ownerOf } from "../../core/collectibles/service";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { idempotent, type IdempotencyKey } from "../../db/idempotency";
import { keysetPage } from "../../kernel/page";
import { credit, lockWallets, pay } from "../../core/wallets/service";
import { refuseLocked } from "../challenges/service";
import { ChangedHands, HOUR, own, refuseMinted, settle } from "./ownership";
import { closeOffer, insertOffer, lockActiveListingOf, lockOffer, notifyOfferUpdate, offerById, offersOf, type OfferRow } from "./queries";
import { errors as marketplaceErrors } from "./errors";
import { assertMayTrade, standingRefusal, tradingStanding } from "../moderation/service";
import { notePushSoon } from "../../core/push/service";
import { assertOfferWelcome } from "./offer-settings";

const toOffer = (o: OfferRow) => ({
  id: o.id,
  collectibleId: o.collectibleId,
  buyerId: o.buyerId,
  ownerId: o.ownerId,
  amount: o.amount,
  currency: o.currency,
  status: o.status,
  sellerId: o.sellerId,
  fee: o.fee,
  expiresAt: o.expiresAt.toISOString(),
  createdAt: o.createdAt.toISOString(),
  closedAt: o.closedAt?.toISOString() ?? null,
});

export async function refundOffer(tx: DbTx, o: OfferRow) {
  await credit(tx, { userId: o.buyerId, currency: o.currency, amount: o.amount, reason: "refund", referenceType: "offer", referenceId: o.id });
}

/** An offer on an item, listed or not: the amount is held from the caller's wallet until it closes. */
export async function makeOffer(db: Db, userId: string, input: { collectibleId: string; amount: number; expiresInHours: number }, idempotency: IdempotencyKey) {
  await assertMayTrade(db, userId);
  return idempotent(db, { userId, ...idempotency, request: input }, async (tx) => {
    const ownerId = await ownerOf(tx, input.collectibleId);
    if (!ownerId) throw notFound("Collectible");
    if (ownerId === userId) throw own();
    await assertOfferWelcome(tx, ownerId, userId, input.collectibleId, input.amount);
    await refuseMinted(tx, input.collectibleId);
    const id = uuidv7();
    const inserted = await insertOffer(tx, {
      id,
      collectibleId: input.collectibleId,
      buyerId: userId,
      amount: input.amount,
      expiresAt: new Date(Date.now() + input.expiresInHours * HOUR),
    });
    if (!inserted) throw new DomainError(marketplaceErrors.OFFER_EXISTS, "You already have an open offer on this item: cancel it to make another.");
    await pay(tx, { userId, currency: "COIN", amount: input.amount, reason: "hold", referenceType: "offer", referenceId: id });
    return { offer: toOffer((await offerById(tx, id))!) };
  });
}

/**
 * The open offer, locked, with the caller's part in it checked: the owner accepts and declines, the buyer cancels.
 * Anyone but its buyer, the item's owner and (once closed) the owner who closed it gets 404.
 */
async function openOffer(tx: DbTx, userId: string, offerId: string, as: "owner" | "buyer") {
  if (!(await lockOffer(tx, offerId))) throw notFound("Offer");
  const o = (await offerById(tx, offerId))!;
  if (![o.buyerId, o.ownerId, o.sellerId].includes(userId)) throw notFound("Offer");
  if (o.status !== "open") throw new DomainError(marketplaceErrors.OFFER_CLOSED, `This offer is ${o.status}.`);
  if (o.expired) throw new DomainError(marketplaceErrors.OFFER_CLOSED, "This offer has expired; its funds go back to the buyer.");
  if ((as === "owner" ? o.ownerId : o.buyerId) !== userId) {
    throw new DomainError(sharedErrors.FORBIDDEN, as === "owner" ? "Only the item's owner can do this." : "Only the buyer can cancel an offer.");
  }
  return o;
}

/**
 * The owner accepts: settles like a sale with the held funds; a fixed-price listing of the item is withdrawn. A buyer
 * who can no longer trade (restricted, deletion pending, or a frozen wallet: standingRefusal, checked under the
 * wallets' locks) does not get the item: the offer is cancelled, its held funds go back (committed), and the owner
 * gets 409 OFFER_BUYER_CANNOT_TRADE, which does not say which of the buyer's reasons it is.
 */
export async function acceptOffer(db: Db, userId: string, offerId: string) {
  await assertMayTrade(db, userId);
  const buyerBarred = await db.$transaction(async (tx) => {
    const item = (await offerById(tx, offerId))?.collectibleId;
    if (!item) throw notFound("Offer");
    await lockCollectible(tx, item);
    const listing = await lockActiveListingOf(tx, item);
    const o = await openOffer(tx, userId, offerId, "owner");
    if (listing?.kind === "auction")
      throw new DomainError(marketplaceErrors.ITEM_IN_AUCTION, "This item is in a running auction: it can only change hands there.");
    await lockWallets(tx, [userId, o.buyerId], o.currency);
    if (standingRefusal(await tradingStanding(tx, o.buyerId), "trade")) {
      await refundOffer(tx, o);
      await closeOffer(tx, o.id, "cancelled");
      return true;
    }
    await refuseMinted(tx, o.collectibleId);
    await refuseLocked(tx, [o.collectibleId]);
    let fee: number;
    try {
      fee = await settle(tx, {
        collectibleId: o.collectibleId,
        sellerId: userId,
        buyerId: o.buyerId,
        price: o.amount,
        currency: o.currency,
        via: "offer",
        referenceId: o.id,
        held: true,
        withdraw: listing,
      });
    } catch (e) {
      if (e instanceof ChangedHands) throw new DomainError(marketplaceErrors.OFFER_CLOSED, "The item changed hands.");
      throw e;
    }
    await closeOffer(tx, o.id, "accepted", { sellerId: userId, fee });
    await notifyOfferUpdate(tx, o.id);
    notePushSoon();
    return false;
  });
  if (buyerBarred) {
    throw new DomainError(
      marketplaceErrors.OFFER_BUYER_CANNOT_TRADE,
      "The buyer can no longer trade: the offer is now cancelled, nothing moved, and the buyer's held funds are back.",
    );
  }
  return { offer: toOffer((await offerById(db, offerId))!) };
}

export async function declineOffer(db: Db, userId: string, offerId: string) {
  await db.$transaction(async (tx) => {
    const o = await openOffer(tx, userId, offerId, "owner");
    await refundOffer(tx, o);
    await closeOffer(tx, o.id, "declined", { sellerId: userId });
    await notifyOfferUpdate(tx, o.id);
    notePushSoon();
  });
  return { offer: toOffer((await offerById(db, offerId))!) };
}

export async function cancelOffer(db: Db, userId: string, offerId: string) {
  await db.$transaction(async (tx) => {
    const o = await openOffer(tx, userId, offerId, "buyer");
    await refundOffer(tx, o);
    await closeOffer(tx, o.id, "cancelled");
  });
  return { offer: toOffer((await offerById(db, offerId))!) };
}

export async function listOffers(
  db: RawDb | DbTx,
  userId: string,
  q: { role: "made" | "received"; status?: OfferRow["status"]; cursor?: string; limit: number },
) {
  const rows = await offersOf(db, userId, { ...q, before: q.cursor ? decodeIdCursor(q.cursor) : undefined, take: q.limit + 1 });
  return keysetPage("offers", rows, q.limit, (r) => encodeIdCursor(r.id), toOffer);
}

export async function getOffer(db: RawDb | DbTx, userId: string, offerId: string) {
  const o = await offerById(db, offerId);
  if (!o || (o.buyerId !== userId && o.ownerId !== userId && o.sellerId !== userId)) throw notFound("Offer");
  return { offer: toOffer(o) };
}
