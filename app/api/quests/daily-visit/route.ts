import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { questsUpdate } from "@/lib/features/quests/schemas";
import { dailyVisit } from "@/lib/features/quests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Daily visit (legacy)",
      description:
        "Deprecated. Completes the caller's eligible visit quests for today (UTC) and credits their rewards, once per period; `completed` lists the quests this request completed. No request body.",
      tags: ["Quests"],
      auth: "bearer",
      rateLimit: "write",
      response: questsUpdate,
      deprecated: { since: "2026-06-01", successor: "/api/v1/engage/quests" },
    },
    ({ user }) => dailyVisit(db, user.id),
  ),
});
