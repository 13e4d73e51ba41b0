import { z } from "zod";
import { FEATURES } from "../config/schemas";
import { env } from "../../env";
import { isoDateTime } from "../../kernel/schemas";

// Spending limits (GET, PUT /api/v1/me/spending-limits) and eligibility (GET /api/v1/me/eligibility).

export const LIMIT_KINDS = ["topups", "packs"] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
export const LIMIT_PERIODS = ["day", "month"] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];
/** A raise takes effect this long after it is asked for; a lowering at once. */
export const RAISE_DELAY_HOURS = 24;
/** A fan may set a limit up to this many times its default. */
export const LIMIT_MAX_FACTOR = 10;

/** The configured default of each limit, in minor units of COIN. */
export function defaultLimit(kind: LimitKind, period: LimitPeriod): number {
  const e = env();
  if (kind === "topups") return period === "day" ? e.SPENDING_LIMIT_TOPUPS_DAILY : e.SPENDING_LIMIT_TOPUPS_MONTHLY;
  return period === "day" ? e.SPENDING_LIMIT_PACKS_DAILY : e.SPENDING_LIMIT_PACKS_MONTHLY;
}

const amount = z.number().int().min(0).meta({ description: "Minor units of COIN (100 = 1 coin)." });

const limit = z
  .object({
    amount: amount.meta({ description: "The limit in force now, in minor units of COIN." }),
    default: z.boolean().meta({ description: "True while the fan has not set this limit (the configured default applies)." }),
    used: amount.meta({ description: "Spent (packs) or bought (top-ups: pending and credited) in the current period." }),
    remaining: amount.meta({ description: "amount - used, never below 0." }),
    resetsAt: isoDateTime.meta({ description: "When the period ends: the next 00:00 UTC, or the first day of next month at 00:00 UTC." }),
    pending: z
      .object({ amount, effectiveAt: isoDateTime })
      .nullable()
      .meta({ description: `A raise asked for, in force from effectiveAt (${RAISE_DELAY_HOURS} hours after it was asked); null for none.` }),
  })
  .meta({ id: "SpendingLimit" });

const pair = z.object({ day: limit, month: limit });

export const spendingLimits = z
  .object({
    currency: z.literal("COIN"),
    topups: pair.meta({ description: "Coins bought (web checkout and in-app purchases)." }),
    packs: pair.meta({ description: "Coins spent on packs." }),
  })
  .meta({ id: "SpendingLimits" });

const setPair = z.strictObject({ day: amount.optional(), month: amount.optional() });

export const spendingLimitsPut = z
  .strictObject({ topups: setPair.optional(), packs: setPair.optional() })
  .refine((b) => Object.values(b).some((p) => p && Object.keys(p).length > 0), "Send at least one limit")
  .meta({
    id: "SpendingLimitsPut",
    description: `The limits to set, in minor units of COIN, each 0..${LIMIT_MAX_FACTOR} times its default. A lower value (or the same) takes effect at once and cancels a pending raise; a higher one in ${RAISE_DELAY_HOURS} hours.`,
  });
export type SpendingLimitsPut = z.infer<typeof spendingLimitsPut>;

const reason = z.object({ code: z.string(), message: z.string() }).meta({ id: "EligibilityReason" });
const verdict = z.object({
  allowed: z.boolean(),
  reasons: z.array(reason).meta({ description: "Why not (empty when allowed): the error codes the purchase would answer." }),
});

export const eligibility = z
  .object({
    coins: verdict.meta({ description: "Whether the caller may buy coins now." }),
    packs: verdict.meta({ description: "Whether the caller may buy packs now." }),
    country: z.string().nullable().meta({ description: "The country the server placed the request in (the setting, else the request's), if any." }),
    paused: z
      .array(
        z.object({
          feature: z.enum(FEATURES),
          message: z.string().meta({ description: "Staff's message for the pause (a default when they gave none)." }),
        }),
      )
      .meta({
        description:
          "The features staff paused for the caller (kill switches, the same as `GET /api/v1/config`'s `features`), in a fixed order; empty when none. Their writes answer 409 FEATURE_DISABLED. A paused `topups` also refuses `coins` and a paused `packs` refuses `packs`, with the reason FEATURE_DISABLED.",
      }),
  })
  .meta({ id: "Eligibility" });
