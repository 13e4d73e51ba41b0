import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { feedList } from "@/lib/features/feeds/schemas";
import { listFeeds } from "@/lib/features/feeds/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "The feeds the caller can open",
      description:
        "Signed in: `for-you` (ranked for the caller; `order: newest` when their `analyticsPersonalization` setting is off), `following` (posts by fans they follow and about or by teams they follow or joined), " +
        "then `team:{teamId}` for each team they follow or joined, by team name. Signed out: `for-you` only, as the newest public posts (any team's feed can still be opened by id). " +
        "Open one with GET /api/v1/feeds/{feedId}.",
      tags: ["Feeds"],
      auth: "optional",
      response: feedList,
    },
    ({ user }) => listFeeds(db, user),
  ),
});
