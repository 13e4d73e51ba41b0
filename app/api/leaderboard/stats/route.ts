import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { statsQuery, statsResult } from "@/lib/core/rep/leaderboard/schemas";
import { boardStats } from "@/lib/core/rep/leaderboard/service";
import { errors as leaderboardErrors } from "@/lib/core/rep/leaderboard/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Leaderboard statistics",
      description:
        "Participants, the caller's rank, points and percentile (null when not on the board), the top score, and how many fans hold points in ten equal bands from 0 to it.",
      tags: ["Leaderboard"],
      auth: "bearer",
      query: statsQuery,
      response: statsResult,
      errors: [sharedErrors.NOT_FOUND, leaderboardErrors.SEASON_ARCHIVED],
    },
    ({ user, query }) => boardStats(db, user.id, query),
  ),
});
