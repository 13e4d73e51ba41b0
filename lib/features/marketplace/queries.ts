import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import { CARD_COLUMNS, type CollectibleRow, type Rarity } from "../../core/collectibles/service";
import { insertNotifications } from "../../core/notifications/service";

// The marketplace's statements: listings (fixed price and auctions) with bids, offers, carts and the wishlist.
// Rows that decide a sale are locked by statements of their own (a locking read with joins re-checks only the
// locked row after a wait), always in the one order: collectible → listing → offer → wallets (lockWallets).

export type ListingKind = "fixed" | "auction";
export type ListingStatus = "active" | "sold" | "cancelled" | "expired";

export interface ListingRow extends CollectibleRow {
  listingId: string;
  sellerId: string;
  sellerHandle: string | null;
  sellerDisplayName: string | null;
  listingKind: ListingKind;
  status: ListingStatus;
  currency: "COIN";
  price: number;
  startingPrice: number | null;
  reservePrice: number | null;
  minIncrement: number | null;
  endsAt: Date | null;
  topBidderId: string | null;
  bidCount: number;
  buyerId: string | null;
  salePrice: number | null;
  fee: number | null;
  createdAt: Date;
  closedAt: Date | null;
  refundedAt: Date | null;
}

const LISTING_INT8 = ["price", "startingPrice", "reservePrice", "minIncrement", "salePrice", "fee"] as const;
type ListingDbRow = Int8<ListingRow, (typeof LISTING_INT8)[number]>;
const toListingRow = (r: ListingDbRow) => int8(r, LISTING_INT8);

const LISTING = Prisma.sql`
  SELECT l.id::text AS "listingId", l.seller_id::text AS "sellerId", s.handle AS "sellerHandle", s.display_name AS "sellerDisplayName",
         l.kind::text AS "listingKind", l.status::text AS status, l.currency::text AS currency, l.price, l.starting_price AS "startingPrice",
         l.reserve_price AS "reservePrice", l.min_increment AS "minIncrement", l.ends_at AS "endsAt", l.top_bidder_id::text AS "topBidderId",
         l.bid_count AS "bidCount", l.buyer_id::text AS "buyerId", l.sale_price AS "salePrice", l.fee, l.created_at AS "createdAt",
         l.closed_at AS "closedAt", l.refunded_at AS "refundedAt",
         c.id::text AS id, c.serial, c.owner_id::text AS "ownerId", c.purchase_id::text AS "purchaseId", c.draw_index AS "drawIndex",
         c.acquired_at AS "acquiredAt", ${CARD_COLUMNS}
  FROM listings l
  JOIN users s ON s.id = l.seller_id
  JOIN collectibles c ON c.id = l.collectible_id
  JOIN collectible_cards k ON k.id = c.card_id`;

export interface ListingFilter {
  status: ListingStatus;
  kind?: ListingKind;
  teamId?: string;
  playerId?: string;
  rarity?: Rarity;
  sellerId?: string;
  minPrice?: number;
  maxPrice?: number;
  sort: "newest" | "price";
  after?: { price: number; id: string } | { id: string };
  take: number;
}

/** A page of listings: newest first (keyset on id) or cheapest first (keyset on price, id). */
export async function listingsPage(db: RawDb | DbTx, f: ListingFilter) {
  const where = [Prisma.sql`l.status = ${f.status}::"ListingStatus"`];
  if (f.kind) where.push(Prisma.sql`l.kind = ${f.kind}::"ListingKind"`);
  if (f.teamId) where.push(Prisma.sql`l.team_id = ${f.teamId}`);
  if (f.playerId) where.push(Prisma.sql`l.player_id = ${f.playerId}`);
  if (f.rarity) where.push(Prisma.sql`l.rarity = ${f.rarity}::"Rarity"`);
  if (f.sellerId) where.push(Prisma.sql`l.seller_id = ${f.sellerId}::uuid`);
  if (f.minPrice !== undefined) where.push(Prisma.sql`l.price >= ${f.minPrice}`);
  if (f.maxPrice !== undefined) where.push(Prisma.sql`l.price <= ${f.maxPrice}`);
  if (f.after && "price" in f.after) where.push(Prisma.sql`(l.price, l.id) > (${f.after.price}, ${f.after.id}::uuid)`);
  else if (f.after) where.push(Prisma.sql`l.id < ${f.after.id}::uuid`);
  const order = f.sort === "price" ? Prisma.sql`l.price, l.id` : Prisma.sql`l.id DESC`;
  const rows = await raw(db).$queryRaw<ListingDbRow[]>`${LISTING} WHERE ${Prisma.join(where, " AND ")} ORDER BY ${order} LIMIT ${f.take}`;
  return rows.map(toListingRow);
}

