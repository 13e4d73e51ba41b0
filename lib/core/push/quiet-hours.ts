// Quiet hours, a pure computation: is `now` inside [start, end) of the local day in `timeZone` (an end before the
// start spans midnight), and if so, when do they end. Minutes after local midnight; to the minute (on a day the
// clocks change, the end may be off by the shift, never by more).

export const toMinute = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
export const toClock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

function localMinute(now: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(now);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return hour * 60 + minute;
}

/** When the quiet hours `now` falls in end, or undefined when `now` is not in them (or the zone is unknown). */
export function quietUntil(now: Date, q: { startMinute: number; endMinute: number; timeZone: string }): Date | undefined {
  let m: number;
  try {
    m = localMinute(now, q.timeZone);
  } catch {
    return undefined;
  }
  const inside = q.startMinute < q.endMinute ? m >= q.startMinute && m < q.endMinute : m >= q.startMinute || m < q.endMinute;
  if (!inside) return undefined;
  const minutesLeft = (q.endMinute - m + 1440) % 1440;
  const startOfMinute = now.getTime() - (now.getTime() % 60_000);
  return new Date(startOfMinute + minutesLeft * 60_000);
}
