import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { uuidOfHex } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { visiblePostSql, type Viewer } from "../../core/visibility/service";
import { selectPosts, type PostRow } from "../lockerroom/service";
import { filtersVersionSql, mutedAuthorSql } from "../../core/mutes/service";
import { TRENDS_WINDOW_HOURS, type TrendStatus } from "./schemas";

// The tags module's statements. Every read of posts applies the locker room's one visibility rule
// (visiblePostSql) in the statement that reads them; trend counts read only public, live, published posts, so they
// are the same for every viewer and say nothing about what one viewer may not see.

export interface TagRow {
  tag: string;
  name: string;
  following: boolean;
}

export async function tagByKey(db: RawDb | DbTx, tag: string, viewerId: string | undefined): Promise<TagRow | undefined> {
  const following = viewerId ? Prisma.sql`EXISTS (SELECT 1 FROM tag_follows f WHERE f.user_id = ${viewerId}::uuid AND f.tag = t.tag)` : Prisma.sql`false`;
  const [row] = await raw(db).$queryRaw<TagRow[]>`SELECT t.tag, t.name, ${following} AS following FROM tags t WHERE t.tag = ${tag}`;
  return row;
}

/**
 * A page of a tag's posts, newest first by (publish_at, post_id) over post_tags' index in that order, as the feed
 * reads them: visibility in the statement, each row marked when the viewer mutes its author and carrying the
 * viewer's filters version (the caller leaves those out: a short page whose cursor follows the last row read).
 */
