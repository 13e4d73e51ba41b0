import { z } from "zod";
import { idString, isoDateTime } from "../http/schemas";

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
    "Why the reward cannot be taken now, the first that applies, in the order the write checks them: redeem rewards out_of_stock, limit_reached, insufficient_rep; milestone rewards already_claimed, milestone_not_reached, out_of_stock.",
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

export const catalogReward = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    kind: rewardKind,
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

export const rewardClaim = z
  .object({
    id: z.string(),
    rewardId: z.string(),
    kind: rewardKind,
    costRep: z.number().int().meta({ description: "Rep spent (0 for a milestone claim)." }),
    repEntryId: z.string().nullable().meta({ description: "The ledger debit of a redemption; null for a milestone claim." }),
    claimedAt: isoDateTime,
  })
  .meta({ id: "RewardClaim" });

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
