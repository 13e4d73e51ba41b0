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

/** A player's points for one line (the same rule as pointsSql in writes.ts, for tests and the documentation). */
export const pointsOf = (s: StatLine) =>
  (s.minutes > 0 ? POINTS.appearance : 0) +
  (s.minutes >= 60 ? POINTS.sixtyMinutes : 0) +
  s.goals * POINTS.goal +
  s.assists * POINTS.assist +
  s.shots * POINTS.shot +
  s.saves * POINTS.save +
  s.yellowCards * POINTS.yellowCard +
  s.redCards * POINTS.redCard;
