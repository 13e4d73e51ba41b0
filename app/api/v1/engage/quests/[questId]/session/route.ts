import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { questParams, quizSession } from "@/lib/features/quests/schemas";
import { startQuiz } from "@/lib/features/quests/service";
import { errors as questsErrors } from "@/lib/features/quests/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Start today's quiz",
      description:
        "Starts the caller's timed attempt at a quiz quest (201): the server picks the quest's quizLength questions at random and answers the session with the first question (prompt, choices, position, deadline), never its answer. One attempt per user, quiz and UTC day, forfeits included: a second start is 409 QUIZ_ALREADY_ATTEMPTED. Not eligible or unknown: 404; not a quiz: 409 QUEST_NOT_A_QUIZ; no questions: 409 QUIZ_UNAVAILABLE. An answer later than its question's `deadline` plus the grace window QUIZ_GRACE_MS (2000 ms, `graceMs` in the session) counts as a miss (recorded as unanswered and incorrect) and the session moves on; the next question then counts as shown when the previous window closed, so a session left alone runs out and is finalized by the server the next time it is touched (GET, submit, forfeit, the quest list). No request body.",
      tags: ["Quests"],
      auth: "bearer",
      params: questParams,
      rateLimit: "write",
      status: 201,
      response: quizSession,
      errors: [sharedErrors.NOT_FOUND, questsErrors.QUEST_NOT_A_QUIZ, questsErrors.QUIZ_UNAVAILABLE, questsErrors.QUIZ_ALREADY_ATTEMPTED],
    },
    ({ user, params }) => startQuiz(db, user.id, params.questId),
  ),
});
