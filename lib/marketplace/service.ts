import type { Db, DbTx } from "../db/client";
import { uuidv7 } from "../db/ids";
import { lockUser } from "../db/tx";
import type { RawDb } from "../db/raw";
import { cardExists, lockCollectible, lockCollectibles, ownerOf, transferOwnership } from "../collectibles/queries";
import { hasLiveMint } from "../economy/queries";
import { toCollectible } from "../collectibles/service";
import { decodeCursor, decodeIdCursor, encodeCursor, encodeIdCursor, invalidCursor } from "../http/cursor";
import { DomainError, notFound, validationError } from "../http/errors";
import { idempotent, sweepIdempotencyKeys } from "../http/idempotency";
import { keysetPage } from "../http/page";
import { UUID_PATTERN } from "../http/schemas";
import { credit, fitsCeiling, getWallets, lockWallets, pay } from "../wallets/service";
import {
  bidsOf,
  cartOf,
  claimEndedAuction,
  closeListing,
  closeOffer,
  deleteCartLines,
  deleteWish,
  insertBid,
  insertCartLine,
  insertListing,
  insertOffer,
  insertWish,
  itemOfListing,
  listingById,
  listingsByIds,
  listingsPage,
  lockActiveListingOf,
  lockExpiredOffers,
  lockListing,
  lockOffer,
  markRefunded,
  notifyOfferUpdate,
  notifyOutbid,
  notifyWishlisted,
  offerById,
  offersOf,
  releaseBid,
  setListingPrice,
  wishlistItem,
  wishlistOf,
  type BidRow,
  type ListingRow,
  type LockedListing,
  type OfferRow,
  type WishlistRow,
} from "./queries";
import { AUCTION_MAX_DAYS, AUCTION_MIN_HOURS, CART_MAX_LINES, FEE_BPS, type CreateListingInput, type ListingsQuery, type WishlistInput } from "./schemas";

// The marketplace. Every change of owner is one transaction taking its locks in the one order: the collectible
// (lockCollectible), then its listing, then the offer, then the wallets (lockWallets, in user-id order). Then the item
// moves (settle → transferOwnership) with the money, and any other active listing of the item is withdrawn in the
// same transaction, its top bid refunded: no listing outlives its seller's ownership. Any refusal rolls all of it back. Bids and offers hold the bidder's funds (a `hold` debit) until they win, are outbid
// or close (a `refund` credit), so settling never depends on a balance that may have moved since.

const HOUR = 3_600_000;
export const feeOf = (price: number) => Math.floor((price * FEE_BPS) / 10_000);

const unavailable = (why = "This listing is no longer available.") => new DomainError("LISTING_UNAVAILABLE", why);
const own = () => new DomainError("CANNOT_BUY_OWN", "You cannot buy, bid on or make an offer for your own item.");

const minNextBid = (l: { bidCount: number; startingPrice: number | null; price: number; minIncrement: number | null }) =>
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

async function listingOut(db: RawDb | DbTx, id: string) {
  return toListing((await listingById(db, id))!);
}

export async function browseListings(db: RawDb | DbTx, q: ListingsQuery) {
  let after: { price: number; id: string } | { id: string } | undefined;
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    if (!UUID_PATTERN.test(c.id)) throw invalidCursor();
    if (q.sort === "price") {
      if (!/^\d{1,10}$/.test(c.sortKey)) throw invalidCursor();
      after = { price: Number(c.sortKey), id: c.id };
    } else if (c.sortKey === "id") after = { id: c.id };
    else throw invalidCursor();
  }
  const rows = await listingsPage(db, { ...q, after, take: q.limit + 1 });
  return keysetPage("listings", rows, q.limit, (r) => (q.sort === "price" ? encodeCursor(r.price, r.listingId) : encodeIdCursor(r.listingId)), toListing);
}

export async function getListing(db: RawDb | DbTx, id: string) {
  const row = await listingById(db, id);
  if (!row) throw notFound("Listing");
  return { listing: toListing(row) };
}

