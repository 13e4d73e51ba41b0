import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listCompletedQuests } from "@/lib/features/quests/service";
import { completedQuestPage, completedQuestsQuery } from "@/lib/features/quests/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My quest history",
      description:
        "Quests the caller completed, newest first (completedAt desc, then questId desc), keyset-paginated: `limit` 1..50 (default 20); `nextCursor` is present only when more remain. A malformed cursor is 400.",
      tags: ["Users"],
      auth: "bearer",
      query: completedQuestsQuery,
      response: completedQuestPage,
    },
    ({ user, query }) => listCompletedQuests(db, user.id, query),
  ),
});
