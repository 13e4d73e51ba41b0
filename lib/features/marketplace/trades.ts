// Trades and gifts: one user proposes items and coins to another for items and coins back (a gift asks nothing back);
// the recipient accepts, declines or counters, the proposer cancels, the marketplace cron expires them. The offered
// coins are held from the proposal until the trade closes, as an offer's are. Accepting is one transaction in the one
// lock order (trade → collectibles → listings → wallets) that re-checks every item and coin leg: any check failing
// voids the trade (nothing moves, the hold goes back) and answers 409 with the reason's code.
import { recordAudit, type StaffActor } from "../../core/audit/service";
import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { lockCollectibles, transferOwnership } from "../../core/collectibles/service";
import { toCollectible } from "../../core/collectibles/service";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { DomainError, notFound, sharedErrors, type ErrorDetail } from "../../kernel/errors";
import { idempotent, type IdempotencyKey } from "../../db/idempotency";
import { keysetPage } from "../../kernel/page";
import { limiterFor } from "../../http/rate-limit";
import { txOptions } from "../../db/tx";
import { credit, lockWallets, pay } from "../../core/wallets/service";
import { balancesOf } from "../../core/wallets/service";
import { assertMayTrade, tradingStanding } from "../moderation/service";
import { notePushSoon } from "../../core/push/service";
import { feeOf, HOUR } from "./ownership";
import { lockedBy, lockedItems } from "../challenges/service";
import { errors as marketplaceErrors } from "./errors";
import {
  closeTrade,
  existingUsers,
  insertTrade,
  itemsOfTrades,
  itemStates,
  lockActiveListingsOf,
  lockExpiredTrades,
  lockTrade,
  notifyTrade,
  refuses,
  tradeById,
  tradesOf,
  type TradeItemRow,
  type TradeRow,
  type TradeStatus,
} from "./trade-queries";
import { GIFT_NOMINAL_COINS, type CounterInput, type TradeInput } from "./trade-schemas";

type VoidReason = "TRADE_ITEM_GONE" | "TRADE_ITEM_LISTED" | "TRADE_ITEM_MINTED" | "TRADE_ITEM_LOCKED" | "TRADE_FUNDS_SHORT" | "TRADE_WALLET_FROZEN";
type StaffVoid = "TRADE_VOIDED_BY_STAFF";

const party = (id: string, handle: string | null, displayName: string | null) => ({ id, handle, displayName });

function toTrade(t: TradeRow, items: TradeItemRow[]) {
  const mine = items.filter((i) => i.tradeId === t.id);
  return {
    id: t.id,
    proposer: party(t.proposerId, t.proposerHandle, t.proposerDisplayName),
    recipient: party(t.recipientId, t.recipientHandle, t.recipientDisplayName),
    offered: { items: mine.filter((i) => i.side === "offered").map(toCollectible), coins: t.offerCoins },
    asked: { items: mine.filter((i) => i.side === "asked").map(toCollectible), coins: t.askCoins },
    currency: t.currency,
    gift: t.gift,
    message: t.message,
    status: t.status,
    voidReason: t.voidReason as VoidReason | StaffVoid | null,
    counterOfId: t.counterOfId,
    counteredById: t.counteredById,
    fees: t.status === "accepted" ? { recipient: t.recipientFee ?? 0, proposer: t.proposerFee ?? 0 } : null,
    expiresAt: t.expiresAt.toISOString(),
    createdAt: t.createdAt.toISOString(),
    closedAt: t.closedAt?.toISOString() ?? null,
  };
}

async function tradeOut(db: RawDb | DbTx, id: string) {
  return toTrade((await tradeById(db, id))!, await itemsOfTrades(db, [id]));
}

const invalid = (path: string, message: string) => new DomainError(sharedErrors.VALIDATION_ERROR, message, [{ path, message }]);

const VOID_MESSAGES: Record<VoidReason, string> = {
  TRADE_ITEM_GONE: "An item of this trade is no longer its side's.",
  TRADE_ITEM_LISTED: "An item of this trade is in an active listing or a running auction.",
  TRADE_ITEM_MINTED: "An item of this trade is minted to a wallet, or its mint is under way.",
  TRADE_ITEM_LOCKED: "An item of this trade is in an entry of a collection challenge that has not ended, or in a lineup of a contest that has not settled.",
  TRADE_FUNDS_SHORT: "The recipient's balance does not cover the coins asked.",
  TRADE_WALLET_FROZEN: "A party's wallet is frozen, or the proposer can no longer trade.",
};