/** Lists a collectible the caller owns, at a fixed price or as an auction; notifies the users who wishlisted it. */
export async function createListing(db: Db, userId: string, input: CreateListingInput) {
  let auction: Pick<LockedListing, "startingPrice" | "reservePrice" | "minIncrement"> & { endsAt: Date | null } = {
    startingPrice: null,
    reservePrice: null,
    minIncrement: null,
    endsAt: null,
  };
  if (input.kind === "auction") {
    const endsAt = new Date(input.endsAt);
    const ahead = endsAt.getTime() - Date.now();
    if (Number.isNaN(ahead) || ahead < AUCTION_MIN_HOURS * HOUR || ahead > AUCTION_MAX_DAYS * 24 * HOUR) {
      throw validationError(`endsAt must be ${AUCTION_MIN_HOURS} hour to ${AUCTION_MAX_DAYS} days ahead.`, [
        { path: "body.endsAt", message: `${AUCTION_MIN_HOURS} hour to ${AUCTION_MAX_DAYS} days ahead` },
      ]);
    }
    if (input.reservePrice !== undefined && input.reservePrice < input.startingPrice) {
      throw validationError("reservePrice must be at least startingPrice.", [{ path: "body.reservePrice", message: "at least startingPrice" }]);
    }
    auction = {
      startingPrice: input.startingPrice,
      reservePrice: input.reservePrice ?? null,
      minIncrement: input.minIncrement ?? Math.max(100, Math.floor(input.startingPrice / 100)),
      endsAt,
    };
  }
  const id = uuidv7();
  await db.$transaction(async (tx) => {
    if ((await lockCollectible(tx, input.collectibleId)) !== userId) throw notFound("Collectible");
    await refuseMinted(tx, input.collectibleId);
    const outcome = await insertListing(tx, {
      id,
      sellerId: userId,
      collectibleId: input.collectibleId,
      kind: input.kind,
      price: input.kind === "fixed" ? input.price : input.startingPrice,
      ...auction,
    });
    if (outcome === "not_owner") throw notFound("Collectible");
    if (outcome === "already_listed") throw new DomainError("ALREADY_LISTED", "This collectible already has an active listing.");
    await notifyWishlisted(tx, id);
  });
  return { listing: await listingOut(db, id) };
}

/** The seller cancels an active listing; an auction only while it has no bid. Staff cancel any, refunding the top bid. */
export async function cancelListing(db: Db, userId: string | null, listingId: string) {
  await db.$transaction(async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l || (userId !== null && l.sellerId !== userId)) throw notFound("Listing");
    if (l.status !== "active") throw unavailable();
    if (l.topBidId) {
      if (userId !== null) throw new DomainError("HAS_BIDS", "This auction has bids: it runs until its end.");
      await refundBid(tx, l.topBidId, l.currency);
    }
    await closeListing(tx, listingId, { status: "cancelled" });
  });
  return { listing: await listingOut(db, listingId) };
}

/** The seller reprices an active fixed-price listing (carts holding it at the old price then refuse to check out). */
export async function repriceListing(db: Db, userId: string, listingId: string, price: number) {
  await db.$transaction(async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l || l.sellerId !== userId) throw notFound("Listing");
    if (l.status !== "active" || l.kind !== "fixed") throw unavailable("Only an active fixed-price listing can be repriced.");
    await setListingPrice(tx, listingId, price);
  });
  return { listing: await listingOut(db, listingId) };
}

async function refundBid(tx: DbTx, bidId: string, currency: "COIN") {
  const released = await releaseBid(tx, bidId);
  if (released) {
    await credit(tx, { userId: released.bidderId, currency, amount: released.amount, reason: "refund", referenceType: "bid", referenceId: bidId });
  }
}

/** Withdraws a listing whose item is changing hands: its top bid (if any) gets its funds back; the bidder's wallet is locked. */
async function withdrawListing(tx: DbTx, l: LockedListing) {
  if (l.topBidId) await refundBid(tx, l.topBidId, l.currency);
  await closeListing(tx, l.id, { status: "cancelled" });
}

/** Locks a listing after its collectible (the one lock order); none when there is no such listing. */
async function lockListingAndItem(tx: DbTx, listingId: string) {
  const collectibleId = await itemOfListing(tx, listingId);
  if (!collectibleId) return undefined;
  await lockCollectible(tx, collectibleId);
  return lockListing(tx, listingId);
}

class ChangedHands extends Error {}

/**
 * Moves the collectible from seller to buyer and the money with it: the buyer pays `price` (unless it is held
 * already), the seller gets it and pays the fee; `withdraw`, the item's other active listing, is closed with it.
 * The caller holds the locks (collectible, listings, both wallets). Returns the fee.
 */
