// UTC calendar days: the unit of every "once per day" rule (stored as a DATE column or a "YYYY-MM-DD" key).

/** "YYYY-MM-DD" of the UTC day `d` falls on. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** Midnight UTC of the day `d` falls on, as a Date (what a DATE column stores). */
export const utcDayStart = (d: Date): Date => new Date(`${utcDay(d)}T00:00:00.000Z`);

/** The UTC day `days` after (or before, if negative) the day of `d`, at midnight. */
export const addUtcDays = (d: Date, days: number): Date => new Date(utcDayStart(d).getTime() + days * 86_400_000);
