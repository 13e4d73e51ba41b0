// Referral rules (docs/domains/referrals.md): amounts, the monthly cap, the windows. Server-chosen, never a client's.

/** Rep the referrer gets when a referee qualifies (within the month's cap). */
export const REFERRER_REP = 100;
/** Rep the referee gets when they qualify (always, cap or not). */
export const REFEREE_REP = 50;
/** Referrer rewards per referrer per calendar month (UTC); past it the referee still gets theirs. */
export const MONTHLY_CAP = 10;
/** A referee who has not qualified this many days after joining never will ("expired"). */
export const QUALIFY_WINDOW_DAYS = 30;
/** A referee whose account deletion is requested within this many days of joining takes the referrer's reward back. */
export const CLAWBACK_WINDOW_DAYS = 30;

export const REFERRAL_REFERRER = "referral_referrer";
export const REFERRAL_REFEREE = "referral_referee";

/** The calendar month (UTC) a reward counts against, "YYYY-MM". */
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);
