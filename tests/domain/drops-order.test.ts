import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newSeed, orderKey, seedHashOf, shuffle, verifyOrder } from "../../lib/features/drops/order";

// The drops' committed order (lib/features/drops/order.ts), recomputed here from first principles as a third party would.

const DROP = "0190a0b0-c0d0-7000-8000-000000000001";
const users = Array.from({ length: 50 }, (_, i) => `0190a0b0-c0d0-7000-8000-${String(i).padStart(12, "0")}`);

describe("drop order", () => {
  it("is the entrants sorted by HMAC-SHA256(seed, '<dropId>:<userId>'), committed by SHA-256(seed)", () => {
    const seed = newSeed();
    expect(seedHashOf(seed)).toBe(createHash("sha256").update(Buffer.from(seed, "hex")).digest("hex"));
    const order = shuffle(seed, DROP, users);
    const byHand = users
      .map((u) => ({ u, k: createHmac("sha256", Buffer.from(seed, "hex")).update(`${DROP}:${u}`).digest("hex") }))
      .sort((a, b) => (a.k < b.k ? -1 : 1))
      .map((x) => x.u);
    expect(order.map((o) => o.userId)).toEqual(byHand);
    expect(order[0]!.key).toBe(orderKey(seed, DROP, order[0]!.userId));
    expect(verifyOrder(seed, seedHashOf(seed), DROP, byHand)).toBe(true);
  });

  it("does not depend on the entrants' arrival order, and each seed gives another order", () => {
    const seed = newSeed();
    const reversed = shuffle(seed, DROP, [...users].reverse()).map((o) => o.userId);
    expect(reversed).toEqual(shuffle(seed, DROP, users).map((o) => o.userId));
    expect(shuffle(newSeed(), DROP, users).map((o) => o.userId)).not.toEqual(reversed);
    // Another drop with the same seed orders differently too.
    expect(shuffle(seed, "0190a0b0-c0d0-7000-8000-000000000002", users).map((o) => o.userId)).not.toEqual(reversed);
  });

  it("verifyOrder refuses another seed, a wrong hash and a swapped pair; a subset keeps its relative order", () => {
    const seed = newSeed();
    const order = shuffle(seed, DROP, users).map((o) => o.userId);
    expect(verifyOrder(newSeed(), seedHashOf(seed), DROP, order)).toBe(false);
    expect(verifyOrder(seed, seedHashOf(newSeed()), DROP, order)).toBe(false);
    const swapped = [order[1]!, order[0]!, ...order.slice(2)];
    expect(verifyOrder(seed, seedHashOf(seed), DROP, swapped)).toBe(false);
    expect(verifyOrder(seed, seedHashOf(seed), DROP, order.slice(1))).toBe(true); // a subset keeps its relative order
  });
});
