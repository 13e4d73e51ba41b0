import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw } from "../../db/raw";
import type { ShippingAddressView } from "../shipping/service";
import type { FulfilmentKind, FulfilmentStatus } from "./queries";

// Writes of rewards: the stock a redeem or a claim takes, and a claim's fulfilment (the voucher code, the shipment,
// staff's moves and the refund), each in the caller's transaction.

/** Takes one item of the reward's stock when it is active and has one left (a conditional UPDATE); none otherwise. */
export async function takeRewardStock(tx: DbTx, rewardId: string): Promise<{ stock: number | null } | undefined> {
  const [left] = await tx.$queryRaw<{ stock: number | null }[]>`
    UPDATE rewards SET stock = stock - 1 WHERE id = ${rewardId} AND active AND (stock IS NULL OR stock > 0) RETURNING stock`;
  return left;
}

/**
 * Gives the claim one free code of the reward's pool (SKIP LOCKED: concurrent redeemers take different codes, none
 * waits), answering it; none when the pool is empty.
 */
export async function assignVoucherCode(tx: DbTx, claimId: string, rewardId: string): Promise<{ code: string } | undefined> {
  const [code] = await raw(tx).$queryRaw<{ code: string }[]>`
    UPDATE reward_voucher_codes SET claim_id = ${claimId}::uuid, assigned_at = now()
    WHERE id = (SELECT id FROM reward_voucher_codes WHERE reward_id = ${rewardId} AND claim_id IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING code`;
  return code;
}

/** A physical claim starts pending, with its copy of the shipping address. */
export async function startShipment(tx: DbTx, claimId: string, address: ShippingAddressView | null): Promise<void> {
  await raw(tx).$executeRaw`
    UPDATE reward_claims SET fulfilment_status = 'pending', shipping_address = ${JSON.stringify(address)}::jsonb, fulfilment_updated_at = now()
    WHERE id = ${claimId}::uuid`;
}

/** Moves a claim's fulfilment: its tracking code replaced unless `tracking` is undefined, its note unless null. */
export async function setClaimFulfilment(
  tx: DbTx,
  claimId: string,
  m: { status: FulfilmentStatus; tracking: string | null | undefined; note: string | null },
): Promise<void> {
  await raw(tx).$executeRaw`
    UPDATE reward_claims SET fulfilment_status = ${m.status}, fulfilment_updated_at = now(),
           tracking_code = ${m.tracking === undefined ? Prisma.sql`tracking_code` : Prisma.sql`${m.tracking}`},
           fulfilment_note = COALESCE(${m.note}, fulfilment_note)
    WHERE id = ${claimId}::uuid`;
}

/** Gives back one item of the reward's stock, when it counts stock. Answers the rows changed (0 or 1). */
export function restockReward(tx: DbTx, rewardId: string): Promise<number> {
  return raw(tx).$executeRaw`UPDATE rewards SET stock = stock + 1 WHERE id = ${rewardId} AND stock IS NOT NULL`;
}

/** Records the claim's refund, with the Rep entry that gave it back (null when it cost nothing). */
export async function markClaimRefunded(tx: DbTx, claimId: string, refundEntryId: string | null): Promise<void> {
  await raw(tx).$executeRaw`
    UPDATE reward_claims SET refunded_at = now(), refund_entry_id = ${refundEntryId}::uuid WHERE id = ${claimId}::uuid`;
}

/** Adds codes to the reward's voucher pool, skipping those it holds. Answers how many were added. */
export function insertVoucherCodes(tx: DbTx, rewardId: string, codes: string[]): Promise<number> {
  return raw(tx).$executeRaw`
    INSERT INTO reward_voucher_codes (id, reward_id, code)
    SELECT ${UUIDV7_SQL}, ${rewardId}, c FROM unnest(${codes}::text[]) AS c
    ON CONFLICT (reward_id, code) DO NOTHING`;
}

/** Sets how the reward's future claims are fulfilled. */
export async function setFulfilment(tx: DbTx, rewardId: string, fulfilment: FulfilmentKind): Promise<void> {
  await raw(tx).$executeRaw`UPDATE rewards SET fulfilment = ${fulfilment}, updated_at = now() WHERE id = ${rewardId}`;
}
