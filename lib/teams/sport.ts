/** Sport values come from the provider as free text; null, empty or unusable values become "other". */
export function normalizeSport(value: string | null | undefined): string {
  const v = (value ?? "").trim().toLowerCase();
  return /^[a-z][a-z0-9_-]{0,39}$/.test(v) ? v : "other";
}

// Sports whose standings keep an overtime-loss column (W-L-OTL). Elsewhere a defeat after regulation is a plain loss.
const OVERTIME_LOSS_SPORTS = new Set(["hockey", "ice-hockey", "ice_hockey"]);

export function hasOvertimeLosses(sport: string | null | undefined): boolean {
  return OVERTIME_LOSS_SPORTS.has(normalizeSport(sport));
}
