// Auctions and settlement: bids (placing one holds its amount and refunds the one it beats, listing them), and
// the marketplace cron that settles ended auctions, expires offers past their time and sweeps idempotency keys.
import type { Db, DbTx } from "../db/client";
import { uuidv7 } from "../db/ids";
import type { RawDb } from "../db/raw";
import { decodeIdCursor, encodeIdCursor } from "../kernel/cursor";
import { DomainError, notFound } from "../http/errors";
import { idempotent, sweepIdempotencyKeys, type IdempotencyKey } from "../db/idempotency";
import { keysetPage } from "../kernel/page";
import { fitsCeiling, lockWallets, pay } from "../wallets/service";
import { ChangedHands, listingOut, minNextBid, own, refundBid, settle, unavailable } from "./ownership";
import { refundOffer } from "./offers";
import { expireTrades } from "./trades";
import {
  bidsOf,
  claimEndedAuction,
  closeListing,
  closeOffer,
  insertBid,
  listingById,
  lockExpiredOffers,
  lockListing,
  notifyOutbid,
  offerById,
  type BidRow,
} from "./queries";
import { errors as marketplaceErrors } from "./errors";
import { assertMayTrade } from "../moderation/sanctions";
import { notePushSoon } from "../push/soon";

const toBid = (b: BidRow) => ({ ...b, createdAt: b.createdAt.toISOString() });

/** Bids on an auction: holds the amount, gives the previous top bid its funds back and tells its bidder. */
export async function placeBid(db: Db, userId: string, listingId: string, amount: number, idempotency: IdempotencyKey) {
  await assertMayTrade(db, userId);
  return idempotent(db, { userId, ...idempotency, request: { listingId, amount } }, async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l) throw notFound("Listing");
    if (l.kind !== "auction" || l.status !== "active") throw unavailable();
    if (l.ended) throw new DomainError(marketplaceErrors.AUCTION_ENDED, "This auction has ended.");
    if (l.sellerId === userId) throw own();
    const min = minNextBid(l);
    if (amount < min)
      throw new DomainError(marketplaceErrors.BID_TOO_LOW, `The next bid must be at least ${min}.`, [{ path: "body.amount", message: `at least ${min}` }]);
    await lockWallets(tx, l.topBidderId ? [userId, l.topBidderId] : [userId], l.currency);
    const bidId = uuidv7();
    await pay(tx, { userId, currency: l.currency, amount, reason: "hold", referenceType: "bid", referenceId: bidId });
    await insertBid(tx, { id: bidId, listingId, bidderId: userId, amount });
    if (l.topBidId) {
      await refundBid(tx, l.topBidId, l.currency);
      await notifyOutbid(tx, l.topBidId, listingId);
      notePushSoon();
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
  const tradesExpired = await expireTrades(db, limit);
  out.idempotencyKeysDeleted = await sweepIdempotencyKeys(db);
  return { ...out, tradesExpired };
}
