import { db } from "@/lib/db/client";
import { eventDetailResult, gameIdParams } from "@/lib/features/games/schemas";
import { getEvent } from "@/lib/features/games/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Event detail",
      description:
        "Any game by id (not only the caller's teams'), as an event with its lineup and the caller's own scores. A final game's lineup is seeded on first need from both rosters (active, available players; home team first), then never changes; `lineup.status` says `seeded`, `pending` (not final) or `unavailable` (a final game where one or both teams have no available players). Unknown id → 404.",
      tags: ["Events"],
      auth: "bearer",
      params: gameIdParams,
      response: eventDetailResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getEvent(db, user.id, params.gameId),
  ),
});
