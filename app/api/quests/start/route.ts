import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { quest, questIdBody } from "@/lib/features/quests/schemas";
import { startQuest } from "@/lib/features/quests/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Start a quest (legacy)",
      description: "Deprecated. Creates the caller's progress row of the quest's current period; idempotent. Unknown or not eligible: 404.",
      tags: ["Quests"],
      auth: "bearer",
      body: questIdBody,
      rateLimit: "write",
      response: quest,
      errors: [sharedErrors.NOT_FOUND],
      deprecated: { since: "2026-06-01", successor: "/api/v1/engage/quests" },
    },
    ({ user, body }) => startQuest(db, user.id, body.questId),
  ),
});
