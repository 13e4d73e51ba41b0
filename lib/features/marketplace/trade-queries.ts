import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { int8, raw, type Int8, type RawDb } from "../../db/raw";
import { CARD_COLUMNS, type CollectibleRow } from "../../core/collectibles/service";
import { actorJsonSql, actorNameSql, insertNotifications } from "../../core/notifications/service";

// The statements of trades and gifts (lib/features/marketplace/trades.ts) and of offer settings (offer-settings.ts). A trade's
// row is locked before its items' collectibles: the lock order of a trade is trade → collectibles (id order) →
// listings → wallets (user-id order), the marketplace's one order with the trade in front.

export type TradeStatus = "open" | "accepted" | "declined" | "cancelled" | "expired" | "void" | "countered";
export type TradeSide = "offered" | "asked";

export interface TradeRow {
  id: string;
  proposerId: string;
  proposerHandle: string | null;
  proposerDisplayName: string | null;
  recipientId: string;
  recipientHandle: string | null;
  recipientDisplayName: string | null;
  offerCoins: number;
  askCoins: number;
  currency: "COIN";
  gift: boolean;
  message: string | null;
  status: TradeStatus;
  voidReason: string | null;
  counterOfId: string | null;
  counteredById: string | null;
  recipientFee: number | null;
  proposerFee: number | null;
  expiresAt: Date;
  expired: boolean;
  createdAt: Date;
  closedAt: Date | null;
}

const TRADE_INT8 = ["offerCoins", "askCoins", "recipientFee", "proposerFee"] as const;
type TradeDbRow = Int8<TradeRow, (typeof TRADE_INT8)[number]>;

const TRADE = Prisma.sql`
  SELECT t.id::text AS id, t.proposer_id::text AS "proposerId", p.handle AS "proposerHandle", p.display_name AS "proposerDisplayName",
         t.recipient_id::text AS "recipientId", r.handle AS "recipientHandle", r.display_name AS "recipientDisplayName",
         t.offer_coins AS "offerCoins", t.ask_coins AS "askCoins", t.currency::text AS currency, t.gift, t.message, t.status::text AS status,
         t.void_reason AS "voidReason", t.counter_of_id::text AS "counterOfId", t.countered_by_id::text AS "counteredById",
         t.recipient_fee AS "recipientFee", t.proposer_fee AS "proposerFee", t.expires_at AS "expiresAt", t.expires_at <= now() AS expired,
         t.created_at AS "createdAt", t.closed_at AS "closedAt"
  FROM trades t JOIN users p ON p.id = t.proposer_id JOIN users r ON r.id = t.recipient_id`;

export async function tradeById(db: RawDb | DbTx, id: string): Promise<TradeRow | undefined> {
  const [row] = await raw(db).$queryRaw<TradeDbRow[]>`${TRADE} WHERE t.id = ${id}::uuid`;
  return row && int8(row, TRADE_INT8);
}

