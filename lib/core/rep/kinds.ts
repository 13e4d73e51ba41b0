// The names of Rep's ledger that readers need without the writers (lib/core/rep/grants.ts): what counts as spending
// (Rep earned as kept on the user's row is REP_EARNED, in queries.ts). Leaderboards, tiers and rewards read them; the
// writers note leaderboard moves, so the leaderboard importing the writers would close a circle.

/** The debit that is spending Rep on a streak freeze (lib/features/progress). */
export const STREAK_FREEZE = "streak_freeze";
/** The debit that is spending Rep on a reward (what redeem writes). */
export const REWARD_REDEMPTION = "reward_redemption";
/** The credit that gives back a redemption's Rep when its fulfilment failed (lib/features/rewards/fulfilment.ts): spending undone, not earning. */
export const REWARD_REFUND = "reward_refund";
/**
 * Ledger kinds that are spending, as opposed to credits and staff reversals of credits: Rep earned is every entry but
 * these, so spending never lowers it while a reversal does.
 */
export const SPENDING_KINDS: string[] = [REWARD_REDEMPTION, STREAK_FREEZE, REWARD_REFUND];
