import { createHmac } from "node:crypto";
import { newSeed, seedHashOf } from "../packs/service";

// The verifiable order of a drop. At creation the server draws a secret 32-byte seed and publishes its SHA-256
// (seedHash, as pack openings do: lib/features/packs/draw.ts). Once the order is fixed (the draw at closesAt, or the waiting
// room's positions at opensAt) the seed is revealed, and anyone can recompute the order:
//
//   key(userId) = HMAC-SHA256(key = the seed's 32 bytes, message = "<dropId>:<userId>"), as lower-case hex
//   order       = the entrants sorted by key ascending (ties, which SHA-256 makes impossible in practice, by userId)
//
// A user's key depends only on the seed, the drop and their id, so neither the time of entry nor the other entrants
// change anyone's relative place. This file is the whole algorithm; verifyOrder() is what a third party would run.

export { newSeed, seedHashOf };

export const orderKey = (seedHex: string, dropId: string, userId: string) =>
  createHmac("sha256", Buffer.from(seedHex, "hex")).update(`${dropId}:${userId}`).digest("hex");

/** The entrants' user ids in drawn order, each with its key. */
export function shuffle(seedHex: string, dropId: string, userIds: readonly string[]) {
  return userIds
    .map((userId) => ({ userId, key: orderKey(seedHex, dropId, userId) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

/** Whether `seedHex` is the committed seed and `orderedUserIds` is the order it gives for those entrants. */
export function verifyOrder(seedHex: string, seedHash: string, dropId: string, orderedUserIds: readonly string[]): boolean {
  if (seedHashOf(seedHex) !== seedHash) return false;
  const expected = shuffle(seedHex, dropId, orderedUserIds).map((e) => e.userId);
  return expected.length === orderedUserIds.length && expected.every((id, i) => id === orderedUserIds[i]);
}
