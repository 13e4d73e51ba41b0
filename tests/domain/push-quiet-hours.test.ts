import { describe, expect, it } from "vitest";
import { quietUntil, toClock, toMinute } from "../../lib/core/push/quiet-hours";

// Quiet hours (lib/core/push/quiet-hours.ts): inside [start, end) of the local day in the user's zone, an end before the
// start spanning midnight; the answer is when they end, to the minute.

const at = (iso: string) => new Date(iso);
const q = (start: string, end: string, timeZone: string) => ({ startMinute: toMinute(start), endMinute: toMinute(end), timeZone });

describe("quiet hours", () => {
  it("reads and writes HH:MM", () => {
    expect([toMinute("00:00"), toMinute("07:30"), toMinute("23:59")]).toEqual([0, 450, 1439]);
    expect([toClock(0), toClock(450), toClock(1439)]).toEqual(["00:00", "07:30", "23:59"]);
  });

  it("a window within one day: start inside, end outside", () => {
    const w = q("13:00", "15:00", "UTC");
    expect(quietUntil(at("2026-11-27T12:59:59Z"), w)).toBeUndefined();
    expect(quietUntil(at("2026-11-27T13:00:00Z"), w)).toEqual(at("2026-11-27T15:00:00Z"));
    expect(quietUntil(at("2026-11-27T14:59:30Z"), w)).toEqual(at("2026-11-27T15:00:00Z"));
    expect(quietUntil(at("2026-11-27T15:00:00Z"), w)).toBeUndefined();
  });

  it("a window across midnight, in the user's zone", () => {
    const w = q("22:00", "07:00", "Europe/Berlin"); // UTC+1 in November
    expect(quietUntil(at("2026-11-27T20:59:00Z"), w)).toBeUndefined();
    expect(quietUntil(at("2026-11-27T21:00:00Z"), w)).toEqual(at("2026-11-28T06:00:00Z"));
    expect(quietUntil(at("2026-11-28T03:15:20Z"), w)).toEqual(at("2026-11-28T06:00:00Z"));
    expect(quietUntil(at("2026-11-28T06:00:00Z"), w)).toBeUndefined();
  });

  it("a zone the runtime does not know means no quiet hours (never held forever)", () => {
    expect(quietUntil(at("2026-11-27T12:00:00Z"), q("00:00", "23:59", "Nowhere/Land"))).toBeUndefined();
  });
});