export async function listingById(db: RawDb | DbTx, id: string): Promise<ListingRow | undefined> {
  const [row] = await raw(db).$queryRaw<ListingDbRow[]>`${LISTING} WHERE l.id = ${id}::uuid`;
  return row && toListingRow(row);
}

export async function listingsByIds(db: RawDb | DbTx, ids: string[]) {
  const rows = await raw(db).$queryRaw<ListingDbRow[]>`${LISTING} WHERE l.id = ANY(${ids}::uuid[])`;
  return rows.map(toListingRow);
}

/** The listing's deciding columns, locked for the rest of the transaction. */
export interface LockedListing {
  id: string;
  sellerId: string;
  collectibleId: string;
  kind: ListingKind;
  status: ListingStatus;
  price: number;
  currency: "COIN";
  reservePrice: number | null;
  minIncrement: number | null;
  startingPrice: number | null;
  endsAt: Date | null;
  ended: boolean;
  topBidId: string | null;
  topBidderId: string | null;
  /** The top bid's maximum (proxy bidding; never shown to others). */
  topMax: number | null;
  bidCount: number;
}

const LOCKED_INT8 = ["price", "reservePrice", "minIncrement", "startingPrice"] as const;

export async function lockListing(tx: DbTx, id: string): Promise<LockedListing | undefined> {
  const [row] = await tx.$queryRaw<Int8<Omit<LockedListing, "topMax">, (typeof LOCKED_INT8)[number]>[]>`
    SELECT id::text AS id, seller_id::text AS "sellerId", collectible_id::text AS "collectibleId", kind::text AS kind, status::text AS status,
           price, currency::text AS currency, reserve_price AS "reservePrice", min_increment AS "minIncrement", starting_price AS "startingPrice",
           ends_at AS "endsAt", ends_at IS NOT NULL AND ends_at <= now() AS ended, top_bid_id::text AS "topBidId",
           top_bidder_id::text AS "topBidderId", bid_count AS "bidCount"
    FROM listings WHERE id = ${id}::uuid FOR UPDATE`;
  if (!row) return undefined;
  // A statement of its own, after the lock: a subquery of the locking read would see the bids as they were before its wait.
  const [top] = row.topBidId ? await tx.$queryRaw<{ max: bigint }[]>`SELECT max_amount AS max FROM bids WHERE id = ${row.topBidId}::uuid` : [];
  return { ...int8(row, LOCKED_INT8), topMax: top ? Number(top.max) : null };
}

