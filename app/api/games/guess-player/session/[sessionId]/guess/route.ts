import { db } from "@/lib/db/client";
import { GUESS_WIN_AWARD } from "@/lib/features/games/service";
import { guessBody, guessResult, sessionIdParams } from "@/lib/features/games/schemas";
import { guessPlayer } from "@/lib/features/games/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { errors as gamesErrors } from "@/lib/features/games/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Guess the mystery player",
      description: [
        "Body `{ playerId }`: an active player of the session's team (GET /api/teams/{id}/roster lists them), else 400 at `body.playerId`; a player already guessed in this session is 400 too. Neither counts as a guess.",
        "Right → `won`; wrong → the next clue, and after the last allowed guess `lost`. Either way an ended session answers `answer`. Guesses on an ended session → 409 GUESS_SESSION_ENDED; another user's session → 404. Concurrent guesses on one session apply one at a time.",
        `The caller's first win of each UTC day awards ${GUESS_WIN_AWARD.amount} Rep (\`rep\`); later wins that day award none.`,
      ].join("\n\n"),
      tags: ["Games"],
      auth: "bearer",
      params: sessionIdParams,
      body: guessBody,
      rateLimit: "write",
      response: guessResult,
      errors: [sharedErrors.NOT_FOUND, gamesErrors.GUESS_SESSION_ENDED],
    },
    ({ user, params, body }) => guessPlayer(db, user.id, params.sessionId, body.playerId),
  ),
});
