import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { questList } from "@/lib/features/quests/schemas";
import { todaysQuests } from "@/lib/features/quests/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Today's quests",
      description:
        "The quests the caller may take today, with progress: steps done, completed in the current period (today, UTC, for daily quests), ever completed, the award, kind, scope, team and when the period ends. Eligibility is the server's: global quests; team quests of teams the caller follows or joined; pass quests only while the caller holds the pass unexpired; only active quests inside their availability window.",
      tags: ["Quests"],
      auth: "bearer",
      response: questList,
    },
    ({ user }) => todaysQuests(db, user.id),
  ),
});
