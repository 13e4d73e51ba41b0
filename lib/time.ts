// UTC calendar days: the unit of every "once per day" rule (stored as a DATE column or a "YYYY-MM-DD" key).

/** "YYYY-MM-DD" of the UTC day `d` falls on. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** Midnight UTC of the day `d` falls on, as a Date (what a DATE column stores). */
export const utcDayStart = (d: Date): Date => new Date(`${utcDay(d)}T00:00:00.000Z`);

/** The UTC day `days` after (or before, if negative) the day of `d`, at midnight. */
export const addUtcDays = (d: Date, days: number): Date => new Date(utcDayStart(d).getTime() + days * 86_400_000);

/**
 * `work`'s result, or `timeoutError()` thrown once `ms` pass first (the work itself goes on; its result is dropped).
 * For waits on another service that must not hold a request up.
 */
export async function within<T>(work: Promise<T>, ms: number, timeoutError: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(timeoutError()), ms)));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
