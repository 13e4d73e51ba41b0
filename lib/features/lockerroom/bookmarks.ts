import type { AuthUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { notFound } from "../../kernel/errors";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { teamSummaries } from "../../core/teams/service";
import { bookmarksPage } from "./queries";
import { toPost } from "./service";
import { postTeamIds } from "./sharing";
import { deleteBookmark, insertBookmark } from "./writes";

// Bookmarks (PUT and DELETE /api/locker-room/{postId}/bookmark, GET /api/v1/me/bookmarks): private to the fan who
// keeps them, never counted or notified. Bookmarking goes through the locker room's one visibility rule (access.ts),
// in the statement that writes; the list applies it again in the statement that reads, so a post that became
// invisible since (hidden, deleted, blocked either way, private and no longer followed, its author muted) drops out.

export async function bookmarkPost(db: Db, user: AuthUser, postId: string) {
  const at = await insertBookmark(db, user, postId);
  if (!at) throw notFound("Post");
  return { postId, bookmarked: true, bookmarkedAt: at.toISOString() };
}

/** Removes the caller's bookmark, if any: the same answer whether or not the post exists or is visible. */
export async function unbookmarkPost(db: Db, user: AuthUser, postId: string) {
  await deleteBookmark(db, user.id, postId);
  return { postId, bookmarked: false, bookmarkedAt: null };
}

export async function myBookmarks(db: Db, user: AuthUser, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const rows = await bookmarksPage(db, user, after, limit + 1);
  const teams = await teamSummaries(db, postTeamIds(rows));
  const now = new Date();
  return keysetPage(
    "bookmarks",
    rows,
    limit,
    (last) => encodeCursor(last.bookmarkedAt.getTime(), last.id),
    (row) => ({ ...toPost(row, teams, user, now), bookmarkedAt: row.bookmarkedAt.toISOString() }),
  );
}