/** Locks the trade's row (first of a trade's locks); false when there is no such trade. */
export async function lockTrade(tx: DbTx, id: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM trades WHERE id = ${id}::uuid FOR UPDATE`;
  return rows.length > 0;
}

/** The caller's trades, sent (proposed) or received, newest first. */
export async function tradesOf(db: RawDb | DbTx, userId: string, f: { role: "sent" | "received"; status?: TradeStatus; before?: string; take: number }) {
  const where = [f.role === "sent" ? Prisma.sql`t.proposer_id = ${userId}::uuid` : Prisma.sql`t.recipient_id = ${userId}::uuid`];
  if (f.status) where.push(Prisma.sql`t.status = ${f.status}::"TradeStatus"`);
  if (f.before) where.push(Prisma.sql`t.id < ${f.before}::uuid`);
  const rows = await raw(db).$queryRaw<TradeDbRow[]>`${TRADE} WHERE ${Prisma.join(where, " AND ")} ORDER BY t.id DESC LIMIT ${f.take}`;
  return rows.map((r) => int8(r, TRADE_INT8));
}

export type TradeItemRow = CollectibleRow & { tradeId: string; side: TradeSide };

/** The items of these trades, with their collectible and card, in id order. */
export function itemsOfTrades(db: RawDb | DbTx, tradeIds: string[]) {
  return raw(db).$queryRaw<TradeItemRow[]>`
    SELECT i.trade_id::text AS "tradeId", i.side::text AS side,
           c.id::text AS id, c.serial, c.owner_id::text AS "ownerId", c.purchase_id::text AS "purchaseId", c.draw_index AS "drawIndex",
           c.acquired_at AS "acquiredAt", ${CARD_COLUMNS}
    FROM trade_items i JOIN collectibles c ON c.id = i.collectible_id JOIN collectible_cards k ON k.id = c.card_id
    WHERE i.trade_id = ANY(${tradeIds}::uuid[])
    ORDER BY c.id`;
}

export interface NewTrade {
  id: string;
  proposerId: string;
  recipientId: string;
  offerCoins: number;
  askCoins: number;
  gift: boolean;
  message: string | null;
  counterOfId: string | null;
  expiresAt: Date;
  offered: string[];
  asked: string[];
}

export async function insertTrade(tx: DbTx, t: NewTrade): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO trades (id, proposer_id, recipient_id, offer_coins, ask_coins, gift, message, counter_of_id, expires_at)
    VALUES (${t.id}::uuid, ${t.proposerId}::uuid, ${t.recipientId}::uuid, ${t.offerCoins}, ${t.askCoins}, ${t.gift}, ${t.message},
            ${t.counterOfId}::uuid, ${t.expiresAt})`;
  const ids = [...t.offered, ...t.asked];
  const sides = [...t.offered.map(() => "offered"), ...t.asked.map(() => "asked")];
  if (ids.length) {
    await tx.$executeRaw`
      INSERT INTO trade_items (trade_id, collectible_id, side)
      SELECT ${t.id}::uuid, i.id, i.side::"TradeSide" FROM unnest(${ids}::uuid[], ${sides}::text[]) AS i(id, side)`;
  }
}

/** Closes an open trade (the caller holds its row lock). */
export async function closeTrade(
  tx: DbTx,
  id: string,
  status: Exclude<TradeStatus, "open">,
  c: { voidReason?: string; counteredById?: string; recipientFee?: number; proposerFee?: number } = {},
): Promise<void> {
  await tx.$executeRaw`
    UPDATE trades SET status = ${status}::"TradeStatus", closed_at = now(), void_reason = ${c.voidReason ?? null},
           countered_by_id = ${c.counteredById ?? null}::uuid, recipient_fee = ${c.recipientFee ?? null}, proposer_fee = ${c.proposerFee ?? null}
    WHERE id = ${id}::uuid AND status = 'open'`;
}

/** Open trades past their expiry, locked, skipped when another run or an accept holds them. */
export async function lockExpiredTrades(tx: DbTx, take: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM trades WHERE status = 'open' AND expires_at <= now() ORDER BY expires_at LIMIT ${take} FOR UPDATE SKIP LOCKED`;
  return rows.map((r) => r.id);
}

/** What the items are now, read under their locks: owner, an active listing (and its kind), a mint queued or done. */
export function itemStates(tx: DbTx, collectibleIds: string[]) {
  return tx.$queryRaw<{ id: string; ownerId: string; listingKind: "fixed" | "auction" | null; minted: boolean }[]>`
    SELECT c.id::text AS id, c.owner_id::text AS "ownerId",
           (SELECT l.kind::text FROM listings l WHERE l.active_item_id = c.id) AS "listingKind",
           EXISTS (SELECT 1 FROM nft_mints m WHERE m.mint_key = c.id::text) AS minted
    FROM collectibles c WHERE c.id = ANY(${collectibleIds}::uuid[]) ORDER BY c.id`;
}

/** Locks the active listings of these collectibles, in id order (after the collectibles). */
export async function lockActiveListingsOf(tx: DbTx, collectibleIds: string[]): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM listings WHERE active_item_id = ANY(${collectibleIds}::uuid[]) ORDER BY id FOR UPDATE`;
}

