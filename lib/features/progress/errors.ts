import { defineErrors } from "../../kernel/errors";

// Error codes of progress: streak freezes, tiers, badges (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  FREEZE_LIMIT_REACHED: { status: 409, description: "The fan already holds the most streak freezes allowed (2)." },
  INSUFFICIENT_REP: { status: 409, description: "The caller's spendable Rep balance is lower than the price." },
  BADGE_NOT_OWNED: { status: 409, description: "A featured badge must be one the fan holds." },
  SLUG_TAKEN: { status: 409, description: "Another tier or badge has this slug (or, for a tier, this minimum Rep)." },
});