async function settle(
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
  return fee;
}

/** A listing whose seller no longer owns the item (it changed hands as it was listed) is cancelled, then refused. */
async function withStaleListings<T>(db: Db, listingId: string, run: () => Promise<T>): Promise<T> {
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

/** Buys a fixed-price listing: one sale, whoever else tries at the same time (they get LISTING_UNAVAILABLE). */
export async function buyListing(db: Db, userId: string, listingId: string, key: string) {
  const route = "POST /api/v1/marketplace/listings/{listingId}/buy";
  return withStaleListings(db, listingId, () =>
    idempotent(db, { userId, key, route, request: { listingId }, status: 200 }, async (tx) => {
      const l = await lockListingAndItem(tx, listingId);
      if (!l) throw notFound("Listing");
      if (l.status !== "active" || l.kind !== "fixed") throw unavailable();
      if (l.sellerId === userId) throw own();
      await lockWallets(tx, [userId, l.sellerId], l.currency);
      const fee = await settle(tx, { ...l, buyerId: userId, via: "sale", referenceId: l.id, held: false });
      await closeListing(tx, l.id, { status: "sold", buyerId: userId, salePrice: l.price, fee });
      await deleteCartLines(tx, userId, [l.id]);
      return { listing: await listingOut(tx, l.id) };
    }),
  );
}

const toBid = (b: BidRow) => ({ ...b, createdAt: b.createdAt.toISOString() });

/** Bids on an auction: holds the amount, gives the previous top bid its funds back and tells its bidder. */
export async function placeBid(db: Db, userId: string, listingId: string, amount: number, key: string) {
  const route = "POST /api/v1/marketplace/listings/{listingId}/bids";
  return idempotent(db, { userId, key, route, request: { listingId, amount }, status: 201 }, async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l) throw notFound("Listing");
    if (l.kind !== "auction" || l.status !== "active") throw unavailable();
    if (l.ended) throw new DomainError("AUCTION_ENDED", "This auction has ended.");
    if (l.sellerId === userId) throw own();
    const min = minNextBid(l);
    if (amount < min) throw new DomainError("BID_TOO_LOW", `The next bid must be at least ${min}.`, [{ path: "body.amount", message: `at least ${min}` }]);
    await lockWallets(tx, l.topBidderId ? [userId, l.topBidderId] : [userId], l.currency);
    const bidId = uuidv7();
    await pay(tx, { userId, currency: l.currency, amount, reason: "hold", referenceType: "bid", referenceId: bidId });
    await insertBid(tx, { id: bidId, listingId, bidderId: userId, amount });
    if (l.topBidId) {
      await refundBid(tx, l.topBidId, l.currency);
      await notifyOutbid(tx, l.topBidId, listingId);
    }
    const [bid] = await bidsOf(tx, listingId, undefined, 1);
    return { bid: toBid(bid!), listing: await listingOut(tx, listingId) };
  });
}

