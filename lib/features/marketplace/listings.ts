// Listings: browsing and reading them, listing a collectible (fixed price or auction), the seller's cancel and
// reprice, buying a fixed-price listing, and staff's cancel and sale refund.
import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { lockCollectible, transferOwnership } from "../../core/collectibles/service";
import { decodeCursor, encodeCursor, encodeIdCursor, invalidCursor } from "../../kernel/cursor";
import { DomainError, notFound, validationError } from "../../kernel/errors";
import { idempotent, type IdempotencyKey } from "../../db/idempotency";
import { keysetPage } from "../../kernel/page";
import { UUID_PATTERN } from "../../kernel/schemas";
import { credit, lockWallets, pay } from "../../core/wallets/service";
import {
  closeListing,
  deleteCartLines,
  insertListing,
  listingById,
  listingsPage,
  lockActiveListingOf,
  lockListing,
  markRefunded,
  notifyWishlisted,
  setListingPrice,
  type LockedListing,
} from "./queries";
import {
  HOUR,
  listingOut,
  lockListingAndItem,
  own,
  refundBid,
  refuseMinted,
  settle,
  toListing,
  unavailable,
  withdrawListing,
  withStaleListings,
} from "./ownership";
import { refuseLocked } from "../challenges/service";
import { AUCTION_MAX_DAYS, AUCTION_MIN_HOURS, type CreateListingInput, type ListingsQuery } from "./schemas";
import { errors as marketplaceErrors } from "./errors";
import { firePriceAlerts, markSaleRefunded, sellerReputations } from "../../core/market-data/service";
import { assertMayTrade } from "../moderation/service";
import { notePushSoon } from "../../core/push/service";
import { auctionState, publishAuctionEvents } from "./auction-changes";

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
  const page = keysetPage("listings", rows, q.limit, (r) => (q.sort === "price" ? encodeCursor(r.price, r.listingId) : encodeIdCursor(r.listingId)), toListing);
  return { ...page, listings: await withReputation(db, page.listings) };
}

export async function getListing(db: RawDb | DbTx, id: string) {
  const row = await listingById(db, id);
  if (!row) throw notFound("Listing");
  const [listing] = await withReputation(db, [toListing(row)]);
  return { listing: listing! };
}

/** The listings with each seller's reputation (market data). */
async function withReputation(db: RawDb | DbTx, listings: ReturnType<typeof toListing>[]) {
  const reputation = await sellerReputations(
    db,
    listings.map((l) => l.seller.id),
  );
  return listings.map((l) => ({ ...l, seller: { ...l.seller, reputation: reputation.get(l.seller.id) } }));
}

/** Lists a collectible the caller owns, at a fixed price or as an auction; notifies the users who wishlisted it or have a price alert it matches. */
export async function createListing(db: Db, userId: string, input: CreateListingInput) {
  await assertMayTrade(db, userId);
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
    await refuseLocked(tx, [input.collectibleId]);
    const outcome = await insertListing(tx, {
      id,
      sellerId: userId,
      collectibleId: input.collectibleId,
      kind: input.kind,
      price: input.kind === "fixed" ? input.price : input.startingPrice,
      ...auction,
    });
    if (outcome === "not_owner") throw notFound("Collectible");
    if (outcome === "already_listed") throw new DomainError(marketplaceErrors.ALREADY_LISTED, "This collectible already has an active listing.");
    await notifyWishlisted(tx, id);
    await firePriceAlerts(tx, id);
    notePushSoon();
  });
  return { listing: await listingOut(db, id) };
}

/** The seller cancels their active listing; an auction only while it has no bid. */
export function cancelListing(db: Db, userId: string, listingId: string) {
  return cancel(db, listingId, { userId });
}

/** Staff cancel any active listing, refunding an auction's top bid, with its audit entry (`listing.cancel`). */
export function cancelListingAsStaff(db: Db, listingId: string, actor: StaffActor) {
  return cancel(db, listingId, { actor });
}

async function cancel(db: Db, listingId: string, by: { userId: string } | { actor: StaffActor }) {
  await db.$transaction(async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l || ("userId" in by && l.sellerId !== by.userId)) throw notFound("Listing");
    if (l.status !== "active") throw unavailable();
    if (l.topBidId) {
      if ("userId" in by) throw new DomainError(marketplaceErrors.HAS_BIDS, "This auction has bids: it runs until its end.");
      await refundBid(tx, l.topBidId, l.currency);
    }
    await closeListing(tx, listingId, { status: "cancelled" });
    if ("actor" in by) {
      await recordAudit(tx, by.actor, {
        action: "listing.cancel",
        targetType: "listing",
        targetId: listingId,
        before: { status: "active", sellerId: l.sellerId, topBidId: l.topBidId ?? null },
        after: { status: "cancelled" },
      });
    }
  });
  const listing = await listingOut(db, listingId);
  if (listing.kind === "auction") await publishAuctionEvents([{ type: "end", listingId, data: { listing: auctionState(listing) } }]);
  return { listing };
}

/**
 * The seller reprices an active fixed-price listing (carts holding it at the old price then refuse to check out);
 * price alerts the new price matches fire.
 */
export async function repriceListing(db: Db, userId: string, listingId: string, price: number) {
  await db.$transaction(async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l || l.sellerId !== userId) throw notFound("Listing");
    if (l.status !== "active" || l.kind !== "fixed") throw unavailable("Only an active fixed-price listing can be repriced.");
    await setListingPrice(tx, listingId, price);
    if ((await firePriceAlerts(tx, listingId)) > 0) notePushSoon();
  });
  return { listing: await listingOut(db, listingId) };
}

/** Buys a fixed-price listing: one sale, whoever else tries at the same time (they get LISTING_UNAVAILABLE). */
export async function buyListing(db: Db, userId: string, listingId: string, idempotency: IdempotencyKey) {
  await assertMayTrade(db, userId);
  return withStaleListings(db, listingId, () =>
    idempotent(db, { userId, ...idempotency, request: { listingId } }, async (tx) => {
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

/**
 * Staff reverse a sale with compensating transactions, once: the buyer gets the price back (`refund`), the seller
 * pays back what they were paid net of the fee (`refund`), and the item returns to the seller (history reason
 * `staff`); the buyer's own listing of it, if any, is withdrawn (an auction's top bid refunded). Refused, changing
 * nothing, when the buyer no longer owns the item or the seller's balance is short.
 */
export async function refundSale(db: Db, listingId: string, actor: StaffActor) {
  const staffId = actor.id;
  await db.$transaction(async (tx) => {
    const l = await lockListingAndItem(tx, listingId);
    if (!l) throw notFound("Listing");
    const sale = await markRefunded(tx, listingId);
    if (!sale) throw unavailable("Only a sale not refunded yet can be refunded.");
    await markSaleRefunded(tx, listingId);
    const resale = await lockActiveListingOf(tx, l.collectibleId);
    await lockWallets(tx, [l.sellerId, sale.buyerId, ...(resale?.topBidderId ? [resale.topBidderId] : [])], l.currency);
    await refuseMinted(tx, l.collectibleId, "The buyer has minted the item to a wallet: the sale cannot be reversed here.");
    await refuseLocked(tx, [l.collectibleId]);
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
    await recordAudit(tx, actor, {
      action: "listing.refund",
      targetType: "listing",
      targetId: listingId,
      before: { buyerId: sale.buyerId, sellerId: l.sellerId, refunded: false },
      after: { refunded: true, buyerCredited: sale.salePrice, sellerDebited: sale.salePrice - sale.fee, currency: l.currency },
    });
  });
  return { listing: await listingOut(db, listingId) };
}