/**
 * The items' checks, read in the caller's transaction (under their locks when accepting): each offered item the
 * proposer's and each asked item the recipient's, none listed or in an auction, none minted or being minted, none
 * locked in a collection challenge's entry. The first failing check's reason, with every item it names.
 */
async function checkItems(tx: DbTx, t: { proposerId: string; recipientId: string; offered: string[]; asked: string[] }) {
  const states = new Map((await itemStates(tx, [...t.offered, ...t.asked])).map((s) => [s.id, s]));
  const locked = new Map((await lockedItems(tx, [...t.offered, ...t.asked])).map((l) => [l.collectibleId, l]));
  const failing = (reason: VoidReason, bad: (id: string, owner: string) => boolean) => {
    const details: ErrorDetail[] = [];
    for (const [key, ids, owner] of [
      ["offeredItems", t.offered, t.proposerId],
      ["askedItems", t.asked, t.recipientId],
    ] as const) {
      ids.forEach((id, i) => {
        const lock = reason === "TRADE_ITEM_LOCKED" ? locked.get(id) : undefined;
        const why = lock ? ` (${lockedBy(lock)})` : "";
        if (bad(id, owner)) details.push({ path: `${key}.${i}`, message: `${id}: ${VOID_MESSAGES[reason]}${why}` });
      });
    }
    return details.length ? { reason, details } : undefined;
  };
  return (
    failing("TRADE_ITEM_GONE", (id, owner) => states.get(id)?.ownerId !== owner) ??
    failing("TRADE_ITEM_LISTED", (id) => states.get(id)?.listingKind != null) ??
    failing("TRADE_ITEM_MINTED", (id) => states.get(id)?.minted === true) ??
    failing("TRADE_ITEM_LOCKED", (id) => locked.has(id))
  );
}

type Sides = { offeredItems: string[]; offerCoins: number; askedItems: string[]; askCoins: number };

/**
 * Whether a proposal moves value one way only: one side gives no items and, net of the coins it gets, fewer than
 * GIFT_NOMINAL_COINS (a nominal price). A gift (nothing asked back) is one; so is a card for 1 coin, a card asked for
 * 1 coin, and coins for fewer coins. Everything else asks something of note back from each side.
 */
export function movesOneWay(p: Sides): boolean {
  const nominal = (items: string[], gives: number, gets: number) => items.length === 0 && gives - gets < GIFT_NOMINAL_COINS;
  return nominal(p.askedItems, p.askCoins, p.offerCoins) || nominal(p.offeredItems, p.offerCoins, p.askCoins);
}

/**
 * A proposal that moves value one way (a gift, or a trade for a nominal price: movesOneWay) spends one of the
 * proposer's `gifts` tokens; past them, 429.
 */
async function limitGifts(userId: string, p: Sides) {
  if (!movesOneWay(p)) return;
  const rate = await limiterFor("gifts")(`u:${userId}`);
  if (!rate.allowed) {
    const retryAfter = Math.max(1, Math.ceil((rate.reset - Date.now()) / 1000));
    throw new DomainError(
      sharedErrors.RATE_LIMITED,
      `You have sent too many gifts (a trade for a nominal price counts as one). Retry in ${retryAfter} s.`,
      undefined,
      { "Retry-After": String(retryAfter) },
    );
  }
}

