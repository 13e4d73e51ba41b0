import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getHeadToHead } from "@/lib/core/teams/service";
import { headToHeadQuery, headToHeadResult, teamIdParams } from "@/lib/core/teams/schemas";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Head-to-head record",
      description:
        "`{ success, data: { team, opponent, record, recentMeetings } }`: `{id}`'s wins, losses and ties against `opponentId` over every finished game with scores (all seasons), and the five most recent of those meetings, newest first (`winnerId` null for a draw; `result` from `{id}`'s side). Both sides take an id or slug. 400 VALIDATION_ERROR when `opponentId` is missing or names the same team as `{id}`; 404 when either team is missing or archived.",
      tags: ["Teams"],
      auth: "public",
      params: teamIdParams,
      query: headToHeadQuery,
      response: headToHeadResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params, query }) => getHeadToHead(db, params.id, query.opponentId),
  ),
});