/** Locks the active listing of a collectible, if any. */
export async function lockActiveListingOf(tx: DbTx, collectibleId: string): Promise<LockedListing | undefined> {
  const [found] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM listings WHERE active_item_id = ${collectibleId}::uuid`;
  if (!found) return undefined;
  const row = await lockListing(tx, found.id);
  return row?.status === "active" ? row : undefined;
}

export interface NewListing {
  id: string;
  sellerId: string;
  collectibleId: string;
  kind: ListingKind;
  price: number;
  startingPrice: number | null;
  reservePrice: number | null;
  minIncrement: number | null;
  endsAt: Date | null;
}

/** Inserts the listing of a collectible the seller owns; none when it is not theirs or already listed. */
export async function insertListing(tx: DbTx, l: NewListing): Promise<"listed" | "not_owner" | "already_listed"> {
  const [row] = await tx.$queryRaw<{ owned: boolean; listed: boolean }[]>`
    WITH item AS (
      SELECT c.id, k.id AS card_id, k.team_id, k.player_id, k.rarity FROM collectibles c JOIN collectible_cards k ON k.id = c.card_id
      WHERE c.id = ${l.collectibleId}::uuid AND c.owner_id = ${l.sellerId}::uuid
    ), ins AS (
      INSERT INTO listings (id, seller_id, collectible_id, active_item_id, kind, price, starting_price, reserve_price, min_increment, ends_at,
                            card_id, team_id, player_id, rarity)
      SELECT ${l.id}::uuid, ${l.sellerId}::uuid, item.id, item.id, ${l.kind}::"ListingKind", ${l.price}, ${l.startingPrice}, ${l.reservePrice},
             ${l.minIncrement}, ${l.endsAt}, item.card_id, item.team_id, item.player_id, item.rarity
      FROM item
      ON CONFLICT (active_item_id) DO NOTHING
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM item) AS owned, EXISTS (SELECT 1 FROM ins) AS listed`;
  return !row!.owned ? "not_owner" : row!.listed ? "listed" : "already_listed";
}

export const setListingPrice = (tx: DbTx, id: string, price: number) => tx.$executeRaw`UPDATE listings SET price = ${price} WHERE id = ${id}::uuid`;

/** Marks a sale refunded, once: the sale's buyer, price and fee, or none when it is not a sale or was refunded. */
export async function markRefunded(tx: DbTx, id: string) {
  const [row] = await tx.$queryRaw<{ buyerId: string; salePrice: bigint; fee: bigint }[]>`
    UPDATE listings SET refunded_at = now() WHERE id = ${id}::uuid AND status = 'sold' AND refunded_at IS NULL
    RETURNING buyer_id::text AS "buyerId", sale_price AS "salePrice", fee`;
  return row && int8(row, ["salePrice", "fee"]);
}

/** Closes an active listing: sold (to a buyer, at a price, with the fee), cancelled or expired. */
export async function closeListing(
  tx: DbTx,
  id: string,
  c: { status: Exclude<ListingStatus, "active">; buyerId?: string; salePrice?: number; fee?: number },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE listings SET status = ${c.status}::"ListingStatus", active_item_id = NULL, closed_at = now(), buyer_id = ${c.buyerId ?? null}::uuid,
           sale_price = ${c.salePrice ?? null}, fee = ${c.fee ?? null}
    WHERE id = ${id}::uuid AND status = 'active'`;
}

/**
 * Inserts a bid (`amount`: what it stands at; `maxAmount`: what it holds) and sets the auction's price and leader
 * (the new bid, or the leading bid it did not beat) and, the soft close, an end within `softCloseMinutes` of now to
 * now + that; answers the end. One UPDATE of the listing per bid: a second one in the same transaction would re-check
 * its foreign key to the collectible (KEY SHARE), against the one lock order, and deadlock with the cron's claim.
 */
export async function insertBid(
  tx: DbTx,
  b: { id: string; listingId: string; bidderId: string; amount: number; maxAmount: number; price: number; leadBidId: string; leaderId: string },
  softCloseMinutes: number,
): Promise<Date> {
  const [row] = await tx.$queryRaw<{ endsAt: Date }[]>`
    WITH bid AS (
      INSERT INTO bids (id, listing_id, bidder_id, amount, max_amount)
      VALUES (${b.id}::uuid, ${b.listingId}::uuid, ${b.bidderId}::uuid, ${b.amount}, ${b.maxAmount})
    )
    UPDATE listings SET price = ${b.price}, top_bid_id = ${b.leadBidId}::uuid, top_bidder_id = ${b.leaderId}::uuid, bid_count = bid_count + 1,
           ends_at = greatest(ends_at, now() + make_interval(mins => ${softCloseMinutes}::int))
    WHERE id = ${b.listingId}::uuid
    RETURNING ends_at AS "endsAt"`;
  return row!.endsAt;
}

/** Marks a bid's held funds (its maximum) as given back; that amount and the bidder. */
export async function releaseBid(tx: DbTx, bidId: string): Promise<{ bidderId: string; amount: number } | undefined> {
  const [row] = await tx.$queryRaw<{ bidderId: string; amount: bigint }[]>`
    UPDATE bids SET released_at = now() WHERE id = ${bidId}::uuid AND released_at IS NULL RETURNING bidder_id::text AS "bidderId", max_amount AS amount`;
  return row && int8(row, ["amount"]);
}

export interface BidRow {
  id: string;
  bidderId: string;
  handle: string | null;
  amount: number;
  maxAmount: number;
  createdAt: Date;
}

export async function bidsOf(db: RawDb | DbTx, listingId: string, before: string | undefined, take: number) {
  const keyset = before ? Prisma.sql`AND b.id < ${before}::uuid` : Prisma.empty;
  const rows = await raw(db).$queryRaw<Int8<BidRow, "amount" | "maxAmount">[]>`
    SELECT b.id::text AS id, b.bidder_id::text AS "bidderId", u.handle, b.amount, b.max_amount AS "maxAmount", b.created_at AS "createdAt"
    FROM bids b JOIN users u ON u.id = b.bidder_id
    WHERE b.listing_id = ${listingId}::uuid ${keyset}
    ORDER BY b.id DESC LIMIT ${take}`;
  return rows.map((r) => int8(r, ["amount", "maxAmount"]));
}