/** Writes a new open trade after checking it; holds its offered coins. The caller's transaction; answers its id. */
async function propose(tx: DbTx, proposerId: string, recipientId: string, p: CounterInput, counterOfId: string | null): Promise<string> {
  if (recipientId === proposerId) throw invalid("body.recipientId", "You cannot trade with yourself.");
  const states = new Map((await itemStates(tx, p.askedItems)).map((s) => [s.id, s]));
  p.askedItems.forEach((id, i) => {
    if (states.get(id)?.ownerId === proposerId) throw invalid(`body.askedItems.${i}`, "This item is yours: offer it instead of asking for it.");
  });
  if (await refuses(tx, recipientId, proposerId)) {
    throw new DomainError(marketplaceErrors.REFUSED_BY_USER, "This user does not take your offers or trade proposals.");
  }
  const failed = await checkItems(tx, { proposerId, recipientId, offered: p.offeredItems, asked: p.askedItems });
  if (failed) {
    throw new DomainError(
      marketplaceErrors[failed.reason],
      "Some items cannot be traded now (details name them).",
      failed.details.map((d) => ({ ...d, path: `body.${d.path}` })),
    );
  }
  const id = uuidv7();
  await insertTrade(tx, {
    id,
    proposerId,
    recipientId,
    offerCoins: p.offerCoins,
    askCoins: p.askCoins,
    gift: p.askedItems.length === 0 && p.askCoins === 0,
    message: p.message ?? null,
    counterOfId,
    expiresAt: new Date(Date.now() + p.expiresInHours * HOUR),
    offered: p.offeredItems,
    asked: p.askedItems,
  });
  if (p.offerCoins > 0) await pay(tx, { userId: proposerId, currency: "COIN", amount: p.offerCoins, reason: "hold", referenceType: "trade", referenceId: id });
  await notifyTrade(tx, id, counterOfId ? "countered" : "proposed");
  return id;
}

/** Proposes a trade (or a gift) to another user; the offered coins are held until it closes. */
export async function proposeTrade(db: Db, userId: string, input: TradeInput, idempotency: IdempotencyKey) {
  await assertMayTrade(db, userId);
  await limitGifts(userId, input);
  const result = await idempotent(db, { userId, ...idempotency, request: input }, async (tx) => {
    const { recipientId, ...p } = input;
    if (recipientId !== userId && !(await existingUsers(tx, [recipientId])).has(recipientId)) throw notFound("User");
    const id = await propose(tx, userId, recipientId, p, null);
    return { trade: await tradeOut(tx, id) };
  });
  notePushSoon();
  return result;
}

/**
 * The open trade, locked, with the caller's part in it checked: the recipient accepts, declines and counters, the
 * proposer cancels; anyone else gets 404.
 */
async function openTrade(tx: DbTx, userId: string, tradeId: string, as: "recipient" | "proposer") {
  if (!(await lockTrade(tx, tradeId))) throw notFound("Trade");
  const t = (await tradeById(tx, tradeId))!;
  if (t.proposerId !== userId && t.recipientId !== userId) throw notFound("Trade");
  if (t.status !== "open") throw new DomainError(marketplaceErrors.TRADE_CLOSED, `This trade is ${t.status}.`);
  if (t.expired) throw new DomainError(marketplaceErrors.TRADE_CLOSED, "This trade has expired; any coins offered go back to the proposer.");
  if ((as === "recipient" ? t.recipientId : t.proposerId) !== userId) {
    throw new DomainError(sharedErrors.FORBIDDEN, as === "recipient" ? "Only the recipient can do this." : "Only the proposer can cancel a trade.");
  }
  return t;
}

async function releaseHold(tx: DbTx, t: TradeRow) {
  if (t.offerCoins > 0) {
    await credit(tx, { userId: t.proposerId, currency: t.currency, amount: t.offerCoins, reason: "refund", referenceType: "trade", referenceId: t.id });
  }
}

/** Why the trade cannot go through now (checked under every lock), or none. */
async function recheck(tx: DbTx, t: TradeRow, items: TradeItemRow[]): Promise<{ reason: VoidReason; details?: ErrorDetail[] } | undefined> {
  const failed = await checkItems(tx, {
    proposerId: t.proposerId,
    recipientId: t.recipientId,
    offered: items.filter((i) => i.side === "offered").map((i) => i.id),
    asked: items.filter((i) => i.side === "asked").map((i) => i.id),
  });
  if (failed) return failed;
  const [proposer, recipient] = await Promise.all([tradingStanding(tx, t.proposerId), tradingStanding(tx, t.recipientId)]);
  if (proposer.debt > 0 || recipient.debt > 0 || proposer.restrictedUntil || proposer.deletionPending) return { reason: "TRADE_WALLET_FROZEN" };
  if (t.askCoins > 0) {
    const balance = (await balancesOf(tx, t.recipientId)).find((w) => w.currency === t.currency)?.balance ?? 0;
    if (balance < t.askCoins) return { reason: "TRADE_FUNDS_SHORT" };
  }
  return undefined;
}

