import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sessionParams, submitBody, submitResult } from "@/lib/features/quests/schemas";
import { submitAnswer } from "@/lib/features/quests/service";
import { errors as questsErrors } from "@/lib/features/quests/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Answer the current question",
      description:
        "Records the answer to the session's current question under the session's row lock and answers whether it was correct, the question's correctIndex, and the session (the next question, or the result when that was the last). An answer later than its question's `deadline` plus the grace window QUIZ_GRACE_MS (2000 ms, `graceMs` in the session) counts as a miss (recorded as unanswered and incorrect) and the session moves on; the next question then counts as shown when the previous window closed, so a session left alone runs out and is finalized by the server the next time it is touched (GET, submit, forfeit, the quest list). A late answer answers 200 with `timedOut: true` and is not applied to the next question. Send `position` to make retries safe: a position that is not the current question is 409 QUIZ_POSITION_MISMATCH and changes nothing. The last question completes the quest for the session's day and credits floor(repReward × correct / total) Rep (daily_quest_completion), once. An ended session is 409 QUIZ_SESSION_ENDED; an answerIndex outside the choices is 400.",
      tags: ["Quests"],
      auth: "bearer",
      params: sessionParams,
      body: submitBody,
      rateLimit: "write",
      response: submitResult,
      errors: [sharedErrors.NOT_FOUND, questsErrors.QUIZ_SESSION_ENDED, questsErrors.QUIZ_POSITION_MISMATCH],
    },
    ({ user, params, body }) => submitAnswer(db, user.id, params.sessionId, body),
  ),
});
