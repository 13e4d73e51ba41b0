import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { seasonsList } from "@/lib/core/rep/leaderboard/schemas";
import { listSeasons } from "@/lib/core/rep/leaderboard/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Leaderboard seasons",
      description:
        "The current season and the past ones (UTC calendar months) back to the first Rep earned, newest first, at most 24; `closed` once its winners are written.",
      tags: ["Leaderboard"],
      auth: "public",
      response: seasonsList,
    },
    () => listSeasons(db),
  ),
});
