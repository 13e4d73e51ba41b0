import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as feedsErrors } from "@/lib/features/feeds/errors";
import { feedIdParams, feedPage, feedQuery } from "@/lib/features/feeds/schemas";
import { readFeed, SNAPSHOT_REUSE_SECONDS, SNAPSHOT_TTL_MINUTES } from "@/lib/features/feeds/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A page of a feed",
      description:
        "`feedId`: `for-you`, `following` or `team:{teamId}` (unknown ids and teams: 404). Pages are keyset pages (`limit` 1..50, default 20; `nextCursor` only when more remain). Each post is the locker-room feed's post. " +
        "`following` (signed in, else 401): posts by fans the caller follows and about or posted as teams they follow or joined, newest first. `team:{teamId}`: the team's posts (about it or posted as it), newest first. " +
        `\`for-you\` signed in with \`analyticsPersonalization\` on: \`order: ranked\`, ranked from the caller's feed signals, follows, freshness and engagement (docs: the ranking is explained in the Feeds guide). ` +
        `The ranking is made once and frozen in a snapshot that the cursor pages over, so pages never repeat or skip a post even as new posts arrive or scores change; a request without a cursor reuses the caller's snapshot while it is under ${SNAPSHOT_REUSE_SECONDS} s old, else ranks anew (pull-to-refresh after that shows new posts). ` +
        `A snapshot lives ${SNAPSHOT_TTL_MINUTES} minutes: a cursor into an older one is 410 FEED_SNAPSHOT_EXPIRED (load the feed again without a cursor). ` +
        "`for-you` signed out or with personalization off: `order: newest`, the newest posts the caller may see (no signals used). " +
        "Every feed applies the locker room's visibility in the statement that reads the page (deleted, hidden, private to a team the caller is not a fan of, blocks either way never appear, also when that changed after a snapshot was made), " +
        "and leaves out posts by accounts the caller mutes and posts matching their `feed` keyword filters: a page may come back short, even empty, with a `nextCursor`; page on `nextCursor`, not on a full page. " +
        "Signed out, the answer may be up to a second old (`ANONYMOUS_CACHE_TTL_MS`, shared among anonymous callers per query, as the locker-room feed).",
      tags: ["Feeds"],
      auth: "optional",
      anonymousCache: true,
      params: feedIdParams,
      query: feedQuery,
      response: feedPage,
      errors: [sharedErrors.UNAUTHORIZED, sharedErrors.NOT_FOUND, feedsErrors.FEED_SNAPSHOT_EXPIRED],
    },
    ({ user, params, query }) => readFeed(db, user, params.feedId, query),
  ),
});
