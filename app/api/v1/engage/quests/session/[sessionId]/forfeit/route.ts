import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { quizSession, sessionParams } from "@/lib/features/quests/schemas";
import { forfeitQuiz } from "@/lib/features/quests/service";
import { errors as questsErrors } from "@/lib/features/quests/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Forfeit a quiz session",
      description:
        "Ends the caller's active session without completing the quest or crediting Rep; the UTC day's attempt stays used (a new start today is 409 QUIZ_ALREADY_ATTEMPTED). If the session's time had already run out it is finalized as completed instead and answered as such. An ended session is 409 QUIZ_SESSION_ENDED. No request body.",
      tags: ["Quests"],
      auth: "bearer",
      params: sessionParams,
      rateLimit: "write",
      response: quizSession,
      errors: [sharedErrors.NOT_FOUND, questsErrors.QUIZ_SESSION_ENDED],
    },
    ({ user, params }) => forfeitQuiz(db, user.id, params.sessionId),
  ),
});
