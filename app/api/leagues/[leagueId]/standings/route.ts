import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { leagueIdParams, standingsResult } from "@/lib/core/leagues/schemas";
import { getStandings } from "@/lib/core/leagues/service";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "League standings",
      description:
        "Bare `{ rows, tiebreakRules, tables }` for the league named by internal id or slug (case-insensitive); 404 NOT_FOUND when missing or archived. " +
        "Records count the league's finished games with scores in its current season. Soccer ranks by points (3 win, 1 draw), hockey by points (2 win, 1 overtime loss), football and basketball by win percentage (ties count half a win); then `tiebreakRules` in order, ending with name. " +
        "`rows` and `tables` are empty when the league cannot be scored: its sport has no rules here (e.g. `other`; then `tiebreakRules` is empty too) or no game has finished yet. " +
        "Answers may be up to a few seconds old after a game finishes or a sync runs.",
      tags: ["Leagues"],
      auth: "public",
      params: leagueIdParams,
      envelope: false,
      response: standingsResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ params }) => getStandings(db, params.leagueId),
  ),
});
