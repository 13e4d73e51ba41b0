import { db } from "@/lib/db/client";
import { crowdRatings, gameIdParams, MAX_SCORE, MIN_SCORE, ratingResult, ratingsBody } from "@/lib/features/games/schemas";
import { getCrowdRatings, rateGame } from "@/lib/features/games/service";
import { methods } from "@/lib/http/methods";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";
import { SERVER_AWARDS } from "@/lib/core/rep/grants";
import { errors as gamesErrors } from "@/lib/features/games/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Crowd ratings of a game",
      description:
        "Every lineup player of the game in slot order with the fans' mean score (rounded to 1 decimal; null when nobody scored the player), how many fans scored them, and `myScore` when the caller is signed in. `raters` counts the fans who rated the game. A game that is not final, or whose lineup could not be seeded, answers an empty `players` with its `lineupStatus`. Unknown id → 404.",
      tags: ["Events"],
      auth: "optional",
      params: gameIdParams,
      response: crowdRatings,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getCrowdRatings(db, user?.id ?? null, params.gameId),
  ),
  POST: route(
    {
      summary: "Rate the players of a game",
      description: [
        `Body \`{ ratings: [{ playerId, score }] }\`: at least one player of the game's lineup, each at most once (a repeat is 400 at \`body.ratings.<i>.playerId\`), score an integer ${MIN_SCORE}..${MAX_SCORE}.`,
        "The game must be final (409 GAME_NOT_FINISHED otherwise) and have a lineup: it is seeded from both rosters on first need, and a final game where one or both teams have no available players answers 409 LINEUP_UNAVAILABLE. A player outside the lineup is 400 VALIDATION_ERROR at `body.ratings.<i>.playerId` (nothing is written).",
        "One rating per fan and game: the first submission answers 201; a later one answers 200 with `replaced: true` and REPLACES the earlier scores entirely (players it leaves out lose their score). Concurrent submissions of one fan apply one after another; the last one stays.",
        `The first rating of a game awards ${SERVER_AWARDS.game_rating.amount} Club Rep, once per fan and game however often it is replaced (\`rep.awarded\`, \`rep.amount\`).`,
      ].join("\n\n"),
      tags: ["Events"],
      auth: "bearer",
      params: gameIdParams,
      body: ratingsBody,
      rateLimit: "write",
      status: 201,
      response: ratingResult,
      responses: { 200: { description: "The caller's earlier scores were replaced", schema: ratingResult } },
      errors: [sharedErrors.NOT_FOUND, gamesErrors.GAME_NOT_FINISHED, gamesErrors.LINEUP_UNAVAILABLE],
    },
    async ({ user, params, body }) => {
      const result = await rateGame(db, user.id, params.gameId, body);
      return reply(result, { status: result.replaced ? 200 : 201 });
    },
  ),
});
