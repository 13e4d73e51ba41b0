import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { TRENDS_WINDOW_HOURS, trends, trendsQuery } from "@/lib/features/tags/schemas";
import { trends as readTrends } from "@/lib/features/tags/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Trending hashtags and posts",
      description:
        `Over the last ${TRENDS_WINDOW_HOURS} hours (a sliding window): \`tags\`, hashtags staff approved (Mastodon: trends need review), ranked by the distinct fans who used them in public, published, live posts and in live comments on such posts (not by how often), then by key; ` +
        "`posts`, ranked by the distinct fans other than the author who reacted to or commented on them in the window, then newest id. " +
        "Posts are read under the caller's visibility in the same statement (signed out: public only; never deleted, hidden, blocked either way, or private to a team the caller neither follows nor joined), and signed in, posts by muted accounts or matching the caller's `feed` filters are left out (the list may be shorter than `limit`). " +
        "`limit` 1..20 (default 10) applies to each list.",
      tags: ["Tags"],
      auth: "optional",
      query: trendsQuery,
      response: trends,
    },
    ({ user, query }) => readTrends(db, user, query),
  ),
});
