import type { Db, DbTx } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { uuidv7 } from "../../db/ids";
import { idempotent, type IdempotencyKey } from "../../db/idempotency";
import { DomainError, notFound } from "../../kernel/errors";
import { assertMayTrade } from "../moderation/service";
import { assertPackSalesAllowed, assertWithinLimits } from "../spending/service";
import { credit, pay } from "../../core/wallets/service";
import { errors as dropsErrors } from "./errors";
import { orderLocked } from "./ordering";
import {
  addWon,
  countSale,
  dropById,
  entryOf,
  insertDropPurchases,
  insertEntry,
  isAllowlisted,
  lockDrop,
  nextPosition,
  reenter,
  settleEntry,
  toEntry,
  type DropRow,
} from "./queries";

// Entering a drop, buying from its waiting room and withdrawing. Lock order, everywhere in drops: the drop row
// (shared for entries and withdrawals, exclusive for sales and the draw), the user row (caps are counted under it),
// the entry, the wallet.

const closed = (d: DropRow) =>
  new DomainError(dropsErrors.DROP_NOT_OPEN, `${d.name} closed at ${d.closesAt.toISOString()}.`, [{ path: "closesAt", message: d.closesAt.toISOString() }]);
const notYet = (d: DropRow, at: Date) =>
  new DomainError(dropsErrors.DROP_NOT_OPEN, `${d.name} opens for you at ${at.toISOString()}.`, [{ path: "opensAt", message: at.toISOString() }]);
const already = () => new DomainError(dropsErrors.DROP_ALREADY_ENTERED, "You already entered this drop.");
const capReached = (d: DropRow, has: number) =>
  new DomainError(dropsErrors.DROP_CAP_REACHED, `At most ${d.perUserCap} packs per fan from this drop; you have ${has}.`, [
    { path: "perUserCap", message: String(d.perUserCap) },
    { path: "won", message: String(has) },
  ]);

/** When the fan may start: allowlisted fans from allowlistOpensAt, everyone from opensAt. */
async function startFor(tx: DbTx, d: DropRow, userId: string): Promise<{ at: Date; allowlisted: boolean }> {
  const allowlisted = d.allowlistOpensAt !== null && (await isAllowlisted(tx, d.id, userId));
  return { at: allowlisted ? d.allowlistOpensAt! : d.opensAt, allowlisted };
}

async function answer(tx: DbTx, dropId: string, userId: string) {
  return { entry: toEntry((await entryOf(tx, dropId, userId))!) };
}

/** Draw mode: one entry per fan, price × quantity held from their wallet until the draw (or a withdrawal). */
async function enterDraw(tx: DbTx, d: DropRow, userId: string, quantity: number) {
  const now = d.now.getTime();
  if (d.orderedAt || now >= d.closesAt.getTime()) throw closed(d);
  const start = await startFor(tx, d, userId);
  if (now < start.at.getTime()) throw notYet(d, start.at);
  const existing = await entryOf(tx, d.id, userId, true);
  if (existing && existing.status !== "withdrawn") throw already();
  if (quantity > d.perUserCap) throw capReached(d, 0);
  const held = quantity * d.price;
  await assertWithinLimits(tx, userId, "packs", held);
  const id = existing?.id ?? uuidv7();
  const written = existing
    ? await reenter(tx, id, { status: "entered", quantity, held, position: null })
    : await insertEntry(tx, { id, dropId: d.id, userId, status: "entered", quantity, held, position: null });
  if (!written) throw already();
  if (held > 0) await pay(tx, { userId, currency: d.currency, amount: held, reason: "hold", referenceType: "drop_entry", referenceId: id });
  return answer(tx, d.id, userId);
}

/**
 * Queue mode: joins the waiting room (a position behind everyone once the order is fixed) and, when the fan may buy
 * now (allowlisted from allowlistOpensAt; everyone else from opensAt while their position <= fans served + window),
 * buys `quantity` packs: within the drop's stock (its row lock) and the fan's cap (their row lock), eligibility
 * checked now, each pack paid like a bought pack.
 */
