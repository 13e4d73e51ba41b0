// Leaderboard seasons are UTC calendar months, named by their id "YYYY-MM": a season holds the Rep earned from its
// first instant to the next month's. Computed, not stored: the ledger's timestamps say which season an entry is in.

export interface Season {
  id: string;
  name: string;
  startsAt: Date;
  endsAt: Date;
}

export const SEASON_ID = /^(\d{4})-(0[1-9]|1[0-2])$/;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function season(year: number, month: number): Season {
  const startsAt = new Date(Date.UTC(year, month, 1));
  const endsAt = new Date(Date.UTC(year, month + 1, 1));
  return { id: `${year}-${String(month + 1).padStart(2, "0")}`, name: `${MONTHS[month]} ${year}`, startsAt, endsAt };
}

/** The season `at` falls in. */
export const seasonOf = (at: Date): Season => season(at.getUTCFullYear(), at.getUTCMonth());

/** The season named `id` ("YYYY-MM"), or null for anything else. */
export function seasonById(id: string): Season | null {
  const m = SEASON_ID.exec(id);
  return m ? season(Number(m[1]), Number(m[2]) - 1) : null;
}

/** The season before `s`. */
export const previousSeason = (s: Season): Season => seasonOf(new Date(s.startsAt.getTime() - 1));
