import type { DbTx } from "../../db/client";
import { raw } from "../../db/raw";

// The staff console's own statements (service.ts); most of its writes are Prisma model calls there.

/**
 * Adds `delta` to a limited stock in one conditional UPDATE, never below 0, answering the new stock; undefined when
 * the reward is missing, its stock unlimited, or the change would pass 0.
 */
export async function addToRewardStock(tx: DbTx, rewardId: string, delta: number): Promise<{ stock: number } | undefined> {
  const rows = await raw(tx).$queryRaw<{ stock: number }[]>`
      UPDATE rewards SET stock = stock + ${delta}, updated_at = now() WHERE id = ${rewardId} AND stock IS NOT NULL AND stock + ${delta} >= 0 RETURNING stock`;
  return rows[0];
}
