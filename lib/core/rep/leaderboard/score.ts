// A board's order in one number, so a Redis sorted set holds it: more points first, then whoever reached their
// points first (to the minute). packed = points · 2^26 + (2^26 − 1 − minutes since 2025-01-01), within 2^53 as
// long as points < 2^27 (134,217,728) and the minute is before 2152. Equal packed scores (same points reached in the
// same minute) share a rank; among them Redis orders members by id, descending.

export const TIE_BITS = 26;
const TIE_SPAN = 2 ** TIE_BITS;
export const MAX_POINTS = 2 ** 27 - 1;
const EPOCH_MS = Date.UTC(2025, 0, 1);

const minuteOf = (at: Date) => Math.min(TIE_SPAN - 1, Math.max(0, Math.floor((at.getTime() - EPOCH_MS) / 60_000)));

/** The packed score of `points` reached at `reachedAt` (points below 0 count as 0, above MAX_POINTS as MAX_POINTS). */
export function packScore(points: number, reachedAt: Date): number {
  const p = Math.min(MAX_POINTS, Math.max(0, Math.trunc(points)));
  return p * TIE_SPAN + (TIE_SPAN - 1 - minuteOf(reachedAt));
}

/** Points and the minute they were reached, back from a packed score. */
export function unpackScore(packed: number): { points: number; reachedAt: Date } {
  const points = Math.floor(packed / TIE_SPAN);
  const minute = TIE_SPAN - 1 - (packed - points * TIE_SPAN);
  return { points, reachedAt: new Date(EPOCH_MS + minute * 60_000) };
}

/** The lowest packed score a fan with `points` can have (reached as late as can be). */
export const lowestScoreWith = (points: number) => Math.min(MAX_POINTS, Math.max(0, points)) * TIE_SPAN;