/**
 * Claims one active auction past its end (the oldest end first) by locking its collectible, skipping an item another
 * run or request holds; the caller then locks the listing (the one lock order) and re-checks it.
 */
export async function claimEndedAuction(tx: DbTx): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT l.id::text AS id FROM listings l JOIN collectibles c ON c.id = l.collectible_id
    WHERE l.kind = 'auction' AND l.status = 'active' AND l.ends_at <= now()
    ORDER BY l.ends_at LIMIT 1 FOR UPDATE OF c SKIP LOCKED`;
  return row?.id;
}

/** The collectibles these listings are for (a listing's never changes), unlocked: read to lock the items before the listings. */
export async function itemsOfListings(db: RawDb | DbTx, listingIds: string[]): Promise<string[]> {
  const rows = await raw(db).$queryRaw<{ collectibleId: string }[]>`
    SELECT collectible_id::text AS "collectibleId" FROM listings WHERE id = ANY(${listingIds}::uuid[])`;
  return rows.map((r) => r.collectibleId);
}

export interface StaleListing {
  listingId: string;
  collectibleId: string;
  sellerId: string;
  ownerId: string;
}

/** Active listings whose seller no longer owns the item: the ownership rule says none (the economy invariant). */
export function staleListings(db: RawDb | DbTx, limit = 100) {
  return raw(db).$queryRaw<StaleListing[]>`
    SELECT l.id::text AS "listingId", l.collectible_id::text AS "collectibleId", l.seller_id::text AS "sellerId", c.owner_id::text AS "ownerId"
    FROM listings l JOIN collectibles c ON c.id = l.collectible_id
    WHERE l.status = 'active' AND l.seller_id <> c.owner_id
    ORDER BY l.id LIMIT ${limit}`;
}

// Offers.

export interface OfferRow {
  id: string;
  collectibleId: string;
  buyerId: string;
  amount: number;
  currency: "COIN";
  status: "open" | "accepted" | "declined" | "cancelled" | "expired";
  sellerId: string | null;
  fee: number | null;
  expiresAt: Date;
  expired: boolean;
  createdAt: Date;
  closedAt: Date | null;
  ownerId: string;
}

const OFFER_INT8 = ["amount", "fee"] as const;
type OfferDbRow = Int8<OfferRow, (typeof OFFER_INT8)[number]>;

const OFFER = Prisma.sql`
  SELECT o.id::text AS id, o.collectible_id::text AS "collectibleId", o.buyer_id::text AS "buyerId", o.amount, o.currency::text AS currency,
         o.status::text AS status, o.seller_id::text AS "sellerId", o.fee, o.expires_at AS "expiresAt", o.expires_at <= now() AS expired,
         o.created_at AS "createdAt", o.closed_at AS "closedAt", c.owner_id::text AS "ownerId"
  FROM offers o JOIN collectibles c ON c.id = o.collectible_id`;

export async function offerById(db: RawDb | DbTx, id: string): Promise<OfferRow | undefined> {
  const [row] = await raw(db).$queryRaw<OfferDbRow[]>`${OFFER} WHERE o.id = ${id}::uuid`;
  return row && int8(row, OFFER_INT8);
}

export async function lockOffer(tx: DbTx, id: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM offers WHERE id = ${id}::uuid FOR UPDATE`;
  return rows.length > 0;
}

