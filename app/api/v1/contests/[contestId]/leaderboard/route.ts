import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { contestParams, leaderboardPage, leaderboardQuery } from "@/lib/features/contests/schemas";
import { leaderboard } from "@/lib/features/contests/service";
import { errors as contestsErrors } from "@/lib/features/contests/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A contest's leaderboard",
      description:
        "The settled contest's lineups by rank (keyset), each with its fan, score, captain's points, submission time and the Rep paid, and `me`, the caller's own standing (null without a lineup or a session). Ranks are unique: score desc, then the captain's points desc, then the lineup's last submission asc, then the user id asc. Pages are kept per server instance for up to 30 s under the settlement's version (a re-settlement shows at once; only fans' handles and names may lag); `me` is read fresh. Before the contest settles: 409 CONTEST_NOT_SETTLED. Unknown: 404.",
      tags: ["Contests"],
      auth: "optional",
      params: contestParams,
      query: leaderboardQuery,
      response: leaderboardPage,
      errors: [sharedErrors.NOT_FOUND, contestsErrors.CONTEST_NOT_SETTLED],
    },
    ({ user, params, query }) => leaderboard(db, params.contestId, user?.id ?? null, query),
  ),
});
