import { createHash, createHmac, randomBytes } from "node:crypto";

// Verifiable pack openings. The server commits to a secret seed by publishing its SHA-256 (GET /api/v1/packs/seeds)
// before the seed draws anything, and reveals the seed when it retires it. Draw `index` of an opening is
//
//   digest = HMAC-SHA256(key = the seed's 32 bytes, message = "<purchaseId>:<nonce>:<index>")
//   roll   = the digest's first 6 bytes as an unsigned big-endian integer, mod 10,000
//   rarity = the first rarity, in the order common, rare, epic, legendary, whose cumulative weight (basis points of
//            the odds table) is greater than roll
//   pick   = the digest's next 6 bytes, mod the size of that rarity's pool in the odds table
//
// and the card is pool[rarity][pick]. When that card's edition is sold out the next card of the pool that still has
// copies is taken (recorded as the draw's cardIndex); a rarity with no copies left falls back to the next lower
// rarity. Every opening records the seed, nonce and odds-table version, so anyone can recompute every roll and pick
// once the seed is revealed. This file is the whole algorithm; verifyDraw() is what a third party would run.

export const RARITY_ORDER = ["common", "rare", "epic", "legendary"] as const;
export type Rarity = (typeof RARITY_ORDER)[number];
export type Weights = Record<Rarity, number>;
export const WEIGHT_TOTAL = 10_000;

export const newSeed = () => randomBytes(32).toString("hex");
export const seedHashOf = (seedHex: string) => createHash("sha256").update(Buffer.from(seedHex, "hex")).digest("hex");

export function drawDigest(seedHex: string, purchaseId: string, nonce: number, index: number): Buffer {
  return createHmac("sha256", Buffer.from(seedHex, "hex")).update(`${purchaseId}:${nonce}:${index}`).digest();
}

export function rarityOf(roll: number, weights: Weights): Rarity {
  let cumulative = 0;
  for (const r of RARITY_ORDER) {
    cumulative += weights[r];
    if (roll < cumulative) return r;
  }
  return RARITY_ORDER[RARITY_ORDER.length - 1]!;
}

/** The roll, rarity and pool index of one draw. */
export function draw(seedHex: string, purchaseId: string, nonce: number, index: number, weights: Weights, poolSizes: Record<Rarity, number>) {
  const digest = drawDigest(seedHex, purchaseId, nonce, index);
  const roll = digest.readUIntBE(0, 6) % WEIGHT_TOTAL;
  const rarity = rarityOf(roll, weights);
  const pick = poolSizes[rarity] > 0 ? digest.readUIntBE(6, 6) % poolSizes[rarity] : 0;
  return { roll, rarity, pick };
}

/** Whether a recorded draw follows from a revealed seed (the pick a sold-out card moved on from included). */
export function verifyDraw(
  seedHex: string,
  opening: { purchaseId: string; nonce: number; weights: Weights; pool: Record<Rarity, string[]> },
  recorded: { index: number; roll: number; rarity: Rarity; pick: number },
): boolean {
  const sizes = Object.fromEntries(RARITY_ORDER.map((r) => [r, opening.pool[r]?.length ?? 0])) as Record<Rarity, number>;
  const d = draw(seedHex, opening.purchaseId, opening.nonce, recorded.index, opening.weights, sizes);
  return d.roll === recorded.roll && d.rarity === recorded.rarity && d.pick === recorded.pick;
}
