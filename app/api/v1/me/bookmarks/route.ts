import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { bookmarkPage, pageQuery } from "@/lib/features/lockerroom/schemas";
import { myBookmarks } from "@/lib/features/lockerroom/bookmarks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My bookmarks",
      description:
        "The posts the caller bookmarked, newest bookmark first (keyset by bookmark time, then post id: `limit` 1..50, default 20; `nextCursor` only when more remain). " +
        "Each is the post as the feed serializes it, plus `bookmarkedAt`. Posts the caller may no longer see drop out in the same statement: deleted, hidden by moderation, " +
        "private to a team the caller no longer follows or belongs to, blocks either way, and posts by accounts the caller mutes.",
      tags: ["Locker room"],
      auth: "bearer",
      query: pageQuery,
      response: bookmarkPage,
    },
    ({ user, query }) => myBookmarks(db, user, query),
  ),
});