/** Inserts an open offer; none when the buyer already has one open on the item. */
export async function insertOffer(tx: DbTx, o: { id: string; collectibleId: string; buyerId: string; amount: number; expiresAt: Date }) {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO offers (id, collectible_id, buyer_id, open_key, amount, expires_at)
    VALUES (${o.id}::uuid, ${o.collectibleId}::uuid, ${o.buyerId}::uuid, ${`${o.buyerId}:${o.collectibleId}`}, ${o.amount}, ${o.expiresAt})
    ON CONFLICT (open_key) DO NOTHING
    RETURNING id::text AS id`;
  return row?.id;
}

export async function closeOffer(tx: DbTx, id: string, status: Exclude<OfferRow["status"], "open">, c: { sellerId?: string; fee?: number } = {}) {
  await tx.$executeRaw`
    UPDATE offers SET status = ${status}::"OfferStatus", open_key = NULL, closed_at = now(), seller_id = ${c.sellerId ?? null}::uuid, fee = ${c.fee ?? null}
    WHERE id = ${id}::uuid AND status = 'open'`;
}

/** Offers the user made ("made") or received on items they own now ("received"), newest first. */
export async function offersOf(db: RawDb | DbTx, userId: string, f: { role: "made" | "received"; status?: OfferRow["status"]; before?: string; take: number }) {
  const where = [f.role === "made" ? Prisma.sql`o.buyer_id = ${userId}::uuid` : Prisma.sql`c.owner_id = ${userId}::uuid AND o.buyer_id <> ${userId}::uuid`];
  if (f.status) where.push(Prisma.sql`o.status = ${f.status}::"OfferStatus"`);
  if (f.before) where.push(Prisma.sql`o.id < ${f.before}::uuid`);
  const rows = await raw(db).$queryRaw<OfferDbRow[]>`${OFFER} WHERE ${Prisma.join(where, " AND ")} ORDER BY o.id DESC LIMIT ${f.take}`;
  return rows.map((r) => int8(r, OFFER_INT8));
}

/** Open offers past their expiry, locked, skipped when another run holds them. */
export async function lockExpiredOffers(tx: DbTx, take: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM offers WHERE status = 'open' AND expires_at <= now() ORDER BY expires_at LIMIT ${take} FOR UPDATE SKIP LOCKED`;
  return rows.map((r) => r.id);
}

// Cart.

export interface CartLineRow {
  listingId: string;
  addedPrice: number;
  addedAt: Date;
}

export async function cartOf(db: RawDb | DbTx, userId: string) {
  const rows = await raw(db).$queryRaw<Int8<CartLineRow, "addedPrice">[]>`
    SELECT listing_id::text AS "listingId", price AS "addedPrice", added_at AS "addedAt" FROM cart_items WHERE user_id = ${userId}::uuid ORDER BY added_at, listing_id`;
  return rows.map((r) => int8(r, ["addedPrice"]));
}

export async function insertCartLine(tx: DbTx, userId: string, listingId: string, price: number): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    INSERT INTO cart_items (user_id, listing_id, price) VALUES (${userId}::uuid, ${listingId}::uuid, ${price})
    ON CONFLICT (user_id, listing_id) DO NOTHING RETURNING 1`;
  return rows.length > 0;
}

export const deleteCartLines = (tx: RawDb | DbTx, userId: string, listingIds: string[]) =>
  raw(tx).$executeRaw`DELETE FROM cart_items WHERE user_id = ${userId}::uuid AND listing_id = ANY(${listingIds}::uuid[])`;

// Wishlist.

export interface WishlistRow {
  id: string;
  itemType: "card" | "collectible";
  itemId: string;
  listingId: string | null;
  createdAt: Date;
  cheapestListingId: string | null;
  cheapestPrice: number | null;
}

const WISH = Prisma.sql`
  SELECT w.id::text AS id, w.item_type AS "itemType", w.item_id AS "itemId", w.listing_id::text AS "listingId", w.created_at AS "createdAt",
         best.id::text AS "cheapestListingId", best.price AS "cheapestPrice"
  FROM wishlist_items w
  LEFT JOIN LATERAL (
    SELECT l.id, l.price FROM listings l
    WHERE l.status = 'active' AND ((w.item_type = 'card' AND l.card_id = w.item_id) OR (w.item_type = 'collectible' AND l.active_item_id::text = w.item_id))
    ORDER BY l.price, l.id LIMIT 1
  ) best ON true`;

export async function wishlistOf(db: RawDb | DbTx, userId: string, before: string | undefined, take: number) {
  const keyset = before ? Prisma.sql`AND w.id < ${before}::uuid` : Prisma.empty;
  const rows = await raw(db).$queryRaw<
    Int8<WishlistRow, "cheapestPrice">[]
  >`${WISH} WHERE w.user_id = ${userId}::uuid ${keyset} ORDER BY w.id DESC LIMIT ${take}`;
  return rows.map((r) => int8(r, ["cheapestPrice"]));
}

export async function wishlistItem(db: RawDb | DbTx, userId: string, id: string): Promise<WishlistRow | undefined> {
  const [row] = await raw(db).$queryRaw<Int8<WishlistRow, "cheapestPrice">[]>`${WISH} WHERE w.user_id = ${userId}::uuid AND w.id = ${id}::uuid`;
  return row && int8(row, ["cheapestPrice"]);
}

/** Adds an item to the wishlist; the existing entry's id when it was there already. */
export async function insertWish(db: RawDb | DbTx, w: { userId: string; itemType: string; itemId: string; listingId: string | null }) {
  const [created] = await raw(db).$queryRaw<{ id: string }[]>`
    INSERT INTO wishlist_items (id, user_id, item_type, item_id, listing_id)
    VALUES (${UUIDV7_SQL}, ${w.userId}::uuid, ${w.itemType}, ${w.itemId}, ${w.listingId}::uuid)
    ON CONFLICT (user_id, item_type, item_id) DO NOTHING
    RETURNING id::text AS id`;
  if (created) return { id: created.id, created: true };
  // A statement of its own: the insert's snapshot may predate a concurrent insert it waited for.
  const [existing] = await raw(db).$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM wishlist_items WHERE user_id = ${w.userId}::uuid AND item_type = ${w.itemType} AND item_id = ${w.itemId}`;
  return { id: existing!.id, created: false };
}

