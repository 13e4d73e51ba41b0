// Auctions and settlement: bids (placing one holds its amount and refunds the one it beats, listing them), and
// the marketplace cron that settles ended auctions, expires offers past their time and sweeps idempotency keys.
import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { DomainError, notFound, validationError } from "../../kernel/errors";
import { idempotent, keyInUse, sweepIdempotencyKeys, type IdempotencyKey } from "../../db/idempotency";
import { keysetPage } from "../../kernel/page";
import { credit, fitsCeiling, lockWallets, pay } from "../../core/wallets/service";
import { ChangedHands, listingOut, minNextBid, own, refundBid, settle, toListing, unavailable } from "./ownership";
import { refundOffer } from "./offers";
import { expireTrades } from "./trades";
import {
  bidsOf,
  claimEndedAuction,
  closeListing,
  closeOffer,
  insertBid,
  listingById,
  listingsByIds,
  lockExpiredOffers,
  lockListing,
  notifyOutbid,
  offerById,
  type BidRow,
  type LockedListing,
} from "./queries";
import { errors as marketplaceErrors } from "./errors";
import { assertMayTrade, standingRefusal, tradingStanding } from "../moderation/service";
import { notePushSoon } from "../../core/push/service";
import { env } from "../../env";
import { bidById, myAuctions, openAuctionMinimum, runnersUp, setBidAmount, type MyBidState } from "./bid-queries";
import { balancesOf } from "../../core/wallets/service";
import { auctionState, publishAuctionEvents, type AuctionEvent } from "./auction-changes";

const tooLow = (min: number) =>
  new DomainError(marketplaceErrors.BID_TOO_LOW, `The next bid must be at least ${min}.`, [{ path: "body.amount", message: `at least ${min}` }]);

/** A bid as shown to `viewerId`: its maximum only to its own bidder (a leader's maximum is never shown to others). */
const toBid = (b: BidRow, viewerId: string | null) => ({
  id: b.id,
  bidderId: b.bidderId,
  handle: b.handle,
  amount: b.amount,
  maxAmount: b.bidderId === viewerId ? b.maxAmount : null,
  createdAt: b.createdAt.toISOString(),
});

/**
 * Proxy bidding (eBay's rule) against the auction's leading bid: who leads after a bid of `amount` up to `maxAmount`,
 * and the price. A higher maximum leads at the second-highest maximum plus the increment, capped at its own maximum
 * (and at least its `amount`); an equal or lower one loses to the earlier bid, which rises to that maximum plus the
 * increment, capped at its own. A leader whose maximum meets the reserve stands at least at the reserve. The leader
 * bidding again replaces their bid: a new maximum at the same price. Pure: the caller holds the listing's row lock.
 */
export function resolveBid(
  l: { topBidId: string | null; topBidderId: string | null; topMax: number | null; price: number; minIncrement: number | null; reservePrice: number | null },
  b: { bidderId: string; amount: number; maxAmount: number },
): { leads: boolean; price: number } {
  const inc = l.minIncrement!;
  let leads: boolean, price: number, leaderMax: number;
  if (!l.topBidId) [leads, price, leaderMax] = [true, b.amount, b.maxAmount];
  // The leader raising their own maximum: the second-highest maximum has not moved, so neither does the price.
  else if (l.topBidderId === b.bidderId) [leads, price, leaderMax] = [true, l.price, b.maxAmount];
  else if (b.maxAmount > l.topMax!) [leads, price, leaderMax] = [true, Math.max(b.amount, Math.min(l.topMax! + inc, b.maxAmount)), b.maxAmount];
  else [leads, price, leaderMax] = [false, Math.min(l.topMax!, b.maxAmount + inc), l.topMax!];
  if (l.reservePrice !== null && leaderMax >= l.reservePrice) price = Math.max(price, l.reservePrice);
  return { leads, price };
}

/**
 * Bids on an auction, up to `maxAmount` (default: the amount): holds the maximum, then settles who leads by proxy
 * bidding (resolveBid). A displaced leader gets its funds back and one OUTBID; a bid that does not beat the leader's
 * maximum is refunded at once (the leader's automatic raise notifies nobody). A bid in the last
 * AUCTION_SOFT_CLOSE_MINUTES moves the end to now plus that many minutes. All under the listing's row lock.
 */
