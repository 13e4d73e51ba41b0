import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { winnersQuery, winnersList } from "@/lib/core/rep/leaderboard/schemas";
import { GLOBAL_WINNERS, TEAM_WINNERS, listWinners } from "@/lib/core/rep/leaderboard/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Winners of closed seasons",
      description: `Each closed season's top fans on a board as they stood when it closed (written once by the season cron): ${GLOBAL_WINNERS} on \`global\`, ${TEAM_WINNERS} on each \`team:<teamId>\`, fans with points only. Newest season first, keyset pages of seasons.`,
      tags: ["Leaderboard"],
      auth: "public",
      query: winnersQuery,
      response: winnersList,
    },
    ({ query }) => listWinners(db, query),
  ),
});
