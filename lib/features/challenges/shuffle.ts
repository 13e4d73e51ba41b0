import { createHash, createHmac, randomBytes } from "node:crypto";

// The committed order of a challenge's reward serials. At creation the server draws a secret 32-byte seed and shows
// its SHA-256 on the challenge from the start; it shows the seed once the challenge has ended. The reward copies are
// serials firstSerial .. firstSerial + supply - 1 (taken from the card's edition at creation), and the collector whose
// completion is the k-th (rank k, 1-based, in commit order) gets serial firstSerial + order[k - 1], where `order` is
// a Fisher–Yates shuffle of 0 .. supply - 1:
//
//   order = [0, 1, …, supply - 1]
//   for i = supply - 1 down to 1:
//     digest = HMAC-SHA256(key = the seed's 32 bytes, message = "<challengeId>:<i>")
//     j      = the digest's first 6 bytes as an unsigned big-endian integer, mod (i + 1)
//     swap order[i] and order[j]
//
// Ranks past the supply get no copy. Nobody can know which serial a completion will get before the end (the seed is
// secret), and the server cannot choose it (the seed is fixed by its published hash). This file is the whole algorithm;
// verifyRewardSerials() is what a third party would run.

export const newChallengeSeed = () => randomBytes(32).toString("hex");
export const challengeSeedHash = (seedHex: string) => createHash("sha256").update(Buffer.from(seedHex, "hex")).digest("hex");

/** The shuffle: order[k - 1] is the offset from firstSerial of rank k's serial. */
export function rewardOrder(seedHex: string, challengeId: string, supply: number): number[] {
  const key = Buffer.from(seedHex, "hex");
  const order = Array.from({ length: supply }, (_, i) => i);
  for (let i = supply - 1; i >= 1; i--) {
    const j = createHmac("sha256", key).update(`${challengeId}:${i}`).digest().readUIntBE(0, 6) % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

// Completions read the order once per challenge and process (a supply of 10,000 is about 10,000 HMACs).
const cache = new Map<string, number[]>();
export function rewardSerialOf(c: { id: string; seed: string; rewardSupply: number; firstSerial: number }, rank: number): number | null {
  if (rank < 1 || rank > c.rewardSupply) return null;
  const key = `${c.id}:${c.seed}:${c.rewardSupply}`;
  let order = cache.get(key);
  if (!order) {
    order = rewardOrder(c.seed, c.id, c.rewardSupply);
    if (cache.size >= 32) cache.delete(cache.keys().next().value!);
    cache.set(key, order);
  }
  return c.firstSerial + order[rank - 1]!;
}

/**
 * Whether the rewards given follow from the revealed seed: the seed matches the hash published from the start, and
 * each (rank, serial) given is the shuffle's (a rank past the supply has no serial).
 */
export function verifyRewardSerials(
  seedHex: string,
  challenge: { id: string; seedHash: string; firstSerial: number; rewardSupply: number },
  rewards: { rank: number; serial: number | null }[],
): boolean {
  if (!/^[0-9a-f]{64}$/.test(seedHex) || challengeSeedHash(seedHex) !== challenge.seedHash) return false;
  const order = rewardOrder(seedHex, challenge.id, challenge.rewardSupply);
  return rewards.every((r) => (r.rank > challenge.rewardSupply ? r.serial === null : r.serial === challenge.firstSerial + order[r.rank - 1]!));
}