export async function placeBid(db: Db, userId: string, listingId: string, amount: number, idempotency: IdempotencyKey, maxAmount?: number) {
  await assertMayTrade(db, userId);
  if (maxAmount !== undefined && maxAmount < amount)
    throw validationError("maxAmount must be at least amount.", [{ path: "body.maxAmount", message: "at least amount" }]);
  const max = maxAmount ?? amount;
  // A bid below the minimum now is below it later too (a running auction's price only rises): refused without
  // queueing on the listing's lock, where a hot auction's late bids would wait, unless its key was used already (a
  // retry is answered as its first request was).
  const floor = await openAuctionMinimum(db, listingId, userId);
  if (floor !== undefined && amount < floor && !(await keyInUse(db, userId, idempotency.key))) throw tooLow(floor);
  const events: AuctionEvent[] = [];
  const request = maxAmount === undefined ? { listingId, amount } : { listingId, amount, maxAmount };
  const out = await idempotent(db, { userId, ...idempotency, request }, async (tx) => {
    const l = await lockListing(tx, listingId);
    if (!l) throw notFound("Listing");
    if (l.kind !== "auction" || l.status !== "active") throw unavailable();
    if (l.ended) throw new DomainError(marketplaceErrors.AUCTION_ENDED, "This auction has ended.");
    if (l.sellerId === userId) throw own();
    const min = minNextBid(l);
    if (amount < min) throw tooLow(min);
    await lockWallets(tx, l.topBidderId ? [userId, l.topBidderId] : [userId], l.currency);
    const bidId = uuidv7();
    const { leads, price } = resolveBid(l, { bidderId: userId, amount, maxAmount: max });
    await pay(tx, { userId, currency: l.currency, amount: max, reason: "hold", referenceType: "bid", referenceId: bidId });
    const endsAt = await insertBid(
      tx,
      {
        id: bidId,
        listingId,
        bidderId: userId,
        amount: leads ? price : max,
        maxAmount: max,
        price,
        leadBidId: leads ? bidId : l.topBidId!,
        leaderId: leads ? userId : l.topBidderId!,
      },
      env().AUCTION_SOFT_CLOSE_MINUTES,
    );
    if (!leads) {
      await setBidAmount(tx, l.topBidId!, price);
      await refundBid(tx, bidId, l.currency);
    } else if (l.topBidId) {
      // A displaced leader's bid stood, at the end, at its maximum; the leader's own earlier bid is just replaced.
      if (l.topBidderId !== userId) await setBidAmount(tx, l.topBidId, l.topMax!);
      await refundBid(tx, l.topBidId, l.currency);
      if ((await notifyOutbid(tx, l.topBidId, listingId)) > 0) notePushSoon();
    }
    const listing = await listingOut(tx, listingId);
    const bid = (await bidById(tx, bidId))!;
    events.push({ type: "bid", listingId, data: { bid: toBid(bid, null), leading: leads, listing: auctionState(listing) } });
    if (endsAt.getTime() !== l.endsAt!.getTime())
      events.push({ type: "extended", listingId, data: { endsAt: endsAt.toISOString(), listing: auctionState(listing) } });
    return { bid: toBid(bid, userId), leading: leads, listing };
  });
  await publishAuctionEvents(events);
  return out;
}

