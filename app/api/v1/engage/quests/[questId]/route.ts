import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { quest, questParams } from "@/lib/features/quests/schemas";
import { getQuest } from "@/lib/features/quests/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "One quest",
      description:
        "One quest with the caller's progress. 404 NOT_FOUND when the quest is unknown or the caller is not eligible for it (same rules as the list).",
      tags: ["Quests"],
      auth: "bearer",
      params: questParams,
      response: quest,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getQuest(db, user.id, params.questId),
  ),
});
