import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { searchQuery, searchResult } from "@/lib/core/rep/leaderboard/schemas";
import { searchBoard } from "@/lib/core/rep/leaderboard/service";
import { errors as leaderboardErrors } from "@/lib/core/rep/leaderboard/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Find fans on a leaderboard by handle",
      description: "Fans whose handle starts with `q` (any case), by handle, with their rank and points on the board (null when not on it).",
      tags: ["Leaderboard"],
      auth: "optional",
      query: searchQuery,
      response: searchResult,
      errors: [sharedErrors.NOT_FOUND, leaderboardErrors.SEASON_ARCHIVED],
    },
    ({ query }) => searchBoard(db, query),
  ),
});
