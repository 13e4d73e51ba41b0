import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { leaderboardPage, leaderboardQuery } from "@/lib/core/rep/leaderboard/schemas";
import { readBoard } from "@/lib/core/rep/leaderboard/service";
import { errors as leaderboardErrors } from "@/lib/core/rep/leaderboard/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A leaderboard page, with the caller's rank and the fans around them",
      description:
        "Boards: `global` (every fan who earned Rep in the period) or `team:<teamId>` (the fans who joined the team, whatever their points); periods: `all`, `current` or a season id (seasons are UTC months; this one and the one before are kept, older ones answer SEASON_ARCHIVED and live on in /winners). " +
        "Points are the Rep earned in the period (all sources; spending never lowers them, a staff reversal does). Order: more points first, then who reached them first (to the minute), then by fan id; `rank` is 1 + the fans strictly ahead, so equal points reached in the same minute share a rank. " +
        "Keyset pages: `nextCursor` continues right after the last entry's place, so a page boundary never repeats or skips a fan on equal scores. With a session, `me` and `aroundMe` (5 on each side) come in the same answer.",
      tags: ["Leaderboard"],
      auth: "optional",
      query: leaderboardQuery,
      response: leaderboardPage,
      errors: [sharedErrors.NOT_FOUND, leaderboardErrors.SEASON_ARCHIVED],
    },
    ({ user, query }) => readBoard(db, user?.id ?? null, query),
  ),
});