async function queueBuy(tx: DbTx, d: DropRow, userId: string, quantity: number) {
  const now = d.now.getTime();
  if (now >= d.closesAt.getTime()) throw closed(d);
  const start = await startFor(tx, d, userId);
  let e = await entryOf(tx, d.id, userId, true);
  const joined = !e || e.status === "withdrawn";
  if (joined) {
    const position = d.orderedAt ? await nextPosition(tx, d.id) : null;
    const written = e
      ? await reenter(tx, e.id, { status: "waiting", quantity: 0, held: 0, position })
      : await insertEntry(tx, { id: uuidv7(), dropId: d.id, userId, status: "waiting", quantity: 0, held: 0, position });
    if (!written) throw already();
    e = (await entryOf(tx, d.id, userId))!;
  }
  if (now < start.at.getTime()) {
    if (joined) return answer(tx, d.id, userId);
    throw already(); // in the waiting room already, before buying starts
  }
  if (!start.allowlisted) {
    const servingUpTo = d.servedCount + d.queueWindow;
    if (e!.position === null || e!.position > servingUpTo) {
      if (joined) return answer(tx, d.id, userId);
      throw new DomainError(dropsErrors.DROP_NOT_YOUR_TURN, `Your position is ${e!.position}; positions up to ${servingUpTo} are served now.`, [
        { path: "position", message: String(e!.position) },
        { path: "servingUpTo", message: String(servingUpTo) },
      ]);
    }
  }
  if (e!.won + quantity > d.perUserCap) throw capReached(d, e!.won);
  const left = d.quantity - d.soldCount;
  if (quantity > left) {
    throw new DomainError(dropsErrors.DROP_SOLD_OUT, left === 0 ? `${d.name} is sold out.` : `Only ${left} packs are left.`, [
      { path: "remaining", message: String(left) },
    ]);
  }
  await assertWithinLimits(tx, userId, "packs", quantity * d.price);
  const ids = Array.from({ length: quantity }, () => uuidv7());
  await insertDropPurchases(tx, { ids, entryId: e!.id, userId, packId: d.packId, price: d.price, currency: d.currency });
  await countSale(tx, d.id, quantity, e!.won === 0);
  await addWon(tx, e!.id, quantity);
  if (d.price > 0) {
    for (const id of ids) {
      await pay(tx, { userId, currency: d.currency, amount: d.price, reason: "purchase", referenceType: "pack_purchase", referenceId: id });
    }
  }
  return answer(tx, d.id, userId);
}

/**
 * POST /api/v1/drops/{dropId}/entry: enters the draw, or joins the waiting room and buys when the fan's turn has come.
 * The trading gate and the region are checked first; spending limits under the wallet's lock in the transaction.
 */
export async function enterDrop(db: Db, userId: string, dropId: string, quantity: number, country: string | null, idempotency: IdempotencyKey) {
  const found = await dropById(db, dropId);
  if (!found) throw notFound("Drop");
  await assertMayTrade(db, userId);
  await assertPackSalesAllowed(db, userId, country);
  const work = async (tx: DbTx) => {
    // The mode never changes: lock once in the mode it needs (upgrading a shared lock could deadlock).
    let d = (await lockDrop(tx, dropId, found.mode === "queue" ? "update" : "share"))!;
    if (d.mode === "queue" && (await orderLocked(tx, d))) d = (await lockDrop(tx, dropId, "update"))!;
    if (!(await lockUser(tx, userId))) throw notFound("User");
    return d.mode === "draw" ? enterDraw(tx, d, userId, quantity) : queueBuy(tx, d, userId, quantity);
  };
  return idempotent(db, { userId, ...idempotency, request: { dropId, quantity } }, work);
}

/** DELETE /api/v1/drops/{dropId}/entry: withdraws before the draw (the hold refunded once), or leaves the waiting room before buying. */
export async function withdrawEntry(db: Db, userId: string, dropId: string) {
  return db.$transaction(async (tx) => {
    const d = await lockDrop(tx, dropId, "share");
    if (!d) throw notFound("Drop");
    await lockUser(tx, userId);
    const e = await entryOf(tx, dropId, userId, true);
    if (!e || e.status === "withdrawn") throw notFound("Entry");
    const over = d.now.getTime() >= d.closesAt.getTime();
    if (d.mode === "draw") {
      if (e.status !== "entered" || d.orderedAt || over) {
        throw new DomainError(dropsErrors.DROP_ENTRY_CLOSED, "The draw has closed: your entry can no longer be withdrawn.");
      }
      const was = await settleEntry(tx, e.id, "entered", { status: "withdrawn" });
      if (was && was.held > 0) {
        await credit(tx, { userId, currency: d.currency, amount: was.held, reason: "refund", referenceType: "drop_entry", referenceId: e.id });
      }
    } else {
      if (e.won > 0 || over) throw new DomainError(dropsErrors.DROP_ENTRY_CLOSED, "You bought from this drop, or it has closed: the entry stays.");
      await settleEntry(tx, e.id, "waiting", { status: "withdrawn" });
    }
    return answer(tx, dropId, userId);
  }, txOptions());
}
