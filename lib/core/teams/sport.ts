// Sport values come from the provider as free text; null, empty or unusable values become "other".
const SPORT_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;
/** The same pattern for SQL filters that must agree with normalizeSport. */
export const SPORT_PATTERN_SQL = SPORT_PATTERN.source;

export function normalizeSport(value: string | null | undefined): string {
  const v = (value ?? "").trim().toLowerCase();
  return SPORT_PATTERN.test(v) ? v : "other";
}

// Sports whose standings keep an overtime-loss column (W-L-OTL). Elsewhere a defeat after regulation is a plain loss.
const OVERTIME_LOSS_SPORTS = new Set(["hockey", "ice-hockey", "ice_hockey"]);

export function hasOvertimeLosses(sport: string | null | undefined): boolean {
  return OVERTIME_LOSS_SPORTS.has(normalizeSport(sport));
}
