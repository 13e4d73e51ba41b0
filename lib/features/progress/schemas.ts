import { z } from "zod";
import { idString, isoDateTime, uuidString } from "../../kernel/schemas";

// Progress: requests and answers (lib/features/progress/service.ts): the streak with its freezes, tiers, badges.

/** What one streak freeze costs, in spendable Rep. */
export const FREEZE_PRICE_REP = 200;
/** The most freezes a fan may hold at once. */
export const FREEZES_HELD_MAX = 2;
/** The local evening the streak-at-risk notification is sent in: [start, end) hours of the fan's local clock. */
export const AT_RISK_EVENING = { startHour: 19, endHour: 22 } as const;
/** The most badges a fan features. */
export const FEATURED_MAX = 3;

export const streak = z
  .object({
    current: z.number().int().meta({ description: "Consecutive UTC days with a completed daily quest (days saved by a freeze keep it, without adding)." }),
    longest: z.number().int(),
    lastDay: z
      .string()
      .nullable()
      .meta({ description: "The last UTC day (YYYY-MM-DD) that counted (completed, or saved by a freeze); null before the first." }),
    freezesHeld: z
      .number()
      .int()
      .meta({ description: `Freezes held (at most ${FREEZES_HELD_MAX}).` }),
    freezePrice: z.number().int().meta({ description: "What one more freeze costs in Rep." }),
    atRisk: z.boolean().meta({
      description:
        "The streak is above 0 and no daily quest was completed today (UTC): it ends with the day unless one is (or a freeze held since before tomorrow saves it).",
    }),
    today: z.string().meta({ description: "Today's UTC day (YYYY-MM-DD): what counts." }),
    dayEndsAt: isoDateTime.meta({ description: "When today's UTC day ends (an instant)." }),
    dayEndsLocal: z.string().meta({ description: "The same instant in the fan's time zone, as local date and time (YYYY-MM-DDTHH:MM:SS, no offset)." }),
    timezone: z.string().meta({ description: "The time zone dayEndsLocal is in: the fan's setting, or UTC." }),
  })
  .meta({ id: "Streak" });

export const freezePurchase = z
  .object({
    freeze: z.object({ id: z.string(), acquiredAt: isoDateTime }),
    repSpent: z.number().int(),
    balance: z.number().int().meta({ description: "Spendable Rep after the purchase." }),
    streak,
  })
  .meta({ id: "StreakFreezePurchase" });

export const atRiskResult = z
  .object({
    freezesUsed: z.number().int().meta({ description: "Missed days saved by a freeze in this run." }),
    notified: z.number().int().meta({ description: "STREAK_AT_RISK notifications written in this run." }),
  })
  .meta({ id: "StreakCronResult" });

export const cronAtQuery = z.strictObject({
  at: z.iso.datetime({ offset: true }).optional().meta({ description: "Run as of this instant instead of now (replays and tests); cron credentials only." }),
});

// Tiers ------------------------------------------------------------------------------------------------------------

export const tier = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    minRep: z.number().int().meta({ description: "Rep earned in a season that reaches it." }),
    perks: z.array(z.string()),
  })
  .meta({ id: "Tier" });

export const tierList = z.object({
  tiers: z.array(tier),
  season: z.object({ id: z.string(), name: z.string(), startsAt: isoDateTime, endsAt: isoDateTime }),
});

export const myTier = z
  .object({
    season: z.object({ id: z.string(), name: z.string(), startsAt: isoDateTime, endsAt: isoDateTime }),
    earned: z.number().int().meta({ description: "Rep earned this season (spending never lowers it; a staff reversal does)." }),
    peakEarned: z
      .number()
      .int()
      .meta({ description: "The most Rep earned this season seen so far: the tier follows it, so a reversal lowers the tier only when the season ends." }),
    tier: tier.nullable(),
    next: tier.nullable().meta({ description: "The next tier up, or null at the top." }),
    toNext: z.number().int().nullable().meta({ description: "Rep still to earn this season for the next tier, or null at the top." }),
  })
  .meta({ id: "MyTier" });

// Badges -----------------------------------------------------------------------------------------------------------

