import type { Db, DbTx } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { uuidv7 } from "../../db/ids";
import { DomainError, sharedErrors } from "../../kernel/errors";
import { featureCheck } from "../../http/features";
import { assertMayTrade } from "../moderation/service";
import { assertPackSalesAllowed, assertWithinLimits } from "../spending/service";
import { credit } from "../../core/wallets/service";
import { shuffle } from "./order";
import { claimDueDrop, entriesOf, insertDropPurchases, lockDrop, markOrdered, setPositions, settleEntry, type DropRow } from "./queries";

// Fixing a drop's order once: the draw at closesAt (draw mode) or the waiting room's positions at opensAt (queue
// mode). Each runs in one transaction under the drop's row lock, claimed with SKIP LOCKED by the cron and by the first
// read after the time, and marks the drop ordered (revealing its seed) in the same transaction: it runs once.
//
// A drop sells packs, so it follows the `packs` kill switch (docs/decisions/0066): while packs are paused for everyone
// no draw and no waiting-room order runs (the cron, a read, the console's "run now"); the drop waits, its holds stay
// held, and it is ordered after the resume by the same committed seed. A winner for whom packs are paused (a scoped
// pause) is passed over like any fan no longer eligible (FEATURE_DISABLED).

export const CRON_BUDGET_MS = 20_000;
const DRAW_TX_MS = 60_000;

/** Whether packs are paused for everyone: the kill-switch check the pipeline asks (lib/http/features.ts), no user. */
async function packsPaused(): Promise<boolean> {
  return (await featureCheck()("packs", null)) !== null;
}

/** Why a fan cannot buy now (packs paused for them, the trading gate, their country setting, their pack spending limits), or none. */
async function ineligibility(tx: DbTx, userId: string, amount: number): Promise<string | null> {
  if ((await featureCheck()("packs", { id: userId })) !== null) return sharedErrors.FEATURE_DISABLED.code;
  try {
    await assertMayTrade(tx, userId);
    await assertPackSalesAllowed(tx, userId, null);
    await assertWithinLimits(tx, userId, "packs", amount);
    return null;
  } catch (e) {
    if (e instanceof DomainError) return e.code;
    throw e;
  }
}

const refund = (tx: DbTx, d: DropRow, userId: string, entryId: string, amount: number) =>
  amount > 0 ? credit(tx, { userId, currency: d.currency, amount, reason: "refund", referenceType: "drop_entry", referenceId: entryId }) : undefined;

/**
 * The draw: the entrants (status entered) shuffled with the drop's seed (order.ts); in that order each gets
 * min(asked, left) packs if eligible now (checked under their user and wallet locks: a winner who became ineligible
 * is passed over, status lost with the code, and the next fan drawn takes the packs). A winner's hold pays for the
 * packs won (the rest refunded); every loser's hold is refunded by the entry's one transition out of entered.
 */
async function runDraw(tx: DbTx, d: DropRow) {
  const entries = await entriesOf(tx, d.id, ["entered"]);
  const byUser = new Map(entries.map((e) => [e.userId, e]));
  const order = shuffle(d.seed, d.id, [...byUser.keys()]);
  await setPositions(
    tx,
    order.map((o, i) => ({ id: byUser.get(o.userId)!.id, position: i + 1 })),
  );
  let left = d.quantity - d.soldCount;
  let sold = 0;
  for (const o of order) {
    const e = byUser.get(o.userId)!;
    await lockUser(tx, e.userId);
    let code: string | null = null;
    if (left > 0) {
      const n = Math.min(e.quantity, left);
      code = await ineligibility(tx, e.userId, n * d.price);
      if (!code) {
        const was = await settleEntry(tx, e.id, "entered", { status: "won", won: n });
        if (!was) continue;
        await insertDropPurchases(tx, {
          ids: Array.from({ length: n }, () => uuidv7()),
          entryId: e.id,
          userId: e.userId,
          packId: d.packId,
          price: d.price,
          currency: d.currency,
        });
        await refund(tx, d, e.userId, e.id, was.held - n * d.price);
        left -= n;
        sold += n;
        continue;
      }
    }
    const was = await settleEntry(tx, e.id, "entered", { status: "lost", ineligibleCode: code });
    if (was) await refund(tx, d, e.userId, e.id, was.held);
  }
  await markOrdered(tx, d.id, { sold });
}

/** The waiting room's order at opensAt: every fan waiting gets their position in the shuffled order. */
async function orderQueue(tx: DbTx, d: DropRow) {
  const entries = await entriesOf(tx, d.id, ["waiting"]);
  const byUser = new Map(entries.map((e) => [e.userId, e]));
  const order = shuffle(d.seed, d.id, [...byUser.keys()]);
  await setPositions(
    tx,
    order.map((o, i) => ({ id: byUser.get(o.userId)!.id, position: i + 1 })),
  );
  await markOrdered(tx, d.id, { orderedCount: order.length });
}

const isDue = (d: DropRow) => !d.orderedAt && d.now.getTime() >= (d.mode === "draw" ? d.closesAt : d.opensAt).getTime();

/** Orders a drop the caller holds FOR UPDATE, when due. */
export async function orderLocked(tx: DbTx, d: DropRow): Promise<boolean> {
  if (!isDue(d)) return false;
  if (d.mode === "draw") await runDraw(tx, d);
  else await orderQueue(tx, d);
  return true;
}

/** The first read after the time: orders the drop unless another request or the cron is doing it (SKIP LOCKED). */
export async function orderIfDue(db: Db, d: DropRow): Promise<boolean> {
  if (!isDue(d) || (await packsPaused())) return false;
  return db.$transaction(async (tx) => {
    const locked = await lockDrop(tx, d.id, "update", true);
    return locked ? orderLocked(tx, locked) : false;
  }, txOptions(DRAW_TX_MS));
}

/**
 * GET /api/cron/drops: every drop whose order is due, one transaction each, until none is left or the budget is spent.
 * Nothing while packs are paused for everyone (`packsPaused: true`).
 */
export async function runDropsCron(db: Db) {
  const started = Date.now();
  let drawn = 0;
  let queuesOrdered = 0;
  if (await packsPaused()) return { drawn, queuesOrdered, packsPaused: true };
  while (Date.now() - started < CRON_BUDGET_MS) {
    const mode = await db.$transaction(async (tx) => {
      const d = await claimDueDrop(tx);
      if (!d) return null;
      await orderLocked(tx, d);
      return d.mode;
    }, txOptions(DRAW_TX_MS));
    if (!mode) break;
    if (mode === "draw") drawn++;
    else queuesOrdered++;
  }
  return { drawn, queuesOrdered, packsPaused: false };
}
