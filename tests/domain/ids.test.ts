import { describe, expect, it } from "vitest";
import { uuidv7 } from "../../lib/db/ids";

// uuidv7 draws its random bits from a pool refilled every 256 ids: the ids must stay well-formed, unique and
// time-ordered across refills.

const FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("uuidv7", () => {
  it("version 7, RFC 9562 variant, the given millisecond in its first 48 bits", () => {
    const at = Date.UTC(2026, 10, 26, 7, 30, 1, 234);
    const id = uuidv7(at);
    expect(id).toMatch(FORM);
    expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(at);
  });

  it("10,000 ids (about 40 refills of the pool) are all different, with random parts that differ too", () => {
    const at = Date.now();
    const ids = Array.from({ length: 10_000 }, () => uuidv7(at));
    for (const id of ids) expect(id).toMatch(FORM);
    expect(new Set(ids).size).toBe(ids.length);
    // Same millisecond: only the 74 random bits tell them apart, and no tail repeats.
    expect(new Set(ids.map((id) => id.slice(24))).size).toBe(ids.length);
  });

  it("ids of later milliseconds sort after earlier ones", () => {
    const ids = [0, 1, 2, 1_000, 86_400_000].map((ms) => uuidv7(Date.UTC(2026, 0, 1) + ms));
    expect([...ids].sort()).toEqual(ids);
  });
});
