import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { questPoints } from "@/lib/features/quests/schemas";
import { syncQuestPoints } from "@/lib/features/quests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Recompute quest points",
      description:
        "Recomputes the caller's quest points (the sum of the Rep their completed quests credited) and writes the Rep ledger entry of any completed quest that lacks one (under the completion's grant key, so a second run writes nothing and changes nothing). No request body.",
      tags: ["Quests"],
      auth: "bearer",
      rateLimit: "write",
      response: questPoints,
    },
    ({ user }) => syncQuestPoints(db, user.id),
  ),
});