export const deleteWish = (db: RawDb | DbTx, userId: string, id: string) =>
  raw(db).$executeRaw`DELETE FROM wishlist_items WHERE user_id = ${userId}::uuid AND id = ${id}::uuid`;

// Notifications written with the change that causes them.

/** WISHLIST_LISTED to every user (but the seller) who wishlisted the listed collectible or its card. */
export const notifyWishlisted = (tx: DbTx, listingId: string) =>
  insertNotifications(tx, {
    type: "WISHLIST_LISTED",
    recipient: Prisma.sql`w.user_id`,
    cause: Prisma.sql`'wishlist:' || l.id`,
    actor: null,
    payload: Prisma.sql`jsonb_build_object('listingId', l.id::text, 'collectibleId', l.collectible_id::text, 'cardId', l.card_id, 'price', l.price,
                              'title', k.name || ' #' || c.serial || ' is for sale', 'body', 'An item on your wishlist was just listed.',
                              'href', '/api/v1/marketplace/listings/' || l.id)`,
    from: Prisma.sql`FROM listings l
    JOIN collectibles c ON c.id = l.collectible_id
    JOIN collectible_cards k ON k.id = l.card_id
    JOIN wishlist_items w ON (w.item_type = 'card' AND w.item_id = l.card_id) OR (w.item_type = 'collectible' AND w.item_id = l.collectible_id::text)
    WHERE l.id = ${listingId}::uuid AND w.user_id <> l.seller_id`,
  });

export const notifyOutbid = (tx: DbTx, bidId: string, listingId: string) =>
  insertNotifications(tx, {
    type: "OUTBID",
    recipient: Prisma.sql`b.bidder_id`,
    cause: Prisma.sql`'outbid:' || b.id`,
    actor: null,
    payload: Prisma.sql`jsonb_build_object('listingId', l.id::text, 'yourBid', b.amount, 'currentBid', l.price,
                              'title', 'You were outbid on ' || k.name, 'body', 'Your held funds are back in your wallet.',
                              'href', '/api/v1/marketplace/listings/' || l.id)`,
    from: Prisma.sql`FROM bids b JOIN listings l ON l.id = ${listingId}::uuid JOIN collectible_cards k ON k.id = l.card_id
    WHERE b.id = ${bidId}::uuid AND b.bidder_id <> l.top_bidder_id`,
  });

export const notifyOfferUpdate = (tx: DbTx, offerId: string) =>
  insertNotifications(tx, {
    type: "OFFER_UPDATE",
    recipient: Prisma.sql`o.buyer_id`,
    cause: Prisma.sql`'offer:' || o.id`,
    actor: null,
    payload: Prisma.sql`jsonb_build_object('offerId', o.id::text, 'collectibleId', o.collectible_id::text, 'status', o.status::text, 'amount', o.amount,
                              'title', 'Your offer for ' || k.name || ' was ' || o.status::text,
                              'body', CASE WHEN o.status = 'accepted' THEN 'The item is now in your collection.' ELSE 'Your held funds are back in your wallet.' END,
                              'href', '/api/v1/collectibles/' || o.collectible_id)`,
    from: Prisma.sql`FROM offers o JOIN collectibles c ON c.id = o.collectible_id JOIN collectible_cards k ON k.id = c.card_id
    WHERE o.id = ${offerId}::uuid AND o.status IN ('accepted', 'declined')`,
  });
