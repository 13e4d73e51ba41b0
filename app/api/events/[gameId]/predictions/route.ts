import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as predictionsErrors } from "@/lib/features/predictions/errors";
import { crowdSplitSchema, gameParams } from "@/lib/features/predictions/schemas";
import { getCrowdSplit } from "@/lib/features/predictions/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "The crowd split of a game's predictions",
      description:
        "How the fans predicted the game: counts and shares (1 decimal) per outcome and the most predicted exact scores, void predictions left out. Shown only once predictions are locked (kick-off on the server's clock, or the game no longer scheduled): before that 409 PREDICTIONS_NOT_LOCKED. Unknown game → 404.",
      tags: ["Predictions"],
      auth: "optional",
      params: gameParams,
      response: crowdSplitSchema,
      errors: [sharedErrors.NOT_FOUND, predictionsErrors.PREDICTIONS_NOT_LOCKED],
    },
    ({ params }) => getCrowdSplit(db, params.gameId),
  ),
});