export async function listBids(db: RawDb | DbTx, listingId: string, q: { cursor?: string; limit: number }, viewerId: string | null = null) {
  if (!(await listingById(db, listingId))) throw notFound("Listing");
  const rows = await bidsOf(db, listingId, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage(
    "bids",
    rows,
    q.limit,
    (r) => encodeIdCursor(r.id),
    (r) => toBid(r, viewerId),
  );
}

/** The caller's auctions, one entry each with their state for the caller and the listing; newest bid first. */
export async function listMyBids(db: RawDb | DbTx, userId: string, q: { state?: MyBidState; cursor?: string; limit: number }) {
  const rows = await myAuctions(db, userId, { state: q.state, before: q.cursor ? decodeIdCursor(q.cursor) : undefined, take: q.limit + 1 });
  const listings = new Map(
    (
      await listingsByIds(
        db,
        rows.map((r) => r.listingId),
      )
    ).map((l) => [l.listingId, toListing(l)]),
  );
  return keysetPage(
    "auctions",
    rows,
    q.limit,
    (r) => encodeIdCursor(r.lastBidId),
    (r) => ({
      listingId: r.listingId,
      state: r.state,
      bidCount: r.bidCount,
      highestAmount: r.highestAmount,
      maxAmount: r.maxAmount,
      lastBidAt: r.lastBidAt.toISOString(),
      listing: listings.get(r.listingId)!,
    }),
  );
}

/** How many other bidders an ended auction whose leader can no longer trade looks through for a buyer. */
const RUNNERS_UP = 20;

/**
 * Who buys an ended auction that met its reserve, at what price, read before the wallets are locked: the leader at the
 * auction's price with their held maximum; or, when the leader can no longer trade (standingRefusal: restricted,
 * deletion pending, frozen wallet), the next bidder who can and whose balance covers their price, paid from the
 * balance (their bid's hold went back when they were outbid). That price is proxy bidding's over the bids of those who
 * can still trade: the next such maximum plus the increment, capped at the buyer's maximum, at least the starting
 * price and the reserve. None: the auction ends unsold.
 */
async function auctionBuyer(tx: DbTx, l: LockedListing): Promise<{ bidderId: string; price: number; held: boolean } | undefined> {
  const top = l.topBidderId!;
  if (!standingRefusal(await tradingStanding(tx, top), "trade")) return { bidderId: top, price: l.price, held: true };
  const others = await runnersUp(tx, l.id, top, RUNNERS_UP);
  const mayTrade = new Map<string, boolean>();
  for (const r of others) mayTrade.set(r.bidderId, !standingRefusal(await tradingStanding(tx, r.bidderId), "trade"));
  const eligible = others.filter((r) => mayTrade.get(r.bidderId));
  for (const [i, r] of eligible.entries()) {
    if (l.reservePrice !== null && r.maxAmount < l.reservePrice) return undefined;
    const next = eligible[i + 1];
    let price = Math.max(l.startingPrice!, next ? Math.min(r.maxAmount, next.maxAmount + l.minIncrement!) : l.startingPrice!);
    if (l.reservePrice !== null) price = Math.max(price, l.reservePrice);
    if (r.balance >= price) return { bidderId: r.bidderId, price, held: false };
  }
  return undefined;
}

/**
 * Settles an ended auction under its listing's lock: sold to auctionBuyer's buyer (checked again under the wallets'
 * locks), or not (no bid, under the reserve, no buyer who can trade and pay, the seller's wallet past its ceiling, the
 * item gone): the leader's held funds go back, once, in either case but a sale to the leader.
 */
async function settleEndedAuction(tx: DbTx, l: LockedListing): Promise<"sold" | "expired"> {
  const wins = l.topBidId !== null && (l.reservePrice === null || l.price >= l.reservePrice);
  // Unsold for want of a buyer who can trade and pay: expired, as under the reserve; for the seller's side: cancelled.
  let status: "expired" | "cancelled" = "expired";
  if (wins) {
    const buyer = await auctionBuyer(tx, l);
    await lockWallets(tx, buyer ? [l.sellerId, l.topBidderId!, buyer.bidderId] : [l.sellerId, l.topBidderId!], l.currency);
    // Under the locks: a buyer barred since the read above, or (from their balance) short of the price, buys nothing.
    const stillMay =
      buyer &&
      !standingRefusal(await tradingStanding(tx, buyer.bidderId), "trade") &&
      (buyer.held || ((await balancesOf(tx, buyer.bidderId)).find((w) => w.currency === l.currency)?.balance ?? 0) >= buyer.price);
    // A seller whose wallet cannot take the price (past its ceiling) does not sell: the bid goes back, as below.
    if (buyer && stillMay) status = "cancelled";
    if (buyer && stillMay && (await fitsCeiling(tx, l.sellerId, l.currency, buyer.price))) {
      try {
        // Another buyer than the leader pays from their balance; the leader's hold goes back first.
        if (!buyer.held) await refundBid(tx, l.topBidId!, l.currency);
        const fee = await settle(tx, { ...l, price: buyer.price, buyerId: buyer.bidderId, via: "sale", referenceId: l.id, held: buyer.held });
        await closeListing(tx, l.id, { status: "sold", buyerId: buyer.bidderId, salePrice: buyer.price, fee });
        // The leader held their maximum and pays the price: the rest goes back.
        if (buyer.held && l.topMax! > l.price) {
          await credit(tx, {
            userId: l.topBidderId!,
            currency: l.currency,
            amount: l.topMax! - l.price,
            reason: "refund",
            referenceType: "bid",
            referenceId: l.topBidId!,
          });
        }
        return "sold";
      } catch (e) {
        if (!(e instanceof ChangedHands)) throw e;
      }
    }
  }
  if (l.topBidId) await refundBid(tx, l.topBidId, l.currency);
  await closeListing(tx, l.id, { status });
  return "expired";
}

/**
 * The marketplace cron: settles auctions past their end (settleEndedAuction: the top bid at or above the reserve buys
 * the item with its held funds, or the next bidder who can trade when its bidder can no longer; otherwise the funds go
 * back and the listing expires), expires open offers past their time, refunding them, and deletes idempotency keys
 * past their expiry. Each in a transaction of its own, taken with SKIP LOCKED, so concurrent runs never settle twice.
 */
export async function runMarketplaceCron(db: Db, limit = 200) {
  const out = { auctionsSold: 0, auctionsExpired: 0, offersExpired: 0, idempotencyKeysDeleted: 0 };
  const settled: string[] = [];
  for (let i = 0; i < limit; i++) {
    const result = await db.$transaction(async (tx) => {
      const id = await claimEndedAuction(tx);
      if (!id) return null;
      // The listing's lock waits for a bid in flight; `ended` is then re-read from the row that bid left (a soft
      // close may have moved the end past this transaction's now()).
      const l = (await lockListing(tx, id))!;
      if (l.status !== "active" || !l.ended) return "skipped" as const; // closed or extended since it was selected
      return { outcome: await settleEndedAuction(tx, l), id };
    });
    if (!result) break;
    if (result === "skipped") continue;
    settled.push(result.id);
    if (result.outcome === "sold") out.auctionsSold++;
    else out.auctionsExpired++;
  }
  const ended = await listingsByIds(db, settled);
  await publishAuctionEvents(ended.map((r) => ({ type: "end", listingId: r.listingId, data: { listing: auctionState(toListing(r)) } })));
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
