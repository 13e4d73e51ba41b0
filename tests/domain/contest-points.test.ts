import { afterAll, describe, expect, it } from "vitest";
import { Prisma } from "../../lib/generated/prisma/client";
import { db } from "../../lib/db/client";
import { POINTS, pointsOf, type StatLine } from "../../lib/features/contests/points";
import { pointsSql } from "../../lib/features/contests/writes";
import { slotAccepts } from "../../lib/features/contests/service";

// The contests' points table (lib/features/contests/points.ts): the SQL the settlement runs agrees with the documented rule
// line by line; slot rules accept positions as documented.

afterAll(() => db.$disconnect());

const lines: StatLine[] = [
  { minutes: 0, goals: 0, assists: 0, shots: 0, saves: 0, yellowCards: 0, redCards: 0 },
  { minutes: 1, goals: 0, assists: 0, shots: 0, saves: 0, yellowCards: 0, redCards: 0 },
  { minutes: 59, goals: 1, assists: 0, shots: 3, saves: 0, yellowCards: 1, redCards: 0 },
  { minutes: 60, goals: 0, assists: 2, shots: 0, saves: 0, yellowCards: 0, redCards: 0 },
  { minutes: 90, goals: 3, assists: 1, shots: 6, saves: 4, yellowCards: 1, redCards: 1 },
];

describe("contest points", () => {
  it("follow the documented table", () => {
    expect(pointsOf(lines[0]!)).toBe(0);
    expect(pointsOf(lines[1]!)).toBe(POINTS.appearance);
    expect(pointsOf(lines[3]!)).toBe(1 + 1 + 2 * 4);
    expect(pointsOf(lines[4]!)).toBe(1 + 1 + 3 * 6 + 4 + 6 + 4 - 1 - 3);
  });

  it("the settlement's SQL gives the same points for every line", async () => {
    for (const l of lines) {
      const [row] = await db.$queryRaw<{ p: number }[]>`
        SELECT ${pointsSql}::int AS p FROM (SELECT ${l.minutes}::int AS minutes, ${l.goals}::int AS goals, ${l.assists}::int AS assists,
          ${l.shots}::int AS shots, ${l.saves}::int AS saves, ${l.yellowCards}::int AS yellow_cards, ${l.redCards}::int AS red_cards) s ${Prisma.empty}`;
      expect(row!.p).toBe(pointsOf(l));
    }
  });

  it("slots accept their positions, case-insensitive; * any", () => {
    expect(slotAccepts("QB", "qb")).toBe(true);
    expect(slotAccepts("RB/WR", "WR")).toBe(true);
    expect(slotAccepts("RB/WR", "QB")).toBe(false);
    expect(slotAccepts("*", null)).toBe(true);
    expect(slotAccepts("QB", null)).toBe(false);
  });
});
