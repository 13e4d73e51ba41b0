import type { Db, DbTx } from "../../db/client";
import { processCache, keyedCache } from "../../db/cache";
import { uuidv7 } from "../../db/ids";
import { lockUser, txOptions } from "../../db/tx";
import type { RawDb } from "../../db/raw";
import { toCard } from "../collectibles/service";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeIdCursor, decodeUuidTimeCursor, encodeCursor, encodeIdCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { errors as marketErrors } from "./errors";
import {
  alertsOf,
  cardExists,
  cardMarketOf,
  countAlerts,
  deleteAlert,
  holdersOf,
  insertAlert,
  reputationsOf,
  salesPage,
  type AlertRow,
  type ReputationRow,
  type SaleRow,
} from "./queries";
import { MAX_ALERTS } from "./schemas";

// Market data: a card's market now (floor, last sale, the day's volume, holders), the sales history, price alerts and
// sellers' reputation. Sales are recorded by the marketplace (recordSale, from settle); alerts fire when a listing is
// created or repriced (firePriceAlerts).

export { firePriceAlerts, markSaleRefunded, recordSale } from "./queries";

const DAY = 86_400_000;

// Counting a card's distinct holders reads every copy (100,000 for a big edition): the same for every caller, so one
// count per card and process every 30 seconds.
const holders = processCache<number>("market:holders", () => 30_000);

/** GET /api/v1/collectibles/cards/{cardId}: the card and its market now. */
export async function getCardMarket(db: RawDb | DbTx, cardId: string) {
  const [row, holderCount] = await Promise.all([cardMarketOf(db, cardId), holders.get(cardId, () => holdersOf(db, cardId))]);
  if (!row) throw notFound("Card");
  return {
    card: toCard(row),
    supply: row.editionSize,
    drawn: row.mintedCount,
    holders: holderCount,
    floor: row.floor && { listingId: row.floor.listingId, price: Number(row.floor.price), serial: row.floor.serial },
    lastSale: row.lastSale && { ...row.lastSale, price: Number(row.lastSale.price), at: new Date(row.lastSale.at).toISOString() },
    last24h: { volume: row.volume, sales: row.sales },
  };
}

const toSale = (s: SaleRow) => ({
  id: s.id,
  cardId: s.cardId,
  collectibleId: s.collectibleId,
  serial: s.serial,
  sellerId: s.sellerId,
  buyerId: s.buyerId,
  price: s.price,
  currency: s.currency,
  via: s.via,
  at: s.createdAt.toISOString(),
  refunded: s.refundedAt !== null,
});

/** Sales newest first (keyset on time and id), of one card or every card. */
export async function listSales(db: RawDb | DbTx, q: { cardId?: string; cursor?: string; limit: number }, requireCard = false) {
  if (requireCard && q.cardId !== undefined && !(await cardExists(db, q.cardId))) throw notFound("Card");
  const after = q.cursor ? decodeUuidTimeCursor(q.cursor) : undefined;
  const rows = await salesPage(db, { cardId: q.cardId, after, take: q.limit + 1 });
  return keysetPage("sales", rows, q.limit, (r) => encodeCursor(r.createdAt.getTime(), r.id), toSale);
}

const toAlert = (a: AlertRow) => ({ ...a, createdAt: a.createdAt.toISOString() });

export async function listAlerts(db: RawDb | DbTx, userId: string, q: { cursor?: string; limit: number }) {
  const rows = await alertsOf(db, userId, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("alerts", rows, q.limit, (r) => encodeIdCursor(r.id), toAlert);
}

/** A price alert, up to MAX_ALERTS a fan (counted under the fan's row lock, so concurrent ones cannot pass it together). */
export async function createAlert(db: Db, userId: string, b: { cardId: string; maxPrice: number; serialMin?: number; serialMax?: number }) {
  if (!(await cardExists(db, b.cardId))) throw notFound("Card");
  const alert = await db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    if ((await countAlerts(tx, userId)) >= MAX_ALERTS) {
      throw new DomainError(marketErrors.ALERT_LIMIT, `You have ${MAX_ALERTS} price alerts, the most one fan may keep; delete one first.`);
    }
    return insertAlert(tx, { id: uuidv7(), userId, cardId: b.cardId, maxPrice: b.maxPrice, serialMin: b.serialMin ?? null, serialMax: b.serialMax ?? null });
  }, txOptions());
  return { alert: toAlert(alert) };
}

export async function removeAlert(db: RawDb | DbTx, userId: string, alertId: string) {
  if ((await deleteAlert(db, userId, alertId)) === 0) throw notFound("Alert");
}

const toReputation = (r: ReputationRow, now: number) => {
  const total = r.completedSales + r.refundedSales;
  return {
    completedSales: r.completedSales,
    refundRate: total === 0 ? null : Math.round((r.refundedSales / total) * 1000) / 1000,
    accountAgeDays: Math.floor((now - r.createdAt.getTime()) / DAY),
    earnedRep: r.earnedRep,
  };
};

// A seller's record changes with each of their sales: read for many listings at once, kept 60 seconds per process.
const reputations = keyedCache<ReputationRow>("market:reputation", () => 60_000);

/** Sellers' reputation by user id (users that do not exist are left out). */
export async function sellerReputations(db: RawDb | DbTx, userIds: string[]) {
  const rows = await reputations.getMany(userIds, (missing) => reputationsOf(db, missing).then((rs) => new Map(rs.map((r) => [r.userId, r]))));
  const now = Date.now();
  return new Map([...rows].map(([id, r]) => [id, toReputation(r, now)]));
}