export function tagPostsPage(db: RawDb | DbTx, viewer: Viewer, tag: string, after: { at: Date; id: string } | undefined, take: number) {
  const where: Prisma.Sql[] = [Prisma.sql`t.tag = ${tag}`, visiblePostSql(viewer)];
  // Staff see every post through visiblePostSql; the tag page still lists only published, live ones.
  if (viewer?.isAdmin) where.push(Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`);
  if (after) where.push(Prisma.sql`(t.publish_at, t.post_id) < (${after.at}, ${after.id}::uuid)`);
  const extra = Prisma.sql`, ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted, ${filtersVersionSql(viewer?.id)} AS "filtersVersion"`;
  return raw(db).$queryRaw<(PostRow & { muted: boolean; filtersVersion: number })[]>`
    ${selectPosts(viewer, extra)}
    JOIN post_tags t ON t.post_id = p.id
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY t.publish_at DESC, t.post_id DESC
    LIMIT ${take}`;
}

/** Follows the tag (creating it when never used); the first follow's time stays. */
export async function insertTagFollow(tx: DbTx, userId: string, tag: string): Promise<Date> {
  await tx.$executeRaw`INSERT INTO tags (tag, name) VALUES (${tag}, ${tag}) ON CONFLICT (tag) DO NOTHING`;
  const [row] = await tx.$queryRaw<{ createdAt: Date }[]>`
    INSERT INTO tag_follows (user_id, tag) VALUES (${userId}::uuid, ${tag})
    ON CONFLICT (user_id, tag) DO UPDATE SET created_at = tag_follows.created_at
    RETURNING created_at AS "createdAt"`;
  return row!.createdAt;
}

export async function tagFollowOf(tx: DbTx, userId: string, tag: string): Promise<Date | undefined> {
  const [row] = await tx.$queryRaw<{ createdAt: Date }[]>`
    SELECT created_at AS "createdAt" FROM tag_follows WHERE user_id = ${userId}::uuid AND tag = ${tag}`;
  return row?.createdAt;
}

export async function tagFollowCount(tx: DbTx, userId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM tag_follows WHERE user_id = ${userId}::uuid`;
  return row!.n;
}

export const deleteTagFollow = (db: RawDb | DbTx, userId: string, tag: string) =>
  raw(db).$executeRaw`DELETE FROM tag_follows WHERE user_id = ${userId}::uuid AND tag = ${tag}`;

/** The user's followed tags, newest follow first by (created_at, tag), over the index in that order. */
export function followedTagsPage(db: RawDb | DbTx, userId: string, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (f.created_at, f.tag) < (${after.at}, ${after.id})` : Prisma.empty;
  return raw(db).$queryRaw<{ tag: string; name: string; followedAt: Date }[]>`
    SELECT f.tag, t.name, f.created_at AS "followedAt"
    FROM tag_follows f JOIN tags t ON t.tag = f.tag
    WHERE f.user_id = ${userId}::uuid ${keyset}
    ORDER BY f.created_at DESC, f.tag DESC
    LIMIT ${take}`;
}

// Trends -----------------------------------------------------------------------------------------------------------

const WINDOW = Prisma.sql`now() - make_interval(hours => ${TRENDS_WINDOW_HOURS})`;
/** A post anyone may see: public, published, neither deleted nor hidden. */
const PUBLIC_LIVE = Prisma.sql`p.visibility = 'PUBLIC' AND p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`;

/**
 * (tag, fan) pairs of the window, distinct: tags of public live posts published in it (post_tags' (publish_at, …)
 * index) and of live comments on such posts made in it (comment_tags' (created_at, …) index).
 */
const TAG_USES = Prisma.sql`
  SELECT t.tag, t.author_id AS fan, t.post_id AS post FROM post_tags t JOIN posts p ON p.id = t.post_id
  WHERE t.publish_at > ${WINDOW} AND t.publish_at <= now() AND ${PUBLIC_LIVE}
  UNION
  SELECT c.tag, c.author_id, NULL::uuid FROM comment_tags c JOIN post_comments pc ON pc.id = c.comment_id JOIN posts p ON p.id = c.post_id
  WHERE c.created_at > ${WINDOW} AND pc.deleted_at IS NULL AND pc.hidden_at IS NULL AND ${PUBLIC_LIVE}`;

/** Approved tags ranked by the distinct fans who used them in the window (then by key). */
export function trendingTags(db: RawDb | DbTx, take: number) {
  return raw(db).$queryRaw<{ tag: string; name: string; fans: number }[]>`
    WITH uses AS (${TAG_USES})
    SELECT g.tag, g.name, count(DISTINCT u.fan)::int AS fans
    FROM uses u JOIN tags g ON g.tag = u.tag
    WHERE g.trend_status = 'APPROVED'
    GROUP BY g.tag, g.name
    ORDER BY fans DESC, g.tag
    LIMIT ${take}`;
}

export interface AdminTrendRow {
  tag: string;
  name: string;
  status: string;
  fans: number;
  posts: number;
  reviewedAt: Date | null;
  reviewedBy: string | null;
  createdAt: Date;
}

/** Tags in one review state with their window's counts, most used first; pending ones only when used in the window. */
export function adminTrendTags(db: RawDb | DbTx, status: TrendStatus, take: number, only?: string) {
  const st = status.toUpperCase();
  const one = only ? Prisma.sql`AND g.tag = ${only}` : Prisma.sql`AND g.trend_status = ${st}::"TagTrendStatus" AND (${st} <> 'PENDING' OR c.fans IS NOT NULL)`;
  return raw(db).$queryRaw<AdminTrendRow[]>`
    WITH uses AS (${TAG_USES}),
    counts AS (SELECT tag, count(DISTINCT fan)::int AS fans, count(DISTINCT post)::int AS posts FROM uses GROUP BY tag)
    SELECT g.tag, g.name, lower(g.trend_status::text) AS status, coalesce(c.fans, 0) AS fans, coalesce(c.posts, 0) AS posts,
           g.reviewed_at AS "reviewedAt", g.reviewed_by AS "reviewedBy", g.created_at AS "createdAt"
    FROM tags g LEFT JOIN counts c ON c.tag = g.tag
    WHERE true ${one}
    ORDER BY coalesce(c.fans, 0) DESC, g.tag
    LIMIT ${take}`;
}

export const toAdminTrendTag = (r: AdminTrendRow) => ({
  tag: r.tag,
  name: r.name,
  status: r.status as TrendStatus,
  fans: r.fans,
  posts: r.posts,
  reviewedAt: r.reviewedAt?.toISOString() ?? null,
  reviewedBy: r.reviewedBy,
  createdAt: r.createdAt.toISOString(),
});

/** The smallest UUIDv7 of a time: comments' ids are UUIDv7, so their primary key serves a time range. */
const uuidv7Floor = (ms: number) => uuidOfHex(ms.toString(16).padStart(12, "0") + "0".repeat(20));

/**
 * Posts ranked by the distinct fans (other than the author) who reacted to or commented on them in the window
 * (post_reactions' created_at index, post_comments' primary key), read as the feed reads posts: the viewer's
 * visibility in this statement, live and published only, each row marked when the viewer mutes its author.
 */
export function trendingPosts(db: RawDb | DbTx, viewer: Viewer, take: number) {
  const since = Date.now() - TRENDS_WINDOW_HOURS * 3_600_000;
  const extra = Prisma.sql`, rk.fans AS "trendFans", ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted, ${filtersVersionSql(viewer?.id)} AS "filtersVersion"`;
  return raw(db).$queryRaw<(PostRow & { trendFans: number; muted: boolean; filtersVersion: number })[]>`
    WITH i AS (
      SELECT r.post_id, r.user_id AS fan FROM post_reactions r WHERE r.created_at > ${WINDOW}
      UNION
      SELECT c.post_id, c.author_id FROM post_comments c
      WHERE c.id >= ${uuidv7Floor(since)}::uuid AND c.created_at > ${WINDOW} AND c.deleted_at IS NULL AND c.hidden_at IS NULL),
    rk AS (SELECT i.post_id, count(*)::int AS fans FROM i JOIN posts ip ON ip.id = i.post_id WHERE i.fan <> ip.author_id GROUP BY i.post_id)
    ${selectPosts(viewer, extra)}
    JOIN rk ON rk.post_id = p.id
    WHERE ${visiblePostSql(viewer)} AND p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()
    ORDER BY rk.fans DESC, p.id DESC
    LIMIT ${take}`;
}

/** Locks a tag's row for its review (NO KEY UPDATE: posts referencing the tag keep writing); none when the tag was never used or followed. */
export async function lockTag(tx: DbTx, tag: string) {
  const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT lower(trend_status::text) AS status FROM tags WHERE tag = ${tag} FOR NO KEY UPDATE`;
  return row;
}

export const setTrendStatus = (tx: DbTx, tag: string, status: TrendStatus, staffId: string) =>
  tx.$executeRaw`UPDATE tags SET trend_status = ${status.toUpperCase()}::"TagTrendStatus", reviewed_at = now(), reviewed_by = ${staffId} WHERE tag = ${tag}`;