/**
 * The recipient accepts: in one transaction, locked in the one order, every item and coin leg re-checked; then the
 * items move (transferOwnership, reason trade or gift) and the coins with them, each coin leg paying the 5% fee from
 * the side receiving it. A failing check voids the trade instead (committed), and answers 409 with its reason.
 */
export async function acceptTrade(db: Db, userId: string, tradeId: string) {
  await assertMayTrade(db, userId);
  const voided = await db.$transaction(async (tx) => {
    const t = await openTrade(tx, userId, tradeId, "recipient");
    const items = await itemsOfTrades(tx, [t.id]);
    const ids = items.map((i) => i.id);
    await lockCollectibles(tx, ids);
    await lockActiveListingsOf(tx, ids);
    await lockWallets(tx, [t.proposerId, t.recipientId], t.currency);
    const failed = await recheck(tx, t, items);
    if (failed) {
      await releaseHold(tx, t);
      await closeTrade(tx, t.id, "void", { voidReason: failed.reason });
      await notifyTrade(tx, t.id, "void");
      return failed;
    }
    for (const i of items) {
      const [from, to] = i.side === "offered" ? [t.proposerId, t.recipientId] : [t.recipientId, t.proposerId];
      const moved = await transferOwnership(tx, { collectibleId: i.id, from, to, reason: t.gift ? "gift" : "trade", referenceId: t.id, price: null });
      if (!moved) throw new Error(`trade ${t.id}: item ${i.id} moved under its lock`);
    }
    const ref = { currency: t.currency, referenceType: "trade", referenceId: t.id } as const;
    const recipientFee = feeOf(t.offerCoins);
    const proposerFee = feeOf(t.askCoins);
    // The recipient is credited first, so their fee is covered; their ask payment was checked against their balance.
    if (t.offerCoins > 0) await credit(tx, { ...ref, userId: t.recipientId, amount: t.offerCoins, reason: "trade" });
    if (t.askCoins > 0) {
      await pay(tx, { ...ref, userId: t.recipientId, amount: t.askCoins, reason: "trade" });
      await credit(tx, { ...ref, userId: t.proposerId, amount: t.askCoins, reason: "trade" });
    }
    if (recipientFee > 0) await pay(tx, { ...ref, userId: t.recipientId, amount: recipientFee, reason: "fee" });
    if (proposerFee > 0) await pay(tx, { ...ref, userId: t.proposerId, amount: proposerFee, reason: "fee" });
    await closeTrade(tx, t.id, "accepted", { recipientFee, proposerFee });
    await notifyTrade(tx, t.id, "accepted");
    return undefined;
  }, txOptions());
  notePushSoon();
  if (voided) {
    throw new DomainError(
      marketplaceErrors[voided.reason],
      `${VOID_MESSAGES[voided.reason]} The trade is now void: nothing moved, and any coins offered are back.`,
      voided.details,
    );
  }
  return { trade: await tradeOut(db, tradeId) };
}

export async function declineTrade(db: Db, userId: string, tradeId: string) {
  await db.$transaction(async (tx) => {
    const t = await openTrade(tx, userId, tradeId, "recipient");
    await releaseHold(tx, t);
    await closeTrade(tx, t.id, "declined");
    await notifyTrade(tx, t.id, "declined");
  }, txOptions());
  notePushSoon();
  return { trade: await tradeOut(db, tradeId) };
}

/**
 * Staff void an open trade (a dispute: a scam proposal, a mistake reported): its held coins go back to the proposer,
 * who is told (TRADE_UPDATE, void); audited with the reason. Refused once it is closed (409 TRADE_CLOSED).
 */
