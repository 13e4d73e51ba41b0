import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { reply } from "@/lib/http/reply";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as predictionsErrors } from "@/lib/features/predictions/errors";
import { gameParams, MAX_PREDICTED_GOALS, myPrediction, POINTS, predictionBody, predictionSaved } from "@/lib/features/predictions/schemas";
import { getMyPrediction, putPrediction } from "@/lib/features/predictions/service";

const table = `Points when the game is final (1 point = 1 Club Rep): exact score ${POINTS.exact}; right outcome and goal difference ${POINTS.goalDifference}; right outcome ${POINTS.outcome}; otherwise ${POINTS.miss}.`;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "The caller's prediction of a game",
      description:
        "The game, whether predictions are locked (`locked`, from `locksAt`: the game's startsAt on the server's clock, or the game no longer scheduled) and the caller's prediction (null when none) with its state: open, locked, void (last edited at or after the real kick-off, or the game postponed or canceled) or settled with its points. " +
        table +
        " Unknown game → 404.",
      tags: ["Predictions"],
      auth: "bearer",
      params: gameParams,
      response: myPrediction,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getMyPrediction(db, user.id, params.gameId),
  ),
  PUT: route(
    {
      summary: "Predict a game (outcome and score)",
      description: [
        `Body \`{ outcome: "home" | "draw" | "away", homeScore, awayScore }\` (goals 0..${MAX_PREDICTED_GOALS}); the outcome must agree with the score (400 at \`body.outcome\` otherwise).`,
        "One prediction per fan and game: the first answers 201, an edit 200 (replacing outcome and score; `updatedAt` moves). Editable until kick-off: while the game is scheduled and the server's clock is before its startsAt; after that 409 PREDICTION_LOCKED. The lock is checked in the same statement that writes.",
        "If the league sync later moves the kick-off earlier, a prediction last edited at or after the real kick-off is void (never scores); a postponed or canceled game voids its predictions.",
        table + " Settled by GET /api/cron/predictions-settle, once per game; an amended final score re-settles with compensating Rep entries.",
      ].join("\n\n"),
      tags: ["Predictions"],
      auth: "bearer",
      params: gameParams,
      body: predictionBody,
      rateLimit: "write",
      status: 201,
      response: predictionSaved,
      responses: { 200: { description: "The caller's earlier prediction was replaced", schema: predictionSaved } },
      errors: [sharedErrors.NOT_FOUND, predictionsErrors.PREDICTION_LOCKED],
    },
    async ({ user, params, body }) => {
      const result = await putPrediction(db, user.id, params.gameId, body);
      return reply(result, { status: result.created ? 201 : 200 });
    },
  ),
});
