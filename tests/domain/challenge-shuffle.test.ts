import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { challengeSeedHash, newChallengeSeed, rewardOrder, rewardSerialOf, verifyRewardSerials } from "../../lib/features/challenges/shuffle";

// The committed order of a challenge's reward serials (lib/features/challenges/shuffle.ts): a seeded Fisher–Yates shuffle
// anyone can recompute once the seed is revealed.

const seed = "7f".repeat(32);
const id = "0192f0a0-0000-7000-8000-000000000001";

describe("reward serial order", () => {
  it("is a permutation of 0..supply-1, the same for the same seed and challenge, another for another", () => {
    const order = rewardOrder(seed, id, 500);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(rewardOrder(seed, id, 500)).toEqual(order);
    expect(rewardOrder(seed, "0192f0a0-0000-7000-8000-000000000002", 500)).not.toEqual(order);
    expect(rewardOrder("80".repeat(32), id, 500)).not.toEqual(order);
    expect(order).not.toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(rewardOrder(seed, id, 1)).toEqual([0]);
    expect(rewardOrder(seed, id, 0)).toEqual([]);
  });

  it("follows the documented algorithm step by step", () => {
    const supply = 7;
    const order = Array.from({ length: supply }, (_, i) => i);
    for (let i = supply - 1; i >= 1; i--) {
      const j = createHmac("sha256", Buffer.from(seed, "hex")).update(`${id}:${i}`).digest().readUIntBE(0, 6) % (i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    expect(rewardOrder(seed, id, supply)).toEqual(order);
  });

  it("gives rank k serial firstSerial + order[k-1], none past the supply", () => {
    const c = { id, seed, rewardSupply: 10, firstSerial: 41 };
    const order = rewardOrder(seed, id, 10);
    for (let k = 1; k <= 10; k++) expect(rewardSerialOf(c, k)).toBe(41 + order[k - 1]!);
    expect(rewardSerialOf(c, 11)).toBeNull();
    expect(rewardSerialOf(c, 0)).toBeNull();
  });

  it("verifies against the published hash: the right serials pass, a swapped pair or another seed fails", () => {
    const s = newChallengeSeed();
    const challenge = { id, seedHash: challengeSeedHash(s), firstSerial: 1, rewardSupply: 5 };
    const given = [1, 2, 3, 4, 5, 6].map((rank) => ({ rank, serial: rewardSerialOf({ id, seed: s, rewardSupply: 5, firstSerial: 1 }, rank) }));
    expect(given[5]!.serial).toBeNull();
    expect(verifyRewardSerials(s, challenge, given)).toBe(true);
    const swapped = given.map((g, i) => (i === 0 ? { ...g, serial: given[1]!.serial } : i === 1 ? { ...g, serial: given[0]!.serial } : g));
    expect(verifyRewardSerials(s, challenge, swapped)).toBe(false);
    expect(verifyRewardSerials(newChallengeSeed(), challenge, given)).toBe(false);
    expect(verifyRewardSerials("not hex", challenge, given)).toBe(false);
  });
});
