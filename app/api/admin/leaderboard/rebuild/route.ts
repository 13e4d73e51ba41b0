import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { rebuildResult } from "@/lib/core/rep/leaderboard/schemas";
import { rebuildBoards } from "@/lib/core/rep/leaderboard/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Rebuild the leaderboards from the ledger (staff)",
      description:
        "Rewrites every current board (global and each live team's, all time and this season) from the Rep ledger, each swapped in whole when written. Returns each board's entry count.",
      tags: ["Admin"],
      auth: "admin",
      response: rebuildResult,
    },
    ({ user, requestId }) => rebuildBoards(db, apiActor(user, requestId)),
  ),
});
