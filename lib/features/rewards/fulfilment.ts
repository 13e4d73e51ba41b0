import type { Db, DbTx } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeIdCursor, encodeIdCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { refundSpending } from "../../core/rep/service";
import { REWARD_REFUND } from "../../core/rep/service";
import { getShippingAddress, type ShippingAddressView } from "../shipping/service";
import { fulfilmentErrors } from "./errors";
import {
  claimById,
  claimsInStatus,
  claimsOf,
  freeVoucherCodes,
  lockClaim,
  lockRewardFulfilment,
  type ClaimRow,
  type FulfilmentKind,
  type FulfilmentStatus,
} from "./queries";
import { assignVoucherCode, insertVoucherCodes, markClaimRefunded, restockReward, setClaimFulfilment, setFulfilment, startShipment } from "./writes";

// Reward fulfilment (docs/domains/rewards.md#fulfilment). A reward's `fulfilment` says how a claim of it is
// delivered: none / digital (nothing to ship: the claim is `fulfilled` at once), voucher (a code from the reward's
// pool, given in the redeem's transaction: UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED), so each code goes
// to exactly one claim; an empty pool refuses the redeem with 409 VOUCHER_POOL_EMPTY and nothing is written), or
// physical (the caller's shipping address is copied onto the claim, else 409 SHIPPING_ADDRESS_REQUIRED; staff move it
// pending → shipped → delivered, or to failed). A failed claim gives back its stock and Rep once: one transaction in
// the project's lock order (the owner's user row, then the claim, then the reward's row), the Rep through
// lib/core/rep's refundSpending under the grant key reward_refund:<claimId>, so N concurrent "fail" actions refund once.

const addressRequired = () =>
  new DomainError(fulfilmentErrors.SHIPPING_ADDRESS_REQUIRED, "This reward is shipped: set your shipping address (PUT /api/v1/me/shipping-address) first.");
const poolEmpty = () =>
  new DomainError(fulfilmentErrors.VOUCHER_POOL_EMPTY, "This reward has no voucher codes left right now; nothing was spent. Try again later.");

/** Before anything is written: what the claim will need. A physical reward needs the caller's address (the copy made now). */
export async function prepareFulfilment(tx: DbTx, userId: string, reward: { fulfilment: string }): Promise<ShippingAddressView | null> {
  if (reward.fulfilment !== "physical") return null;
  const address = await getShippingAddress(tx, userId);
  if (!address) throw addressRequired();
  return address;
}

/**
 * In the claim's transaction, after the claim row is written: a voucher reward takes one free code of its pool
 * (SKIP LOCKED: concurrent redeemers take different codes, none waits; an empty pool throws VOUCHER_POOL_EMPTY and the
 * whole redeem rolls back); a physical one stores the address and starts pending.
 */
export async function fulfil(tx: DbTx, claimId: string, reward: { id: string; fulfilment: string }, address: ShippingAddressView | null): Promise<void> {
  if (reward.fulfilment === "voucher") {
    const code = await assignVoucherCode(tx, claimId, reward.id);
    if (!code) throw poolEmpty();
  } else if (reward.fulfilment === "physical") {
    await startShipment(tx, claimId, address);
  }
}

/** A claim as its owner sees it: the voucher code included (only ever answered to the owner). */
export const toClaimView = (c: ClaimRow, viewer: "owner" | "staff" = "owner") => ({
  id: c.id,
  rewardId: c.rewardId,
  rewardTitle: c.rewardTitle,
  kind: c.kind,
  costRep: c.costRep,
  repEntryId: c.repEntryId,
  claimedAt: c.claimedAt.toISOString(),
  fulfilment: {
    kind: c.fulfilment,
    status: c.status,
    voucherCode: viewer === "owner" ? c.voucherCode : null,
    voucherAssigned: c.voucherCode !== null,
    trackingCode: c.trackingCode,
    shippingAddress: (c.shippingAddress ?? null) as Record<string, string | null> | null,
    updatedAt: c.updatedAt?.toISOString() ?? null,
    refundedAt: c.refundedAt?.toISOString() ?? null,
    refundEntryId: c.refundEntryId,
  },
});

export const toStaffClaimView = (c: ClaimRow) => ({ ...toClaimView(c, "staff"), userId: c.userId, note: c.note });

/** GET /api/rewards/claims: the caller's claims, newest first (keyset on the UUIDv7 id, index (user_id, id DESC)). */
export async function myClaims(db: DbTx, userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeIdCursor(cursor) : undefined;
  const rows = await claimsOf(db, userId, after, limit + 1);
  return keysetPage(
    "claims",
    rows,
    limit,
    (last) => encodeIdCursor(last.id),
    (r) => toClaimView(r),
  );
}

/** GET /api/rewards/claims/{claimId}: 404 for an unknown claim and for another fan's (never saying which). */
export async function myClaim(db: DbTx, userId: string, claimId: string) {
  const row = await claimById(db, claimId);
  if (!row || row.userId !== userId) throw notFound("Claim");
  return toClaimView(row);
}

