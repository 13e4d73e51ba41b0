import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import type { RawDb } from "../../db/raw";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { collectiblesOfPurchases, insertDrawn, takeSerial, type NewCollectible } from "../../core/collectibles/service";
import { toCollectible } from "../../core/collectibles/service";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { DomainError, notFound } from "../../kernel/errors";
import { idempotent, type IdempotencyKey } from "../../db/idempotency";
import { keysetPage } from "../../kernel/page";
import { pay } from "../../core/wallets/service";
import { DECIMALS } from "../../core/wallets/schemas";
import { assertMayTrade } from "../moderation/service";
import { assertPackSalesAllowed, assertWithinLimits } from "../spending/service";
import { draw, newSeed, RARITY_ORDER, seedHashOf, type Rarity } from "./draw";
import {
  activePacks,
  activeSeed,
  insertActiveSeed,
  insertOpening,
  insertPurchase,
  lockActivePack,
  lockPurchase,
  nextNonce,
  oddsTable,
  packById,
  purchaseOf,
  purchasesOf,
  retireActiveSeed,
  seedsPage,
  setPackStock,
  takePack,
  type Draw,
  type PackRow,
  type PurchaseRow,
  type SeedRow,
} from "./queries";
import { errors as packsErrors } from "./errors";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { newSeed, seedHashOf } from "./draw";
export { packById } from "./queries";

// Packs: the catalog with its published odds, buying (wallet debit and stock in one transaction, Stripe-style
// idempotency), opening (verifiable draws, lib/features/packs/draw.ts; once per purchase) and the draw seeds.

const onSale = (p: PackRow, now = Date.now()) =>
  p.active &&
  !p.isFreeStarter &&
  (p.stock === null || p.soldCount < p.stock) &&
  (!p.saleStartsAt || p.saleStartsAt.getTime() <= now) &&
  (!p.saleEndsAt || p.saleEndsAt.getTime() > now);

export const toPack = (p: PackRow) => ({
  id: p.id,
  slug: p.slug,
  name: p.name,
  description: p.description,
  price: p.price,
  currency: p.currency,
  decimals: DECIMALS[p.currency],
  itemsPerPack: p.itemsPerPack,
  stock: p.stock,
  remaining: p.stock === null ? null : Math.max(0, p.stock - p.soldCount),
  saleStartsAt: p.saleStartsAt?.toISOString() ?? null,
  saleEndsAt: p.saleEndsAt?.toISOString() ?? null,
  onSale: onSale(p),
  grantOnly: p.isFreeStarter,
  odds: {
    version: p.oddsVersion,
    rarities: RARITY_ORDER.map((rarity) => ({ rarity, weight: p.weights[rarity], percent: p.weights[rarity] / 100, cards: p.poolSizes[rarity] ?? 0 })),
  },
});

export async function listPacks(db: RawDb | DbTx) {
  return { packs: (await activePacks(db)).map(toPack) };
}

export async function getPack(db: RawDb | DbTx, packId: string) {
  const p = await packById(db, packId);
  if (!p) throw notFound("Pack");
  return toPack(p);
}

export async function getOddsTable(db: RawDb | DbTx, packId: string, version: number) {
  const t = await oddsTable(db, packId, version);
  if (!t) throw notFound("Odds table");
  return { ...t, createdAt: t.createdAt.toISOString() };
}

/** Purchases as answered, their openings' collectibles read in one statement. */
async function toPurchases(db: RawDb | DbTx, rows: PurchaseRow[]) {
  const opened = rows.filter((p) => p.draws).map((p) => p.id);
  const items = new Map((opened.length ? await collectiblesOfPurchases(db, opened) : []).map((c) => [c.id, toCollectible(c)]));
  return rows.map((p) => ({
    id: p.id,
    pack: { id: p.packId, slug: p.packSlug, name: p.packName },
    source: p.source,
    price: p.price,
    currency: p.currency,
    createdAt: p.createdAt.toISOString(),
    openedAt: p.openedAt?.toISOString() ?? null,
    opening: p.draws
      ? {
          seedHash: p.seedHash!,
          seed: p.seedRevealed,
          nonce: p.nonce!,
          oddsVersion: p.openedOddsVersion!,
          draws: p.draws.map((d) => ({
            index: d.index,
            roll: d.roll,
            rarity: d.rarity,
            pick: d.pick,
            cardRarity: d.cardRarity,
            cardIndex: d.cardIndex,
            collectible: items.get(d.collectibleId)!,
          })),
        }
      : null,
  }));
}

