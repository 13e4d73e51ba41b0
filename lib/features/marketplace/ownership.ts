// What every change of owner in the marketplace shares: the lock order (lockListingAndItem), the move of the item
// with its money (settle), withdrawing a listing and refunding its top bid, refusing minted items, the fee, and
// the listing as the API shows it (toListing).
import type { Db, DbTx } from "../../db/client";
import type { RawDb } from "../../db/raw";
import { lockCollectible, transferOwnership } from "../../core/collectibles/service";
import { toCollectible } from "../../core/collectibles/service";
import { hasLiveMint } from "../economy/service";
import { DomainError } from "../../kernel/errors";
import { recordSale } from "../../core/market-data/service";
import { credit, pay } from "../../core/wallets/service";
import { closeListing, itemsOfListings, listingById, lockListing, releaseBid, type ListingRow, type LockedListing } from "./queries";
import { FEE_BPS } from "./schemas";
import { errors as marketplaceErrors } from "./errors";

// The marketplace. Every change of owner is one transaction taking its locks in the one order: the collectible
// (lockCollectible), then its listing, then the offer, then the wallets (lockWallets, in user-id order). Then the item
// moves (settle → transferOwnership) with the money, and any other active listing of the item is withdrawn in the
// same transaction, its top bid refunded: no listing outlives its seller's ownership. Any refusal rolls all of it
// back. Bids and offers hold the bidder's funds (a `hold` debit) until they win, are outbid or close (a `refund`
// credit), so settling never depends on a balance that may have moved since.

export const HOUR = 3_600_000;
export const feeOf = (price: number) => Math.floor((price * FEE_BPS) / 10_000);

export const unavailable = (why = "This listing is no longer available.") => new DomainError(marketplaceErrors.LISTING_UNAVAILABLE, why);
export const own = () => new DomainError(marketplaceErrors.CANNOT_BUY_OWN, "You cannot buy, bid on or make an offer for your own item.");

export const minNextBid = (l: { bidCount: number; startingPrice: number | null; price: number; minIncrement: number | null }) =>
  l.bidCount === 0 ? l.startingPrice! : l.price + l.minIncrement!;

export function toListing(r: ListingRow) {
  const auction = r.listingKind === "auction";
  const ended = auction && r.endsAt !== null && r.endsAt.getTime() <= Date.now();
  return {
    id: r.listingId,
    kind: r.listingKind,
    status: r.status,
    seller: { id: r.sellerId, handle: r.sellerHandle, displayName: r.sellerDisplayName },
    collectible: toCollectible(r),
    currency: r.currency,
    price: r.price,
    startingPrice: r.startingPrice,
    minIncrement: r.minIncrement,
    minNextBid: auction && r.status === "active" && !ended ? minNextBid(r) : null,
    reserveMet: auction && r.reservePrice !== null ? r.bidCount > 0 && r.price >= r.reservePrice : null,
    endsAt: r.endsAt?.toISOString() ?? null,
    ended,
    bidCount: r.bidCount,
    topBidderId: r.topBidderId,
    sale: r.status === "sold" ? { buyerId: r.buyerId!, price: r.salePrice!, fee: r.fee!, at: r.closedAt!.toISOString() } : null,
    refundedAt: r.refundedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    closedAt: r.closedAt?.toISOString() ?? null,
  };
}

export async function listingOut(db: RawDb | DbTx, id: string) {
  return toListing((await listingById(db, id))!);
}

export async function refundBid(tx: DbTx, bidId: string, currency: "COIN") {
  const released = await releaseBid(tx, bidId);
  if (released) {
    await credit(tx, { userId: released.bidderId, currency, amount: released.amount, reason: "refund", referenceType: "bid", referenceId: bidId });
  }
}

/** Withdraws a listing whose item is changing hands: its top bid (if any) gets its funds back; the bidder's wallet is locked. */
export async function withdrawListing(tx: DbTx, l: LockedListing) {
  if (l.topBidId) await refundBid(tx, l.topBidId, l.currency);
  await closeListing(tx, l.id, { status: "cancelled" });
}

/** Locks a listing after its collectible (the one lock order); none when there is no such listing. */
export async function lockListingAndItem(tx: DbTx, listingId: string) {
  const [collectibleId] = await itemsOfListings(tx, [listingId]);
  if (!collectibleId) return undefined;
  await lockCollectible(tx, collectibleId);
  return lockListing(tx, listingId);
}

export class ChangedHands extends Error {}

/**
 * Moves the collectible from seller to buyer and the money with it: the buyer pays `price` (unless it is held
 * already), the seller gets it and pays the fee; `withdraw`, the item's other active listing, is closed with it; the
 * sale goes into the market's history. The caller holds the locks (collectible, listings, both wallets). Returns the fee.
 */
export async function settle(
  tx: DbTx,
  s: {
    collectibleId: string;
    sellerId: string;
    buyerId: string;
    price: number;
    currency: "COIN";
    via: "sale" | "offer";
    referenceId: string;
    held: boolean;
    withdraw?: LockedListing;
  },
) {
  const referenceType = s.via === "sale" ? "listing" : "offer";
  if (
    !(await transferOwnership(tx, {
      collectibleId: s.collectibleId,
      from: s.sellerId,
      to: s.buyerId,
      reason: s.via,
      referenceId: s.referenceId,
      price: s.price,
    }))
  ) {
    throw new ChangedHands();
  }
  if (s.withdraw) await withdrawListing(tx, s.withdraw);
  if (!s.held) await pay(tx, { userId: s.buyerId, currency: s.currency, amount: s.price, reason: "purchase", referenceType, referenceId: s.referenceId });
  await credit(tx, { userId: s.sellerId, currency: s.currency, amount: s.price, reason: "sale", referenceType, referenceId: s.referenceId });
  const fee = feeOf(s.price);
  if (fee > 0) await pay(tx, { userId: s.sellerId, currency: s.currency, amount: fee, reason: "fee", referenceType, referenceId: s.referenceId });
  await recordSale(tx, { ...s, fee });
  return fee;
}

/** A listing whose seller no longer owns the item (it changed hands as it was listed) is cancelled, then refused. */
export async function withStaleListings<T>(db: Db, listingId: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof ChangedHands)) throw e;
    await db.$transaction(async (tx) => {
      if ((await lockListing(tx, listingId))?.status === "active") await closeListing(tx, listingId, { status: "cancelled" });
    });
    throw unavailable("This listing was withdrawn: the item is no longer the seller's.");
  }
}

/**
 * 409 ITEM_MINTED when the item is minted or being minted. Callers that go on to move the item hold its row lock
 * (lockCollectible) first: a mint request takes the same lock, so none can slip in between.
 */
export async function refuseMinted(
  tx: DbTx,
  collectibleId: string,
  message = "This collectible is minted to a wallet (or its mint is under way): it cannot change hands here.",
) {
  if (await hasLiveMint(tx, collectibleId)) throw new DomainError(marketplaceErrors.ITEM_MINTED, message);
}
