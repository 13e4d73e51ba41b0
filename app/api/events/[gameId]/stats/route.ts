import { db } from "@/lib/db/client";
import { gameIdParams } from "@/lib/features/games/schemas";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { gameStatsSchema } from "@/lib/features/live/schemas";
import { gameStats } from "@/lib/features/live/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A game's stats",
      description:
        "The official player lines of the game (minutes, goals, assists, shots, saves, yellow and red cards), as the provider's newest stat line of each player (by `seq`) gives them, and each team's totals over its players' lines; with the game's status and score. Public.",
      tags: ["Events"],
      auth: "optional",
      params: gameIdParams,
      response: gameStatsSchema,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => gameStats(db, params.gameId),
  ),
});
