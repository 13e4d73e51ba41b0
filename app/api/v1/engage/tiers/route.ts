import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { tierList } from "@/lib/features/progress/schemas";
import { listTiers } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Tiers",
      description:
        "Every tier, lowest first: the Rep earned in a season that reaches it (minRep) and its perks, with the season in progress. Seasons are the leaderboard's UTC calendar months. " +
        "A fan's tier follows the most Rep they have earned this season (spending never lowers it; a staff reversal lowers earned, but the tier only at the next season). Staff define the tiers in the console.",
      tags: ["Quests"],
      auth: "public",
      response: tierList,
    },
    () => listTiers(db),
  ),
});
