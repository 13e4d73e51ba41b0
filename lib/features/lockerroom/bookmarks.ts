import { Prisma } from "../../generated/prisma/client";
import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { notFound } from "../../kernel/errors";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import { mutedAuthorSql } from "../../core/mutes/service";
import { teamSummaries } from "../../core/teams/service";
import { visiblePostSql } from "../../core/visibility/service";
import { selectPosts, type PostRow } from "./queries";
import { toPost } from "./service";
import { postTeamIds } from "./sharing";

// Bookmarks (PUT and DELETE /api/locker-room/{postId}/bookmark, GET /api/v1/me/bookmarks): private to the fan who
// keeps them, never counted or notified. Bookmarking goes through the locker room's one visibility rule (access.ts),
// in the statement that writes; the list applies it again in the statement that reads, so a post that became
// invisible since (hidden, deleted, blocked either way, private and no longer followed, its author muted) drops out.

/** Bookmarks the post if the caller may see it, in one statement; the first bookmark's time stays (idempotent). */
async function insertBookmark(db: RawDb | DbTx, user: AuthUser, postId: string): Promise<Date | undefined> {
  // DO UPDATE (a no-op) rather than DO NOTHING: a concurrent or repeated PUT still returns the row's time.
  const [row] = await raw(db).$queryRaw<{ createdAt: Date }[]>`
    INSERT INTO bookmarks (user_id, post_id)
    SELECT ${user.id}::uuid, p.id FROM posts p WHERE p.id = ${postId}::uuid AND ${visiblePostSql(user)}
    ON CONFLICT (user_id, post_id) DO UPDATE SET created_at = bookmarks.created_at
    RETURNING created_at AS "createdAt"`;
  return row?.createdAt;
}

/** A page of the user's bookmarks, newest first by (created_at, post_id), over the index in that order. */
function bookmarksPage(db: RawDb | DbTx, user: AuthUser, after: { at: Date; id: string } | undefined, take: number) {
  const where: Prisma.Sql[] = [
    Prisma.sql`b.user_id = ${user.id}::uuid`,
    visiblePostSql(user),
    Prisma.sql`NOT ${mutedAuthorSql(user.id, Prisma.sql`p.author_id`)}`,
  ];
  // Staff see every post through visiblePostSql; their bookmarks still list only published, live ones.
  if (user.isAdmin) where.push(Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`);
  if (after) where.push(Prisma.sql`(b.created_at, b.post_id) < (${after.at}, ${after.id}::uuid)`);
  const extra = Prisma.sql`, b.created_at AS "bookmarkedAt"`;
  return raw(db).$queryRaw<(PostRow & { bookmarkedAt: Date })[]>`
    ${selectPosts(user, extra)}
    JOIN bookmarks b ON b.post_id = p.id
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY b.created_at DESC, b.post_id DESC
    LIMIT ${take}`;
}

export async function bookmarkPost(db: Db, user: AuthUser, postId: string) {
  const at = await insertBookmark(db, user, postId);
  if (!at) throw notFound("Post");
  return { postId, bookmarked: true, bookmarkedAt: at.toISOString() };
}

/** Removes the caller's bookmark, if any: the same answer whether or not the post exists or is visible. */
export async function unbookmarkPost(db: Db, user: AuthUser, postId: string) {
  await raw(db).$executeRaw`DELETE FROM bookmarks WHERE user_id = ${user.id}::uuid AND post_id = ${postId}::uuid`;
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
