import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { completeStepBody, questUpdate } from "@/lib/features/quests/schemas";
import { completeStep } from "@/lib/features/quests/service";
import { errors as questsErrors } from "@/lib/features/quests/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Complete a quest step (legacy)",
      description:
        "Deprecated. Marks a step done for the quest's current period. Steps without a condition are the app's to report; a step with a condition counts only when the server sees it met, else 409 QUEST_STEP_CONDITION_NOT_MET. Reporting a done step again changes nothing. Completing the last step completes the quest and credits its reward once (quest_completion, or daily_quest_completion for daily quests). Unknown or not eligible quest, or a step of another quest: 404.",
      tags: ["Quests"],
      auth: "bearer",
      body: completeStepBody,
      rateLimit: "write",
      response: questUpdate,
      errors: [sharedErrors.NOT_FOUND, questsErrors.QUEST_STEP_CONDITION_NOT_MET],
      deprecated: { since: "2026-06-01", successor: "/api/v1/engage/quests" },
    },
    ({ user, body }) => completeStep(db, user.id, body),
  ),
});
