import { z } from "zod";
import { cursorQuery, idString, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { pageSchema } from "../../kernel/page";

export const rewardKind = z.enum(["redeem", "milestone"]).meta({
  id: "RewardKind",
  description:
    "redeem: bought with spendable Rep (POST /api/rewards/redeem). milestone: unlocked by a milestone and claimed free, once (POST /api/rewards/claim).",
});

export const milestoneMetric = z.enum(["rep_earned", "quests_completed", "streak_days"]).meta({
  id: "RewardMilestoneMetric",
  description:
    "rep_earned: Rep credited to the caller, ever (the ledger's credits net of staff reversals; spending Rep on rewards does not lower it). quests_completed: quests completed (each daily completion counts). streak_days: the caller's longest daily streak.",
});

export const unavailableReason = z.enum(["insufficient_rep", "out_of_stock", "limit_reached", "milestone_not_reached", "already_claimed"]).meta({
  id: "RewardUnavailableReason",
  description:
    "Why the reward cannot be taken now, the first that applies, in the order the write checks them: redeem rewards out_of_stock, limit_reached, insufficient_rep; milestone rewards already_claimed, milestone_not_reached, out_of_stock. A voucher reward whose pool of codes is empty is out_of_stock too, whatever its stock.",
});

export const milestoneProgress = z
  .object({
    metric: milestoneMetric,
    target: z.number().int().meta({ description: "The value the metric must reach." }),
    progress: z.number().int().meta({ description: "The caller's current value of the metric (may pass the target)." }),
    reached: z.boolean(),
    claimed: z.boolean().meta({ description: "True once the caller claimed this reward." }),
  })
  .meta({ id: "RewardMilestoneProgress" });

export const fulfilmentKind = z.enum(["none", "digital", "voucher", "physical"]).meta({
  id: "RewardFulfilmentKind",
  description:
    "How a claim is delivered. none / digital: nothing to ship (the claim is fulfilled at once). voucher: a code from the reward's pool, shown on the claim to its owner. " +
    "physical: shipped to the caller's shipping address (required at redeem time: 409 SHIPPING_ADDRESS_REQUIRED), staff move it pending → shipped → delivered, or failed.",
});

export const fulfilmentStatus = z.enum(["fulfilled", "pending", "shipped", "delivered", "failed"]).meta({
  id: "RewardFulfilmentStatus",
  description:
    "fulfilled: nothing left to do (none, digital, voucher). pending → shipped → delivered: a physical reward on its way. failed: it could not be delivered; the claim's Rep and stock were given back once.",
});

export const catalogReward = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    kind: rewardKind,
    fulfilment: fulfilmentKind,
    costRep: z.number().int().meta({ description: "Rep spent by one redemption (0 for milestone rewards)." }),
    stock: z.number().int().nullable().meta({ description: "Items left; null = unlimited." }),
    perUserLimit: z.number().int().nullable().meta({ description: "Redemptions allowed per user; null = no limit. Milestone rewards are claimed once." }),
    claimedCount: z.number().int().meta({ description: "How many times the caller redeemed or claimed this reward." }),
    canRedeem: z.boolean().meta({ description: "Redeem rewards: whether POST /api/rewards/redeem would succeed now. Always false for milestone rewards." }),
    canClaim: z.boolean().meta({ description: "Milestone rewards: whether POST /api/rewards/claim would succeed now. Always false for redeem rewards." }),
    reason: unavailableReason.nullable().meta({ description: "Null when the reward can be taken now; else why not." }),
    milestone: milestoneProgress.nullable().meta({ description: "Milestone rewards: the caller's progress; null for redeem rewards." }),
  })
  .meta({ id: "CatalogReward" });

export const callerProgress = z
  .object({
    balance: z.number().int().meta({ description: "Spendable Rep." }),
    repEarned: z.number().int().meta({ description: "Rep earned, ever (the rep_earned milestone metric)." }),
    questsCompleted: z.number().int(),
    streakDays: z.number().int().meta({ description: "Longest daily streak in days." }),
  })
  .meta({ id: "RewardCallerProgress" });

export const catalog = z
  .object({
    rewards: z.array(catalogReward).meta({ description: "Every active reward: redeem rewards first, then milestone rewards; each by cost, then id." }),
    me: callerProgress,
  })
  .meta({ id: "RewardCatalog" });

