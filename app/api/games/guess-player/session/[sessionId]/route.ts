import { db } from "@/lib/db/client";
import { guessSessionResult, sessionIdParams } from "@/lib/features/games/schemas";
import { getGuessSession } from "@/lib/features/games/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Resume a guess-the-player session",
      description:
        "The caller's session as it stands: clues revealed so far, guesses, guesses left, status; `answer` only once it has ended. Another user's session, like an unknown one, is 404.",
      tags: ["Games"],
      auth: "bearer",
      params: sessionIdParams,
      response: guessSessionResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getGuessSession(db, user.id, params.sessionId),
  ),
});