/** Whether `userId` refuses offers and trades from `otherId`: a trade refusal of theirs, or a block either way. */
export async function refuses(db: RawDb | DbTx, userId: string, otherId: string): Promise<boolean> {
  const [row] = await raw(db).$queryRaw<{ refused: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM trade_refusals WHERE user_id = ${userId}::uuid AND refused_id = ${otherId}::uuid)
        OR EXISTS (SELECT 1 FROM user_blocks WHERE (blocker_id = ${userId}::uuid AND blocked_id = ${otherId}::uuid)
                                                OR (blocker_id = ${otherId}::uuid AND blocked_id = ${userId}::uuid)) AS refused`;
  return row!.refused;
}

/** The least offer the collectible's owner takes for its card (none without a minimum). */
export async function minimumOfferFor(db: RawDb | DbTx, ownerId: string, collectibleId: string): Promise<number | undefined> {
  const [row] = await raw(db).$queryRaw<{ amount: bigint }[]>`
    SELECT m.amount FROM collectibles c JOIN offer_minimums m ON m.user_id = ${ownerId}::uuid AND m.card_id = c.card_id
    WHERE c.id = ${collectibleId}::uuid`;
  return row ? Number(row.amount) : undefined;
}

export async function offerSettingsOf(db: RawDb | DbTx, userId: string) {
  const minimums = await raw(db).$queryRaw<{ cardId: string; amount: bigint }[]>`
    SELECT card_id AS "cardId", amount FROM offer_minimums WHERE user_id = ${userId}::uuid ORDER BY card_id`;
  const refused = await raw(db).$queryRaw<{ userId: string }[]>`
    SELECT refused_id::text AS "userId" FROM trade_refusals WHERE user_id = ${userId}::uuid ORDER BY refused_id`;
  return { minimums: minimums.map((m) => ({ cardId: m.cardId, amount: Number(m.amount) })), refusedUserIds: refused.map((r) => r.userId) };
}

/** Replaces the user's offer settings (the caller holds the user's row lock). */
export async function replaceOfferSettings(tx: DbTx, userId: string, s: { minimums: { cardId: string; amount: number }[]; refusedUserIds: string[] }) {
  await tx.$executeRaw`DELETE FROM offer_minimums WHERE user_id = ${userId}::uuid`;
  await tx.$executeRaw`DELETE FROM trade_refusals WHERE user_id = ${userId}::uuid`;
  if (s.minimums.length) {
    await tx.$executeRaw`
      INSERT INTO offer_minimums (user_id, card_id, amount)
      SELECT ${userId}::uuid, m.card_id, m.amount FROM unnest(${s.minimums.map((m) => m.cardId)}::text[], ${s.minimums.map((m) => m.amount)}::int8[]) AS m(card_id, amount)`;
  }
  if (s.refusedUserIds.length) {
    await tx.$executeRaw`
      INSERT INTO trade_refusals (user_id, refused_id) SELECT ${userId}::uuid, id FROM unnest(${s.refusedUserIds}::uuid[]) AS id`;
  }
}

/** Of these card ids, those in the catalog. */
export async function existingCards(db: RawDb | DbTx, cardIds: string[]): Promise<Set<string>> {
  const rows = await raw(db).$queryRaw<{ id: string }[]>`SELECT id FROM collectible_cards WHERE id = ANY(${cardIds}::text[])`;
  return new Set(rows.map((r) => r.id));
}

/** Of these user ids, those of users (tombstones included). */
export async function existingUsers(db: RawDb | DbTx, userIds: string[]): Promise<Set<string>> {
  const rows = await raw(db).$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM users WHERE id = ANY(${userIds}::uuid[])`;
  return new Set(rows.map((r) => r.id));
}

/**
 * Trades whose ledger disagrees with their state (the economy invariant): the net of the wallet rows referencing a
 * trade is minus its held offerCoins while open, minus its fees once accepted, and 0 once closed otherwise (the hold
 * came back).
 */