export async function voidTradeAsStaff(db: Db, tradeId: string, actor: StaffActor, reason: string) {
  await db.$transaction(async (tx) => {
    if (!(await lockTrade(tx, tradeId))) throw notFound("Trade");
    const t = (await tradeById(tx, tradeId))!;
    if (t.status !== "open") throw new DomainError(marketplaceErrors.TRADE_CLOSED, `This trade is ${t.status}.`);
    await releaseHold(tx, t);
    await closeTrade(tx, t.id, "void", { voidReason: "TRADE_VOIDED_BY_STAFF" });
    await notifyTrade(tx, t.id, "void");
    await recordAudit(tx, actor, {
      action: "trade.void",
      targetType: "trade",
      targetId: t.id,
      before: { status: "open", offerCoins: t.offerCoins, proposerId: t.proposerId, recipientId: t.recipientId },
      after: { status: "void", voidReason: "TRADE_VOIDED_BY_STAFF", refunded: t.offerCoins },
      note: reason,
    });
  }, txOptions());
  notePushSoon();
  return { trade: await tradeOut(db, tradeId) };
}

export async function cancelTrade(db: Db, userId: string, tradeId: string) {
  await db.$transaction(async (tx) => {
    const t = await openTrade(tx, userId, tradeId, "proposer");
    await releaseHold(tx, t);
    await closeTrade(tx, t.id, "cancelled");
  }, txOptions());
  return { trade: await tradeOut(db, tradeId) };
}

/**
 * The recipient answers with a proposal of their own, the sides swapped: in one transaction under the old trade's
 * lock, the old one closes as countered (its hold back to its proposer) and the new one opens (the caller's coins held).
 */
export async function counterTrade(db: Db, userId: string, tradeId: string, input: CounterInput, idempotency: IdempotencyKey) {
  await assertMayTrade(db, userId);
  await limitGifts(userId, input);
  const result = await idempotent(db, { userId, ...idempotency, request: { tradeId, ...input } }, async (tx) => {
    const old = await openTrade(tx, userId, tradeId, "recipient");
    // Both wallets move (the old hold back, the new one taken): locked in user-id order first.
    await lockWallets(tx, [old.proposerId, userId], old.currency);
    await releaseHold(tx, old);
    const id = await propose(tx, userId, old.proposerId, input, old.id);
    await closeTrade(tx, old.id, "countered", { counteredById: id });
    return { trade: await tradeOut(tx, id), countered: await tradeOut(tx, old.id) };
  });
  notePushSoon();
  return result;
}

export async function listTrades(db: RawDb | DbTx, userId: string, q: { role: "sent" | "received"; status?: TradeStatus; cursor?: string; limit: number }) {
  const rows = await tradesOf(db, userId, { ...q, before: q.cursor ? decodeIdCursor(q.cursor) : undefined, take: q.limit + 1 });
  const items = rows.length
    ? await itemsOfTrades(
        db,
        rows.slice(0, q.limit).map((r) => r.id),
      )
    : [];
  return keysetPage(
    "trades",
    rows,
    q.limit,
    (r) => encodeIdCursor(r.id),
    (r) => toTrade(r, items),
  );
}

/** A trade, to its two parties only (404 to anyone else). */
export async function getTrade(db: RawDb | DbTx, userId: string, tradeId: string) {
  const t = await tradeById(db, tradeId);
  if (!t || (t.proposerId !== userId && t.recipientId !== userId)) throw notFound("Trade");
  return { trade: toTrade(t, await itemsOfTrades(db, [tradeId])) };
}

/** The marketplace cron's part: open trades past their expiry close as expired, their held coins back. */
export async function expireTrades(db: Db, limit: number): Promise<number> {
  let n = 0;
  for (; n < limit; n++) {
    const done = await db.$transaction(async (tx) => {
      const [id] = await lockExpiredTrades(tx, 1);
      if (!id) return false;
      const t = (await tradeById(tx, id))!;
      await releaseHold(tx, t);
      await closeTrade(tx, id, "expired");
      return true;
    }, txOptions());
    if (!done) break;
  }
  return n;
}

/**
 * Account erasure (lib/operations/erasure/service.ts), after lockOpenTradesOf (trade-queries.ts) locked the user's open
 * trades and with the proposers' wallets locked: closes them, the user's own cancelled, those proposed to them declined; holds back.
 */
export async function closeTradesOf(tx: DbTx, userId: string, trades: { id: string }[]): Promise<void> {
  for (const { id } of trades) {
    const t = (await tradeById(tx, id))!;
    if (t.status !== "open") continue;
    await releaseHold(tx, t);
    await closeTrade(tx, id, t.proposerId === userId ? "cancelled" : "declined");
  }
}
