import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { checkProgressBody, questsUpdate } from "@/lib/features/quests/schemas";
import { checkProgress } from "@/lib/features/quests/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Check quest progress (legacy)",
      description:
        "Deprecated. The server evaluates the conditioned steps of the caller's eligible quests (or only `questId`'s: 404 when unknown or not eligible): follows_three_teams, joined_team (the quest's team, or any for a global quest), handle_set, display_name_set, avatar_set, arena_check_in (any check-in, or the quest's team's for a team quest; today's for a daily quest), game_rated (any game rating). Steps it sees met are marked done and quests whose steps are all done complete with their reward, once. Answers the quests that have steps. Body optional.",
      tags: ["Quests"],
      auth: "bearer",
      body: checkProgressBody,
      bodyRequired: false,
      rateLimit: "write",
      response: questsUpdate,
      errors: [sharedErrors.NOT_FOUND],
      deprecated: { since: "2026-06-01", successor: "/api/v1/engage/quests" },
    },
    ({ user, body }) => checkProgress(db, user.id, body?.questId),
  ),
});
