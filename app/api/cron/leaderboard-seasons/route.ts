import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { closeResult } from "@/lib/core/rep/leaderboard/schemas";
import { closeSeasons } from "@/lib/core/rep/leaderboard/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Close finished leaderboard seasons (Vercel Cron)",
      description:
        "Called daily by Vercel Cron (vercel.json) with `Authorization: Bearer <CRON_SECRET>`. Closes each finished season not closed yet and writes its winners from the ledger, once: a second or concurrent run writes nothing new (`closed` is then empty).",
      tags: ["Admin"],
      auth: "cron",
      response: closeResult,
    },
    () => closeSeasons(db),
  ),
});