async function onePurchase(db: RawDb | DbTx, userId: string, purchaseId: string) {
  const p = await purchaseOf(db, userId, purchaseId);
  if (!p) throw notFound("Purchase");
  const [purchase] = await toPurchases(db, [p]);
  return { purchase: purchase! };
}

/**
 * Buys a pack: takes it from stock, records the purchase and debits its price, in one transaction, once per
 * Idempotency-Key (lib/http/idempotency.ts). Refusals write nothing: unknown or inactive 404, PACK_NOT_FOR_SALE,
 * SOLD_OUT, the trading gate (TRADING_RESTRICTED, ACCOUNT_DELETION_PENDING, WALLET_FROZEN: assertMayTrade),
 * REGION_RESTRICTED and SPENDING_LIMIT_REACHED (lib/features/spending), INSUFFICIENT_FUNDS.
 */
export async function buyPack(db: Db, userId: string, packId: string, idempotency: IdempotencyKey, country: string | null = null) {
  await assertMayTrade(db, userId);
  await assertPackSalesAllowed(db, userId, country);
  return idempotent(db, { userId, ...idempotency, request: { packId } }, async (tx) => {
    const taken = await takePack(tx, packId);
    if (!taken) {
      const p = await packById(tx, packId);
      if (!p) throw notFound("Pack");
      if (p.stock !== null && p.soldCount >= p.stock) throw new DomainError(packsErrors.SOLD_OUT, `${p.name} is sold out.`);
      throw new DomainError(
        packsErrors.PACK_NOT_FOR_SALE,
        p.isFreeStarter ? `${p.name} is granted at onboarding, never sold.` : `${p.name} is not on sale now.`,
      );
    }
    await assertWithinLimits(tx, userId, "packs", taken.price);
    const id = uuidv7();
    await insertPurchase(tx, { id, userId, packId, price: taken.price, currency: taken.currency });
    if (taken.price > 0) {
      await pay(tx, { userId, currency: taken.currency, amount: taken.price, reason: "purchase", referenceType: "pack_purchase", referenceId: id });
    }
    return onePurchase(tx, userId, id);
  });
}

export const getPurchase = onePurchase;

export async function listPurchases(db: RawDb | DbTx, userId: string, q: { unopened?: boolean; cursor?: string; limit: number }) {
  const rows = await purchasesOf(db, userId, { unopened: q.unopened, before: q.cursor ? decodeIdCursor(q.cursor) : undefined, take: q.limit + 1 });
  const shown = await toPurchases(db, rows.slice(0, q.limit));
  return keysetPage(
    "purchases",
    rows,
    q.limit,
    (r) => encodeIdCursor(r.id),
    (r) => shown[rows.indexOf(r)]!,
  );
}

/** The seed in use, created on first need (concurrent first needs agree on one: the unique active slot). */
async function currentSeed(db: RawDb | DbTx): Promise<SeedRow> {
  const found = await activeSeed(db);
  if (found) return found;
  const seed = newSeed();
  await insertActiveSeed(db, { id: uuidv7(), seed, seedHash: seedHashOf(seed) });
  return (await activeSeed(db))!;
}

/**
 * Opens the caller's purchase once: under the purchase's row lock, draws every item from the active seed (the
 * algorithm in draw.ts) against the pack's current odds table, takes each card's next serial, and records the
 * opening. Opening it again answers the same result.
 */
