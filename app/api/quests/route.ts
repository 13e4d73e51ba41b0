import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { questList } from "@/lib/features/quests/schemas";
import { todaysQuests } from "@/lib/features/quests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Quests (legacy)",
      description: "Deprecated: use GET /api/v1/engage/quests (same engine, same answer).",
      tags: ["Quests"],
      auth: "bearer",
      response: questList,
      deprecated: { since: "2026-06-01", successor: "/api/v1/engage/quests" },
    },
    ({ user }) => todaysQuests(db, user.id),
  ),
});
