import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import type { BidRow } from "./queries";
import type { MY_BID_STATES } from "./schemas";

// Auction statements beyond queries.ts: an open auction's minimum (unlocked), a bid by id, a bid's standing amount, and the caller's bids
// grouped per auction (GET /api/v1/marketplace/bids).

/**
 * The least the next bid may be on an open auction of someone other than `bidderId`, read without a lock (none
 * otherwise: the locked path answers why). It only rises while the auction runs.
 */
export async function openAuctionMinimum(db: RawDb | DbTx, listingId: string, bidderId: string): Promise<number | undefined> {
  const [row] = await raw(db).$queryRaw<{ min: bigint }[]>`
    SELECT CASE WHEN bid_count = 0 THEN starting_price ELSE price + min_increment END AS min FROM listings
    WHERE id = ${listingId}::uuid AND kind = 'auction' AND status = 'active' AND ends_at > now() AND seller_id <> ${bidderId}::uuid`;
  return row ? Number(row.min) : undefined;
}

/** Sets what a bid stands at (the leader's automatic raise, or a bid beaten at its maximum). */
export const setBidAmount = (tx: DbTx, bidId: string, amount: number) => tx.$executeRaw`UPDATE bids SET amount = ${amount} WHERE id = ${bidId}::uuid`;

export async function bidById(db: RawDb | DbTx, id: string): Promise<BidRow | undefined> {
  const [row] = await raw(db).$queryRaw<Int8<BidRow, "amount" | "maxAmount">[]>`
    SELECT b.id::text AS id, b.bidder_id::text AS "bidderId", u.handle, b.amount, b.max_amount AS "maxAmount", b.created_at AS "createdAt"
    FROM bids b JOIN users u ON u.id = b.bidder_id WHERE b.id = ${id}::uuid`;
  return row && int8(row, ["amount", "maxAmount"]);
}

export type MyBidState = (typeof MY_BID_STATES)[number];

export interface MyAuctionRow {
  listingId: string;
  lastBidId: string;
  state: MyBidState;
  bidCount: number;
  highestAmount: number;
  maxAmount: number;
  lastBidAt: Date;
}

/**
 * The bidder's auctions, one row each (the last bid of theirs first): its state for them (active: leading or outbid;
 * closed: won when sold to them, else lost), how many bids they made, their highest bid and their highest maximum.
 */
export async function myAuctions(db: RawDb | DbTx, bidderId: string, f: { state?: MyBidState; before?: string; take: number }) {
  const where = [Prisma.sql`true`];
  if (f.state) where.push(Prisma.sql`m.state = ${f.state}`);
  if (f.before) where.push(Prisma.sql`m."lastBidId" < ${f.before}::uuid`);
  const rows = await raw(db).$queryRaw<Int8<MyAuctionRow, "highestAmount" | "maxAmount">[]>`
    SELECT m."listingId"::text AS "listingId", m."lastBidId"::text AS "lastBidId", m.state, m."bidCount", m."highestAmount", m."maxAmount", m."lastBidAt"
    FROM (
      SELECT g.listing_id AS "listingId", g.last_bid_id AS "lastBidId", g.bid_count AS "bidCount", g.highest AS "highestAmount", g.max AS "maxAmount",
             g.last_at AS "lastBidAt",
             CASE WHEN l.status = 'active' THEN CASE WHEN l.top_bidder_id = ${bidderId}::uuid THEN 'leading' ELSE 'outbid' END
                  WHEN l.status = 'sold' AND l.buyer_id = ${bidderId}::uuid THEN 'won' ELSE 'lost' END AS state
      FROM (
        SELECT listing_id, (array_agg(id ORDER BY id DESC))[1] AS last_bid_id, count(*)::int AS bid_count, max(amount) AS highest,
               max(max_amount) AS max, max(created_at) AS last_at
        FROM bids WHERE bidder_id = ${bidderId}::uuid GROUP BY listing_id
      ) g JOIN listings l ON l.id = g.listing_id
    ) m
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY m."lastBidId" DESC LIMIT ${f.take}`;
  return rows.map((r) => int8(r, ["highestAmount", "maxAmount"]));
}

export interface RunnerUp {
  bidId: string;
  bidderId: string;
  maxAmount: number;
  /** The bidder's COIN balance now (read without a lock). */
  balance: number;
}

/**
 * An ended auction's other bidders, each once at their highest maximum (the earlier bid on a tie), highest first: who
 * buys when the leader can no longer trade (lib/features/marketplace/auctions.ts). At most `take`.
 */
export async function runnersUp(tx: DbTx, listingId: string, exceptBidderId: string, take: number): Promise<RunnerUp[]> {
  const rows = await tx.$queryRaw<Int8<RunnerUp, "maxAmount" | "balance">[]>`
    SELECT b.id::text AS "bidId", b.bidder_id::text AS "bidderId", b.max_amount AS "maxAmount", coalesce(w.balance, 0) AS balance
    FROM (SELECT DISTINCT ON (bidder_id) id, bidder_id, max_amount FROM bids
          WHERE listing_id = ${listingId}::uuid AND bidder_id <> ${exceptBidderId}::uuid
          ORDER BY bidder_id, max_amount DESC, id) b
    LEFT JOIN wallets w ON w.user_id = b.bidder_id AND w.currency = 'COIN'
    ORDER BY b.max_amount DESC, b.id LIMIT ${take}`;
  return rows.map((r) => int8(r, ["maxAmount", "balance"]));
}