export const BADGE_RULES = ["rep_kind", "streak", "tier"] as const;

export const badge = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    rule: z.enum(BADGE_RULES).meta({
      description: "rep_kind: a Rep credit of one of earnKinds (not reversed); streak: a longest streak of threshold days; tier: tierId reached in a season.",
    }),
    earnKinds: z.array(z.string()),
    threshold: z.number().int().nullable(),
    tierId: z.string().nullable(),
    repeatable: z.boolean().meta({ description: "Granted again for each qualifying credit (count), else once." }),
    revokeOnReversal: z.boolean().meta({ description: "A grant goes when the credit it was granted for is reversed by staff." }),
  })
  .meta({ id: "Badge" });

export const badgeList = z.object({ badges: z.array(badge) });

export const ownedBadge = z
  .object({
    badge,
    count: z.number().int().meta({ description: "Times granted (1 unless repeatable)." }),
    firstGrantedAt: isoDateTime,
    lastGrantedAt: isoDateTime,
    featuredPosition: z.number().int().nullable().meta({ description: "1..3 when featured, else null." }),
  })
  .meta({ id: "OwnedBadge" });

export const keepsake = z
  .object({
    gameId: z.string(),
    serial: z.number().int().meta({ description: "Its number among the game's keepsakes: 1 for the first fan checked in, in arrival order." }),
    title: z.string(),
    startsAt: isoDateTime,
    checkedInAt: isoDateTime,
    grantedAt: isoDateTime,
  })
  .meta({
    id: "Keepsake",
    description:
      'An "I was there" collectible for a verified arena check-in at a game. Not tradable: it is not a marketplace collectible, so nothing lists, trades or mints it.',
  });

export const userBadges = z
  .object({
    featured: z.array(ownedBadge).meta({ description: "Featured badges in order (only ones still held)." }),
    badges: z.array(ownedBadge).meta({ description: "Every badge held, most recently granted first." }),
    keepsakes: z.array(keepsake).meta({ description: '"I was there" keepsakes, newest game first.' }),
  })
  .meta({ id: "UserBadges" });

export const featuredPut = z
  .strictObject({
    badgeIds: z
      .array(uuidString("Badge id (UUID)."))
      .max(FEATURED_MAX)
      .refine((ids) => new Set(ids).size === ids.length, "Each badge at most once")
      .meta({ description: `Up to ${FEATURED_MAX} badges the caller holds, in order; [] features none.` }),
  })
  .meta({ id: "FeaturedBadgesPut" });

export const grantResult = z
  .object({ granted: z.number().int(), keepsakes: z.number().int().meta({ description: '"I was there" keepsakes numbered in this run.' }) })
  .meta({ id: "BadgeGrantResult" });

// Console inputs (the staff console's server actions) ----------------------------------------------------------------

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "lowercase letters, digits and dashes, up to 40");

export const tierInput = z.strictObject({
  slug,
  name: z.string().trim().min(1).max(60),
  minRep: z.coerce.number().int().min(0).max(100_000_000),
  perks: z.array(z.string().trim().min(1).max(120)).max(10),
});
export type TierInput = z.infer<typeof tierInput>;

export const badgeInput = z
  .strictObject({
    slug,
    name: z.string().trim().min(1).max(60),
    description: z.string().trim().min(1).max(280),
    rule: z.enum(BADGE_RULES),
    earnKinds: z.array(z.string().regex(/^[a-z_]{1,40}$/)).max(10),
    threshold: z.coerce.number().int().min(1).max(10_000).nullable(),
    tierId: idString.nullable(),
    repeatable: z.boolean(),
    revokeOnReversal: z.boolean(),
  })
  .refine((b) => b.rule !== "rep_kind" || b.earnKinds.length > 0, { message: "rep_kind needs earn kinds", path: ["earnKinds"] })
  .refine((b) => b.rule !== "streak" || (b.threshold !== null && !b.repeatable), { message: "streak needs a threshold", path: ["threshold"] })
  .refine((b) => b.rule !== "tier" || (b.tierId !== null && !b.repeatable), { message: "tier needs a tier", path: ["tierId"] });
export type BadgeInput = z.infer<typeof badgeInput>;