export async function openPurchase(db: Db, userId: string, purchaseId: string) {
  await currentSeed(db);
  return db.$transaction(async (tx) => {
    if (!(await lockPurchase(tx, userId, purchaseId))) throw notFound("Purchase");
    const p = (await purchaseOf(tx, userId, purchaseId))!;
    if (!p.draws) {
      // Shared lock: a rotation (which reveals this seed) waits until the opening has committed.
      const seed = (await activeSeed(tx, { share: true }))!;
      const table = (await oddsTable(tx, p.packId, p.oddsVersion))!;
      const sizes = Object.fromEntries(RARITY_ORDER.map((r) => [r, table.pool[r]?.length ?? 0])) as Record<Rarity, number>;
      const nonce = await nextNonce(tx);
      const draws: Draw[] = [];
      const items: NewCollectible[] = [];
      for (let index = 0; index < p.itemsPerPack; index++) {
        const d = draw(seed.seed, purchaseId, nonce, index, table.weights, sizes);
        const taken = await takeCard(tx, table.pool, d.rarity, d.pick);
        if (!taken) break; // every card of the pack is sold out: the pack yields what remains
        const collectibleId = uuidv7();
        draws.push({ index, roll: d.roll, rarity: d.rarity, pick: d.pick, ...taken, collectibleId });
        items.push({ id: collectibleId, cardId: taken.cardId, serial: taken.serial, drawIndex: index });
      }
      if (items.length > 0) await insertDrawn(tx, userId, purchaseId, items);
      await insertOpening(tx, { purchaseId, seedId: seed.id, nonce, oddsVersion: p.oddsVersion, draws });
    }
    return onePurchase(tx, userId, purchaseId);
  });
}

/** pool[rarity][pick], or the next card of that rarity with copies left, or the same from the next lower rarity. */
async function takeCard(tx: DbTx, pool: Record<Rarity, string[]>, rarity: Rarity, pick: number) {
  const from = RARITY_ORDER.indexOf(rarity);
  for (const cardRarity of [...RARITY_ORDER.slice(0, from + 1).reverse(), ...RARITY_ORDER.slice(from + 1)]) {
    const cards = pool[cardRarity] ?? [];
    for (let step = 0; step < cards.length; step++) {
      const cardIndex = cardRarity === rarity ? (pick + step) % cards.length : step;
      const serial = await takeSerial(tx, cards[cardIndex]!);
      if (serial !== undefined) return { cardRarity, cardIndex, cardId: cards[cardIndex]!, serial };
    }
  }
  return undefined;
}

const toSeed = (s: SeedRow) => ({
  id: s.id,
  seedHash: s.seedHash,
  seed: s.retiredAt ? s.seed : null,
  active: s.active,
  createdAt: s.createdAt.toISOString(),
  retiredAt: s.retiredAt?.toISOString() ?? null,
});

export async function listSeeds(db: RawDb | DbTx, q: { cursor?: string; limit: number }) {
  if (!q.cursor) await currentSeed(db);
  const rows = await seedsPage(db, q.cursor ? decodeIdCursor(q.cursor) : undefined, q.limit + 1);
  return keysetPage("seeds", rows, q.limit, (r) => encodeIdCursor(r.id), toSeed);
}

/** Staff set a pack's stock (null: unlimited); below the packs sold is 409 STOCK_BELOW_SOLD. */
export async function setStock(db: Db, actor: StaffActor, packId: string, stock: number | null) {
  await db.$transaction(async (tx) => {
    const before = await lockActivePack(tx, packId);
    if (!before) throw notFound("Pack");
    if (!(await setPackStock(tx, packId, stock)))
      throw new DomainError(packsErrors.STOCK_BELOW_SOLD, `${before.soldCount} packs are sold already: the stock cannot be lower.`);
    if (before.stock !== stock)
      await recordAudit(tx, actor, { action: "pack.stock", targetType: "pack", targetId: packId, before: { stock: before.stock }, after: { stock } });
  });
  return getPack(db, packId);
}

/** Retires the seed in use (revealing it) and puts a new one in use. Openings in flight keep the seed they read. */
export async function rotateSeed(db: Db, actor: StaffActor) {
  return db.$transaction(async (tx) => {
    const retired = await retireActiveSeed(tx);
    const seed = newSeed();
    const id = uuidv7();
    await insertActiveSeed(tx, { id, seed, seedHash: seedHashOf(seed) });
    await recordAudit(tx, actor, {
      action: "pack.seeds_rotate",
      targetType: "draw_seed",
      targetId: id,
      before: retired ? { seedId: retired.id, seedHash: retired.seedHash } : undefined,
      after: { seedId: id, seedHash: seedHashOf(seed) },
    });
    return { retired: retired ? toSeed(retired) : null, active: toSeed((await activeSeed(tx))!) };
  });
}
