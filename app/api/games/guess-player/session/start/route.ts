import { db } from "@/lib/db/client";
import { MAX_GUESSES } from "@/lib/features/games/guess";
import { guessSessionResult, guessStartBody } from "@/lib/features/games/schemas";
import { startGuessSession } from "@/lib/features/games/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as gamesErrors } from "@/lib/features/games/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Start a guess-the-player session",
      description: [
        "Starts a new session: the server picks a mystery player at random among a team's active players. Optional body `{ teamId }` (id or slug; missing or archived → 404); by default one of the caller's followed or joined teams with players, else any team with players. 409 GUESS_NO_ROSTER when the team (or every team) has no active players.",
        `The session shows one clue at the start and one more after each wrong guess, in this order as far as the roster has them: duty, role, availability, position, jersey number, first letter of the name. ${MAX_GUESSES} guesses; the last wrong one loses. The mystery player is never in an answer while the session is active; once it ended, \`answer\` reveals them. Sessions are independent: starting one does not end another.`,
      ].join("\n\n"),
      tags: ["Games"],
      auth: "bearer",
      body: guessStartBody,
      bodyRequired: false,
      rateLimit: "write",
      status: 201,
      response: guessSessionResult,
      errors: [sharedErrors.NOT_FOUND, gamesErrors.GUESS_NO_ROSTER],
    },
    ({ user, body }) => startGuessSession(db, user.id, body?.teamId),
  ),
});