export function tradeLedgerMismatches(db: RawDb | DbTx, limit = 100) {
  return raw(db).$queryRaw<{ tradeId: string; status: string; expected: number; ledger: number }[]>`
    SELECT t.id::text AS "tradeId", t.status::text AS status, e.expected::float8 AS expected, coalesce(w.net, 0)::float8 AS ledger
    FROM trades t
    CROSS JOIN LATERAL (SELECT CASE t.status WHEN 'open' THEN -t.offer_coins
                                             WHEN 'accepted' THEN -(coalesce(t.recipient_fee, 0) + coalesce(t.proposer_fee, 0))
                                             ELSE 0 END AS expected) e
    LEFT JOIN (SELECT reference_id, sum(amount) AS net FROM wallet_transactions WHERE reference_type = 'trade' GROUP BY reference_id) w
      ON w.reference_id = t.id::text
    WHERE coalesce(w.net, 0) <> e.expected
    ORDER BY t.id LIMIT ${limit}`;
}

// Notifications written with the change that causes them.

/**
 * TRADE_UPDATE to the other party: the recipient of a new proposal (`proposed`, `countered` for a counter), the
 * proposer when the recipient accepts or declines, or when accepting voided it.
 */
export const notifyTrade = (tx: DbTx, tradeId: string, event: "proposed" | "countered" | "accepted" | "declined" | "void") =>
  insertNotifications(tx, {
    type: "TRADE_UPDATE",
    recipient: Prisma.sql`CASE WHEN ${event} IN ('proposed', 'countered') THEN t.recipient_id ELSE t.proposer_id END`,
    cause: Prisma.sql`'trade:' || t.id || ':' || ${event}`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('tradeId', t.id::text, 'event', ${event}::text, 'gift', t.gift, 'status', t.status::text,
                              'counterOfId', t.counter_of_id::text, 'voidReason', t.void_reason,
                              'actor', ${actorJsonSql()},
                              'title', CASE ${event}
                                         WHEN 'proposed' THEN ${actorNameSql()} || CASE WHEN t.gift THEN ' sent you a gift' ELSE ' proposed a trade' END
                                         WHEN 'countered' THEN ${actorNameSql()} || ' countered your trade'
                                         WHEN 'accepted' THEN 'Your ' || CASE WHEN t.gift THEN 'gift' ELSE 'trade' END || ' was accepted'
                                         WHEN 'declined' THEN 'Your ' || CASE WHEN t.gift THEN 'gift' ELSE 'trade' END || ' was declined'
                                         ELSE 'Your trade could not go through' END,
                              'body', CASE ${event}
                                        WHEN 'proposed' THEN 'Open it to accept or decline.'
                                        WHEN 'countered' THEN 'They answered with a proposal of their own.'
                                        WHEN 'accepted' THEN 'The items and coins have changed hands.'
                                        ELSE 'Nothing changed hands; any coins you offered are back in your wallet.' END,
                              'href', '/api/v1/marketplace/trades/' || t.id)`,
    from: Prisma.sql`FROM trades t JOIN users a ON a.id = CASE WHEN ${event} IN ('proposed', 'countered') THEN t.proposer_id ELSE t.recipient_id END
    WHERE t.id = ${tradeId}::uuid`,
  });

/** The console's trades: newest first, optionally of one status (keyset on the time-ordered id). */
export async function tradesForConsole(db: RawDb | DbTx, status: TradeStatus | undefined, before: string | undefined, take: number): Promise<TradeRow[]> {
  const where = [Prisma.sql`true`];
  if (status) where.push(Prisma.sql`t.status = ${status}::"TradeStatus"`);
  if (before) where.push(Prisma.sql`t.id < ${before}::uuid`);
  const rows = await raw(db).$queryRaw<TradeDbRow[]>`${TRADE} WHERE ${Prisma.join(where, " AND ")} ORDER BY t.id DESC LIMIT ${take}`;
  return rows.map((r) => int8(r, TRADE_INT8));
}

/** Account erasure (lib/operations/erasure/service.ts): the user's open trades, either side, locked first (before any collectible). */
export async function lockOpenTradesOf(tx: DbTx, userId: string): Promise<{ id: string; proposerId: string }[]> {
  return tx.$queryRaw<{ id: string; proposerId: string }[]>`
    SELECT id::text AS id, proposer_id::text AS "proposerId" FROM trades
    WHERE (proposer_id = ${userId}::uuid OR recipient_id = ${userId}::uuid) AND status = 'open' ORDER BY id FOR UPDATE`;
}