const addressText = z.string().nullable();
export const claimFulfilment = z
  .object({
    kind: fulfilmentKind,
    status: fulfilmentStatus,
    voucherCode: z.string().nullable().meta({ description: "voucher rewards: the code, shown to the claim's owner only (null elsewhere)." }),
    voucherAssigned: z.boolean().meta({ description: "True when a voucher code was given to this claim." }),
    trackingCode: z.string().nullable().meta({ description: "physical rewards: the carrier's tracking code once shipped." }),
    shippingAddress: z
      .record(z.string(), addressText)
      .nullable()
      .meta({ description: "physical rewards: the shipping address as it was at redeem time (null once the account is erased)." }),
    updatedAt: isoDateTime.nullable().meta({ description: "When the status last moved (null: never after the claim)." }),
    refundedAt: isoDateTime.nullable().meta({ description: "failed claims: when the Rep and stock were given back." }),
    refundEntryId: z.string().nullable().meta({ description: "failed claims: the ledger credit that gave the Rep back (null when nothing was spent)." }),
  })
  .meta({ id: "RewardClaimFulfilment" });

export const rewardClaim = z
  .object({
    id: z.string(),
    rewardId: z.string(),
    rewardTitle: z.string(),
    kind: rewardKind,
    costRep: z.number().int().meta({ description: "Rep spent (0 for a milestone claim)." }),
    repEntryId: z.string().nullable().meta({ description: "The ledger debit of a redemption; null for a milestone claim." }),
    claimedAt: isoDateTime,
    fulfilment: claimFulfilment,
  })
  .meta({ id: "RewardClaim" });

export const claimsQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });
export const claimParams = z.strictObject({ claimId: uuidString("The claim's id.", "A claim id is a UUID") });
export const claimsPage = pageSchema("claims", rewardClaim, { id: "RewardClaimPage", nextCursor: "Present only when more claims remain." });

export const staffClaim = rewardClaim
  .extend({ userId: z.string().meta({ description: "The fan who claimed it." }), note: z.string().nullable().meta({ description: "Staff's last note." }) })
  .meta({ id: "StaffRewardClaim" });
export const staffClaimsQuery = z.strictObject({
  status: fulfilmentStatus.optional().default("pending").meta({ description: "The fulfilment status to list (default pending: the shipping queue)." }),
  cursor: cursorQuery,
  limit: intQuery(1, 100, 50),
});
export const staffClaimsPage = pageSchema("claims", staffClaim, { id: "StaffRewardClaimPage", nextCursor: "Present only when more claims remain." });
export const staffClaimBody = z.strictObject({
  status: z.enum(["shipped", "delivered", "failed"]).meta({ description: "The status to move to." }),
  trackingCode: z.string().trim().min(1).max(100).nullish().meta({ description: "shipped: the carrier's tracking code." }),
  note: z.string().trim().min(1).max(500).nullish().meta({ description: "A staff note kept on the claim and in the audit log." }),
});
export const staffClaimResult = z
  .object({ claim: staffClaim, changed: z.boolean().meta({ description: "False when the claim already had that status (nothing was done again)." }) })
  .meta({ id: "StaffRewardClaimUpdate" });
export const voucherCodesParams = z.strictObject({ rewardId: idString.meta({ description: "The voucher reward's id." }) });
export const voucherCodesBody = z.strictObject({
  codes: z
    .array(z.string().trim().min(1).max(200).regex(/^\S+$/, "A code has no whitespace"))
    .min(1)
    .max(1000)
    .meta({ description: "The codes to add (1..1000); codes already in the pool are skipped." }),
});
export const voucherCodesResult = z
  .object({
    rewardId: z.string(),
    added: z.number().int(),
    skipped: z.number().int().meta({ description: "Codes not added: repeated in the request or already in the pool." }),
    available: z.number().int().meta({ description: "Codes in the pool not given out yet." }),
  })
  .meta({ id: "VoucherCodesAdded" });

export const idempotencyKey = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, "Use 8-128 characters of A-Z, a-z, 0-9, _ . : -")
  .meta({ description: "Client-chosen key; retrying with the same key replays the first result and never spends twice." });

export const redeemBody = z.strictObject({
  rewardId: idString.meta({ description: "The reward's id." }),
  idempotencyKey,
});

export const redeemResult = z
  .object({
    claim: rewardClaim,
    balance: z.number().int().meta({ description: "The caller's spendable Rep now (after the debit)." }),
    stock: z.number().int().nullable().meta({ description: "The reward's stock now; null = unlimited." }),
    replayed: z.boolean().meta({ description: "True when this answer replays an earlier redemption with the same idempotency key (nothing was spent again)." }),
  })
  .meta({ id: "RewardRedemption" });

export const claimBody = z.strictObject({ rewardId: idString.meta({ description: "The milestone reward's id." }) });

export const claimResult = z
  .object({
    claim: rewardClaim,
    stock: z.number().int().nullable().meta({ description: "The reward's stock now; null = unlimited." }),
  })
  .meta({ id: "RewardMilestoneClaim" });

export type RedeemInput = z.infer<typeof redeemBody>;
