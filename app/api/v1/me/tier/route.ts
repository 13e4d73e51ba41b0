import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { myTier } from "@/lib/features/progress/schemas";
import { myTier as myTierOf } from "@/lib/features/progress/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My tier",
      description:
        "The caller's tier this season (a UTC calendar month): Rep earned this season (every credit, less staff reversals; spending never counts), the season's peak of it so far, the tier that peak reaches, the next tier and the Rep still to earn for it. " +
        "The peak only rises within a season, so a reversal never demotes before the season ends; a new season starts from 0.",
      tags: ["Quests"],
      auth: "bearer",
      response: myTier,
    },
    ({ user }) => myTierOf(db, user.id),
  ),
});
