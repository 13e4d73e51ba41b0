import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { quizSession, sessionParams } from "@/lib/features/quests/schemas";
import { getQuizSession } from "@/lib/features/quests/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Resume a quiz session",
      description:
        "The caller's session with its current question (without the answer) or, once ended, its result. Another user's session is 404. An answer later than its question's `deadline` plus the grace window QUIZ_GRACE_MS (2000 ms, `graceMs` in the session) counts as a miss (recorded as unanswered and incorrect) and the session moves on; the next question then counts as shown when the previous window closed, so a session left alone runs out and is finalized by the server the next time it is touched (GET, submit, forfeit, the quest list).",
      tags: ["Quests"],
      auth: "bearer",
      params: sessionParams,
      response: quizSession,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getQuizSession(db, user.id, params.sessionId),
  ),
});
