import { Prisma } from "../../generated/prisma/client";

// The points table of contests: a player's points in one final game from their official line (game_player_stats),
// summed over the contest's covered games. Postponed and canceled games score 0. The captain's points are multiplied
// by the contest's captainMultiplier. docs/domains/contests.md shows the same table.

export const POINTS = {
  /** Played at all (minutes > 0). */
  appearance: 1,
  /** Played 60 minutes or more (on top of the appearance). */
  sixtyMinutes: 1,
  goal: 6,
  assist: 4,
  shot: 1,
  save: 1,
  yellowCard: -1,
  redCard: -3,
} as const;

export interface StatLine {
  minutes: number;
  goals: number;
  assists: number;
  shots: number;
  saves: number;
  yellowCards: number;
  redCards: number;
}

/** A player's points for one line (the same rule as pointsSql, for tests and the documentation). */
export const pointsOf = (s: StatLine) =>
  (s.minutes > 0 ? POINTS.appearance : 0) +
  (s.minutes >= 60 ? POINTS.sixtyMinutes : 0) +
  s.goals * POINTS.goal +
  s.assists * POINTS.assist +
  s.shots * POINTS.shot +
  s.saves * POINTS.save +
  s.yellowCards * POINTS.yellowCard +
  s.redCards * POINTS.redCard;

/** pointsOf as SQL over a game_player_stats row aliased `s`. */
export const pointsSql = Prisma.sql`(
  CASE WHEN s.minutes > 0 THEN ${POINTS.appearance}::int ELSE 0 END + CASE WHEN s.minutes >= 60 THEN ${POINTS.sixtyMinutes}::int ELSE 0 END
  + s.goals * ${POINTS.goal}::int + s.assists * ${POINTS.assist}::int + s.shots * ${POINTS.shot}::int + s.saves * ${POINTS.save}::int
  + s.yellow_cards * ${POINTS.yellowCard}::int + s.red_cards * ${POINTS.redCard}::int)`;
