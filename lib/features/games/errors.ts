import { defineErrors } from "../../kernel/errors";

// Error codes of games and events (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  GAME_NOT_FINISHED: { status: 409, description: "The game is not final yet: its players can be rated once it has finished." },
  LINEUP_UNAVAILABLE: {
    status: 409,
    description: "The finished game's lineup could not be seeded: one or both teams have no available, active players on their roster.",
  },
  GUESS_NO_ROSTER: { status: 409, description: "No team to play with: the team asked for (or every candidate team) has no active players." },
  GUESS_SESSION_ENDED: { status: 409, description: "This guess-the-player session has ended (won or lost); start a new one." },
});
