import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { driftReport } from "@/lib/core/rep/leaderboard/schemas";
import { checkBoards } from "@/lib/core/rep/leaderboard/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Check the leaderboards against the ledger (staff)",
      description:
        "Per current board: entries the ledger expects, and how many are missing, extra or scored otherwise in the rank index. `drift` is true when any board differs; POST /api/admin/leaderboard/rebuild repairs it.",
      tags: ["Admin"],
      auth: "admin",
      response: driftReport,
    },
    () => checkBoards(db),
  ),
});
