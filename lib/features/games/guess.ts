import type { ClueKind } from "./schemas";

// Guess the player: the clues a mystery player gives away, from the broadest to the most telling. Pure: the
// service reads the player row and decides how many of these a session shows.

/** Guesses a session allows; the last wrong one loses. With one clue at the start and one more per wrong guess, the
 *  sixth guess is made with every clue in view. */
export const MAX_GUESSES = 6;

export interface ClueSource {
  name: string;
  jersey: string | null;
  position: string | null;
  role: string | null;
  duty: string | null;
  availability: string;
}

export interface Clue {
  kind: ClueKind;
  label: string;
  value: string;
}

const LABELS: Record<ClueKind, string> = {
  duty: "Plays in",
  role: "Role",
  availability: "Availability",
  position: "Position",
  jersey: "Jersey number",
  initial: "Name starts with",
};

const clean = (v: string | null) => (v ?? "").trim();

/**
 * Every clue of a player, in reveal order: duty (offense, backcourt, …), role (starter, bench), availability,
 * position, jersey number, first letter of the name. Fields the roster leaves empty give no clue.
 */
export function cluesOf(p: ClueSource): Clue[] {
  const values: [ClueKind, string][] = [
    ["duty", clean(p.duty)],
    ["role", clean(p.role)],
    ["availability", p.availability],
    ["position", clean(p.position)],
    ["jersey", clean(p.jersey)],
    ["initial", (Array.from(p.name.trim())[0] ?? "").toUpperCase()],
  ];
  return values.filter(([, value]) => value !== "").map(([kind, value]) => ({ kind, label: LABELS[kind], value }));
}

/** Clues shown after `wrongGuesses` wrong guesses: one at the start, one more per wrong guess, at most all. */
export const cluesShown = (total: number, wrongGuesses: number) => Math.min(total, 1 + wrongGuesses);
