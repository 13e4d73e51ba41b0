import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { bookmarkState, postIdParams } from "@/lib/features/lockerroom/schemas";
import { bookmarkPost, unbookmarkPost } from "@/lib/features/lockerroom/bookmarks";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Bookmark a post",
      description:
        "Adds the post to the caller's private bookmarks (GET /api/v1/me/bookmarks): never counted, never notified, seen by no one else. " +
        "Idempotent, also under concurrent calls: one bookmark, and its first time is kept; answers `{ postId, bookmarked: true, bookmarkedAt }`. " +
        "404 when the caller may not see the post (deleted, hidden, private to a team they neither follow nor joined, blocks either way), as reading it would be.",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      response: bookmarkState,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => bookmarkPost(db, user, params.postId),
  ),
  DELETE: route(
    {
      summary: "Remove a bookmark",
      description:
        "Removes the caller's bookmark of the post, if any. Idempotent: answers `{ postId, bookmarked: false, bookmarkedAt: null }` whether or not there was one, and whether or not the post still exists or is visible (so a bookmark of a post that became invisible can still be removed, and the answer tells nothing about the post).",
      tags: ["Locker room"],
      auth: "bearer",
      params: postIdParams,
      rateLimit: "write",
      response: bookmarkState,
    },
    ({ user, params }) => unbookmarkPost(db, user, params.postId),
  ),
});