export async function listBids(db: RawDb | DbTx, listingId: string, q: { cursor?: string; limit: number }) {
  if (!(await listingById(db, listingId))) throw notFound("Listing");
  const rows = await bidsOf(db, listingId, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("bids", rows, q.limit, (r) => encodeIdCursor(r.id), toBid);
}

/**
 * The marketplace cron: settles auctions past their end (the top bid at or above the reserve buys the item with its
 * held funds; otherwise the funds go back and the listing expires), expires open offers past their time,
 * refunding them, and deletes idempotency keys past their expiry. Each in a transaction of its own, taken with SKIP LOCKED, so concurrent runs never settle twice.
 */
export async function runMarketplaceCron(db: Db, limit = 200) {
  const out = { auctionsSold: 0, auctionsExpired: 0, offersExpired: 0, idempotencyKeysDeleted: 0 };
  for (let i = 0; i < limit; i++) {
    const result = await db.$transaction(async (tx) => {
      const id = await claimEndedAuction(tx);
      if (!id) return null;
      const l = (await lockListing(tx, id))!;
      if (l.status !== "active" || !l.ended) return "skipped" as const; // closed or extended since it was selected
      const wins = l.topBidId !== null && (l.reservePrice === null || l.price >= l.reservePrice);
      if (wins) {
        await lockWallets(tx, [l.sellerId, l.topBidderId!], l.currency);
        // A seller whose wallet cannot take the price (past its ceiling) does not sell: the bid goes back, as below.
        if (await fitsCeiling(tx, l.sellerId, l.currency, l.price)) {
          try {
            const fee = await settle(tx, { ...l, buyerId: l.topBidderId!, via: "sale", referenceId: l.id, held: true });
            await closeListing(tx, l.id, { status: "sold", buyerId: l.topBidderId!, salePrice: l.price, fee });
            return "sold" as const;
          } catch (e) {
            if (!(e instanceof ChangedHands)) throw e;
          }
        }
      }
      if (l.topBidId) await refundBid(tx, l.topBidId, l.currency);
      await closeListing(tx, l.id, { status: wins ? "cancelled" : "expired" });
      return "expired" as const;
    });
    if (!result) break;
    if (result === "sold") out.auctionsSold++;
    else if (result === "expired") out.auctionsExpired++;
  }
  for (let i = 0; i < limit; i++) {
    const done = await db.$transaction(async (tx) => {
      const [id] = await lockExpiredOffers(tx, 1);
      if (!id) return false;
      const o = (await offerById(tx, id))!;
      await refundOffer(tx, o);
      await closeOffer(tx, id, "expired");
      return true;
    });
    if (!done) break;
    out.offersExpired++;
  }
  out.idempotencyKeysDeleted = await sweepIdempotencyKeys(db);
  return out;
}

/**
 * Staff reverse a sale with compensating transactions, once: the buyer gets the price back (`refund`), the seller
 * pays back what they were paid net of the fee (`refund`), and the item returns to the seller (history reason
 * `staff`); the buyer's own listing of it, if any, is withdrawn (an auction's top bid refunded). Refused, changing
 * nothing, when the buyer no longer owns the item or the seller's balance is short.
 */
export async function refundSale(db: Db, listingId: string, staffId: string) {
  await db.$transaction(async (tx) => {
    const l = await lockListingAndItem(tx, listingId);
    if (!l) throw notFound("Listing");
    const sale = await markRefunded(tx, listingId);
    if (!sale) throw unavailable("Only a sale not refunded yet can be refunded.");
    const resale = await lockActiveListingOf(tx, l.collectibleId);
    await lockWallets(tx, [l.sellerId, sale.buyerId, ...(resale?.topBidderId ? [resale.topBidderId] : [])], l.currency);
    await refuseMinted(tx, l.collectibleId, "The buyer has minted the item to a wallet: the sale cannot be reversed here.");
    const back = await transferOwnership(tx, {
      collectibleId: l.collectibleId,
      from: sale.buyerId,
      to: l.sellerId,
      reason: "staff",
      referenceId: listingId,
      price: null,
    });
    if (!back) throw unavailable("The buyer no longer owns the item: the sale cannot be reversed.");
    if (resale) await withdrawListing(tx, resale);
    const note = `Sale reversed by staff ${staffId}`;
    await pay(tx, {
      userId: l.sellerId,
      currency: l.currency,
      amount: sale.salePrice - sale.fee,
      reason: "refund",
      referenceType: "listing",
      referenceId: listingId,
      note,
      staffId,
    });
    await credit(tx, {
      userId: sale.buyerId,
      currency: l.currency,
      amount: sale.salePrice,
      reason: "refund",
      referenceType: "listing",
      referenceId: listingId,
      note,
      staffId,
    });
  });
  return { listing: await listingOut(db, listingId) };
}

/**
 * 409 ITEM_MINTED when the item is minted or being minted. Callers that go on to move the item hold its row lock
 * (lockCollectible) first: a mint request takes the same lock, so none can slip in between.
 */
async function refuseMinted(
  tx: DbTx,
  collectibleId: string,
  message = "This collectible is minted to a wallet (or its mint is under way): it cannot change hands here.",
) {
  if (await hasLiveMint(tx, collectibleId)) throw new DomainError("ITEM_MINTED", message);
}

// Offers.

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

async function refundOffer(tx: DbTx, o: OfferRow) {
  await credit(tx, { userId: o.buyerId, currency: o.currency, amount: o.amount, reason: "refund", referenceType: "offer", referenceId: o.id });
}

/** An offer on an item, listed or not: the amount is held from the caller's wallet until it closes. */
export async function makeOffer(db: Db, userId: string, input: { collectibleId: string; amount: number; expiresInHours: number }, key: string) {
  return idempotent(db, { userId, key, route: "POST /api/v1/marketplace/offers", request: input, status: 201 }, async (tx) => {
    const ownerId = await ownerOf(tx, input.collectibleId);
    if (!ownerId) throw notFound("Collectible");
    if (ownerId === userId) throw own();
    await refuseMinted(tx, input.collectibleId);
    const id = uuidv7();
    const inserted = await insertOffer(tx, {
      id,
      collectibleId: input.collectibleId,
      buyerId: userId,
      amount: input.amount,
      expiresAt: new Date(Date.now() + input.expiresInHours * HOUR),
    });
    if (!inserted) throw new DomainError("OFFER_EXISTS", "You already have an open offer on this item: cancel it to make another.");
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
  if (o.status !== "open") throw new DomainError("OFFER_CLOSED", `This offer is ${o.status}.`);
  if (o.expired) throw new DomainError("OFFER_CLOSED", "This offer has expired; its funds go back to the buyer.");
  if ((as === "owner" ? o.ownerId : o.buyerId) !== userId) {
    throw new DomainError("FORBIDDEN", as === "owner" ? "Only the item's owner can do this." : "Only the buyer can cancel an offer.");
  }
  return o;
}

/** The owner accepts: settles like a sale with the held funds; a fixed-price listing of the item is withdrawn. */
export async function acceptOffer(db: Db, userId: string, offerId: string) {
  await db.$transaction(async (tx) => {
    const item = (await offerById(tx, offerId))?.collectibleId;
    if (!item) throw notFound("Offer");
    await lockCollectible(tx, item);
    const listing = await lockActiveListingOf(tx, item);
    const o = await openOffer(tx, userId, offerId, "owner");
    if (listing?.kind === "auction") throw new DomainError("ITEM_IN_AUCTION", "This item is in a running auction: it can only change hands there.");
    await lockWallets(tx, [userId, o.buyerId], o.currency);
    await refuseMinted(tx, o.collectibleId);
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
      if (e instanceof ChangedHands) throw new DomainError("OFFER_CLOSED", "The item changed hands.");
      throw e;
    }
    await closeOffer(tx, o.id, "accepted", { sellerId: userId, fee });
    await notifyOfferUpdate(tx, o.id);
  });
  return { offer: toOffer((await offerById(db, offerId))!) };
}

export async function declineOffer(db: Db, userId: string, offerId: string) {
  await db.$transaction(async (tx) => {
    const o = await openOffer(tx, userId, offerId, "owner");
    await refundOffer(tx, o);
    await closeOffer(tx, o.id, "declined", { sellerId: userId });
    await notifyOfferUpdate(tx, o.id);
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

// Cart and checkout.

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
      throw new DomainError("CART_FULL", `A cart holds at most ${CART_MAX_LINES} lines.`);
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
export async function checkout(db: Db, userId: string, key: string) {
  return idempotent(db, { userId, key, route: "POST /api/v1/marketplace/checkout", request: {}, status: 200 }, async (tx) => {
    const lines = (await cartOf(tx, userId)).sort((a, b) => (a.listingId < b.listingId ? -1 : 1));
    if (lines.length === 0) throw new DomainError("CART_EMPTY", "Your cart is empty.");
    // The one lock order: the items (in id order), then their listings (in id order), then the wallets.
    const items = await listingsByIds(
      tx,
      lines.map((l) => l.listingId),
    );
    await lockCollectibles(
      tx,
      items.map((l) => l.id),
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
    if (problems.length > 0) throw new DomainError("CART_CHANGED", "Some cart lines changed since you added them: nothing was bought.", problems);
    await lockWallets(tx, [userId, ...locked.map((l) => l.sellerId)], "COIN");
    const orders = [];
    for (const l of locked) {
      let fee: number;
      try {
        fee = await settle(tx, { ...l, buyerId: userId, via: "sale", referenceId: l.id, held: false });
      } catch (e) {
        if (e instanceof ChangedHands)
          throw new DomainError("CART_CHANGED", "A cart line is no longer available: nothing was bought.", [
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

// Wishlist.

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
