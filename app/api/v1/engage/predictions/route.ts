import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { historyPage, historyQuery } from "@/lib/features/predictions/schemas";
import { predictionHistory } from "@/lib/features/predictions/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "The caller's predictions and points",
      description:
        "The caller's predictions, newest first (keyset), each with its game, state (open, locked, void, settled) and points once settled; `totalPoints` and `settled` count all of them (every page).",
      tags: ["Predictions"],
      auth: "bearer",
      query: historyQuery,
      response: historyPage,
    },
    ({ user, query }) => predictionHistory(db, user.id, query),
  ),
});