/** GET /api/admin/rewards/claims: claims in one fulfilment status, oldest first (the queue; index (fulfilment_status, id)). */
export async function staffClaims(db: DbTx, { status, cursor, limit }: { status: FulfilmentStatus; cursor?: string; limit: number }) {
  const after = cursor ? decodeIdCursor(cursor) : undefined;
  const rows = await claimsInStatus(db, status, after, limit + 1);
  return keysetPage("claims", rows, limit, (last) => encodeIdCursor(last.id), toStaffClaimView);
}

export type StaffStatus = "shipped" | "delivered" | "failed";

/** The moves staff may make: physical pending → shipped → delivered, pending or shipped → failed; any fulfilled claim → failed. */
const ALLOWED: Record<FulfilmentStatus, StaffStatus[]> = {
  pending: ["shipped", "failed"],
  shipped: ["delivered", "failed"],
  delivered: [],
  fulfilled: ["failed"],
  failed: [],
};

/**
 * PUT /api/admin/rewards/claims/{claimId}: moves the fulfilment, audited, in one transaction under the owner's row
 * lock (then the claim's, then the reward's). Asking for the status it already has answers it unchanged
 * (`changed: false`), so a retried or concurrent action acts once. `failed` gives back one item of stock (when the
 * reward counts stock) and the claim's Rep (refundSpending, grant key reward_refund:<claimId>), once; a voucher code
 * stays with the claim (it was shown to the fan).
 */
export async function setClaimStatus(
  db: Db,
  claimId: string,
  input: { status: StaffStatus; trackingCode?: string | null; note?: string | null },
  actor: StaffActor,
) {
  const owner = await db.rewardClaim.findUnique({ where: { id: claimId }, select: { userId: true } });
  if (!owner) throw notFound("Claim");
  return db.$transaction(async (tx) => {
    await lockUser(tx, owner.userId);
    const locked = await lockClaim(tx, claimId);
    if (!locked) throw notFound("Claim");
    if (locked.status === input.status) return { claim: toStaffClaimView((await claimById(tx, claimId))!), changed: false };
    if (!ALLOWED[locked.status].includes(input.status)) {
      throw new DomainError(fulfilmentErrors.FULFILMENT_TRANSITION_INVALID, `A ${locked.status} claim cannot be marked ${input.status}.`);
    }
    const tracking = input.status === "shipped" ? (input.trackingCode ?? null) : undefined;
    await setClaimFulfilment(tx, claimId, { status: input.status, tracking, note: input.note ?? null });
    let refund: { stock: boolean; rep: number } | null = null;
    if (input.status === "failed") {
      const restocked = await restockReward(tx, locked.rewardId);
      const given =
        locked.costRep > 0
          ? await refundSpending(tx, owner.userId, {
              earnKind: REWARD_REFUND,
              amount: locked.costRep,
              source: "serviceDirect",
              reason: "Refund: reward could not be delivered",
              grantKey: `${REWARD_REFUND}:${claimId}`,
              targetId: locked.rewardId,
            })
          : null;
      await markClaimRefunded(tx, claimId, given?.entry.id ?? null);
      refund = { stock: restocked > 0, rep: given ? locked.costRep : 0 };
    }
    await recordAudit(tx, actor, {
      action: `reward_claim.${input.status}`,
      targetType: "reward_claim",
      targetId: claimId,
      before: { status: locked.status },
      after: { status: input.status, ...(tracking !== undefined ? { trackingCode: tracking } : {}), ...(refund ? { refund } : {}) },
      note: input.note ?? undefined,
    });
    return { claim: toStaffClaimView((await claimById(tx, claimId))!), changed: true };
  }, txOptions());
}

/** Adds codes to a voucher reward's pool (duplicates of the pool skipped), audited. Answers how many were added and how many are free now. */
export async function addVoucherCodes(db: Db, rewardId: string, codes: string[], actor: StaffActor) {
  return db.$transaction(async (tx) => {
    const reward = await lockRewardFulfilment(tx, rewardId);
    if (!reward) throw notFound("Reward");
    if (reward.fulfilment !== "voucher") {
      throw new DomainError(fulfilmentErrors.FULFILMENT_TRANSITION_INVALID, "Voucher codes can only be added to a reward whose fulfilment is voucher.");
    }
    const unique = [...new Set(codes)];
    const added = await insertVoucherCodes(tx, rewardId, unique);
    const available = await freeVoucherCodes(tx, rewardId);
    await recordAudit(tx, actor, { action: "reward.voucher_codes_added", targetType: "reward", targetId: rewardId, after: { added, available } });
    return { rewardId, added, skipped: codes.length - added, available };
  }, txOptions());
}

/** Sets how a reward's future claims are fulfilled (claims already made keep theirs), audited. */
export async function setRewardFulfilment(db: Db, rewardId: string, fulfilment: FulfilmentKind, actor: StaffActor) {
  return db.$transaction(async (tx) => {
    const before = await lockRewardFulfilment(tx, rewardId);
    if (!before) throw notFound("Reward");
    await setFulfilment(tx, rewardId, fulfilment);
    await recordAudit(tx, actor, { action: "reward.fulfilment_set", targetType: "reward", targetId: rewardId, before, after: { fulfilment } });
    return { rewardId, fulfilment };
  }, txOptions());
}
