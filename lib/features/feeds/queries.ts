import { Prisma } from "../../generated/prisma/client";
import type { Db, DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { visiblePostSql, type Viewer } from "../../core/visibility/service";
import { selectPosts, type PostRow } from "../lockerroom/service";
import { filtersVersionSql, mutedAuthorSql } from "../../core/mutes/service";
import { rankIntoSnapshotSql, SNAPSHOT_CHUNK } from "./ranking";

// The feeds' statements. Posts are read with the locker room's own select (selectPosts) under its one visibility
// rule (visiblePostSql), and each row says whether the viewer mutes its author and carries their filters version, as
// the locker-room feed's rows do: the service leaves muted and filtered posts out (short pages, cursor unaffected).

export type FeedRow = PostRow & { muted: boolean; filtersVersion: number };

const markColumns = (viewer: Viewer) =>
  Prisma.sql`, ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted, ${filtersVersionSql(viewer?.id)} AS "filtersVersion"`;

/** Staff see every post through visiblePostSql; feeds still list only published, live ones. */
const liveForStaff = (viewer: Viewer) =>
  viewer?.isAdmin ? Prisma.sql`AND p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()` : Prisma.empty;

/**
 * The sources of the `following` feed, each one condition over a post `p` for the fan `me`; a post is in the feed when
 * any holds. Each set is read once per statement (an uncorrelated subquery over an index whose first column is the
 * fan), and the posts index (publish_at, id) is read in order.
 */
export function followingSourcesSql(me: Prisma.Sql): Prisma.Sql[] {
  const teams = Prisma.sql`(SELECT team_id FROM team_follows WHERE user_id = ${me} UNION SELECT team_id FROM team_members WHERE user_id = ${me})`;
  const fans = Prisma.sql`(SELECT followee_id FROM user_follows WHERE follower_id = ${me})`;
  return [
    // 1. Posts by fans the caller follows.
    Prisma.sql`p.author_id IN ${fans}`,
    // 2. Posts about or posted as teams the caller follows or joined.
    Prisma.sql`p.team_id IN ${teams}`,
    Prisma.sql`p.author_team_id IN ${teams}`,
    // 3. Posts with a tag the caller follows.
    Prisma.sql`EXISTS (SELECT 1 FROM post_tags pt JOIN tag_follows tf ON tf.tag = pt.tag AND tf.user_id = ${me} WHERE pt.post_id = p.id)`,
    // 4. Posts reposted by fans the caller follows (at the post's own publish time).
    Prisma.sql`EXISTS (SELECT 1 FROM post_reposts r WHERE r.post_id = p.id AND r.user_id IN ${fans})`,
  ];
}

/** A page of the caller's `following` feed, newest first by (publish_at, id): a keyset read whatever the page. */
export function followingPage(db: RawDb | DbTx, viewer: Viewer & object, after: { at: Date; id: string } | undefined, take: number) {
  const me = Prisma.sql`${viewer.id}::uuid`;
  const keyset = after ? Prisma.sql`AND (p.publish_at, p.id) < (${after.at}, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<FeedRow[]>`
    ${selectPosts(viewer, markColumns(viewer))}
    WHERE ${visiblePostSql(viewer)} ${liveForStaff(viewer)}
      AND (${Prisma.join(followingSourcesSql(me), " OR ")}) ${keyset}
    ORDER BY p.publish_at DESC, p.id DESC
    LIMIT ${take}`;
}

/** Which snapshot a page reads: the one a cursor names, or the caller's young one (reused without a cursor). */
export type SnapshotRef = { id: string } | { youngerThanSeconds: number };

export type SnapshotPageRow = Partial<FeedRow> & { snapshotId: string; size: number; position: number | null };

/**
 * Positions [from, from + take) of a snapshot of `viewer`'s, with their posts under the visibility rule, in rank
 * order: one statement. It reads the snapshot row (the caller's own and not older than `ttlMinutes`), the one or two
 * chunks the positions fall in (primary key), and the posts by primary key. Answers no row when there is no such
 * snapshot; one row with a null `position` when there is but none of its posts in the range is visible. A young
 * snapshot is only reused while the fan's analyticsPersonalization is on (read in the same statement).
 */
export function snapshotPage(db: RawDb | DbTx, viewer: Viewer & object, ref: SnapshotRef, from: number, take: number, ttlMinutes: number) {
  const me = Prisma.sql`${viewer.id}::uuid`;
  const snapshot =
    "id" in ref
      ? Prisma.sql`SELECT id, size FROM feed_snapshots
          WHERE id = ${ref.id}::uuid AND user_id = ${me} AND created_at > now() - make_interval(mins => ${ttlMinutes})`
      : Prisma.sql`SELECT id, size FROM feed_snapshots
          WHERE user_id = ${me} AND created_at > now() - make_interval(secs => ${ref.youngerThanSeconds})
            AND EXISTS (SELECT 1 FROM users WHERE id = ${me} AND analytics_personalization)
          ORDER BY created_at DESC LIMIT 1`;
  const first = Math.floor(from / SNAPSHOT_CHUNK);
  const last = Math.floor((from + take - 1) / SNAPSHOT_CHUNK);
  return raw(db).$queryRaw<SnapshotPageRow[]>`
    WITH s AS (${snapshot}),
    ids AS (
      SELECT c.chunk * ${SNAPSHOT_CHUNK} + i - 1 AS position, encode(substring(c.post_ids FROM (i - 1) * 16 + 1 FOR 16), 'hex')::uuid AS post_id
      FROM s JOIN feed_snapshot_chunks c ON c.snapshot_id = s.id AND c.chunk BETWEEN ${first} AND ${last}
      CROSS JOIN LATERAL generate_series(1, length(c.post_ids) / 16) AS i
    ),
    page AS (
      ${selectPosts(viewer, Prisma.sql`${markColumns(viewer)}, ids.position`)}
      JOIN ids ON ids.post_id = p.id
      WHERE ids.position >= ${from} AND ids.position < ${from + take} AND ${visiblePostSql(viewer)} ${liveForStaff(viewer)}
    )
    SELECT s.id::text AS "snapshotId", s.size, page.* FROM s LEFT JOIN page ON true ORDER BY page.position`;
}

/** Ranks the pool for the viewer into a new snapshot (one statement, see ranking.ts); answers its size. */
export async function createSnapshot(db: Db, viewer: Viewer & object, snapshotId: string, ttlMinutes: number): Promise<number> {
  const [row] = await raw(db).$queryRaw<{ size: number }[]>`${rankIntoSnapshotSql(viewer, snapshotId, ttlMinutes)}`;
  return row?.size ?? 0;
}

/** Whether the fan's analyticsPersonalization setting is on (false for no such user). */
export async function personalizationOn(db: RawDb | DbTx, userId: string): Promise<boolean> {
  const [row] = await raw(db).$queryRaw<{ on: boolean }[]>`SELECT analytics_personalization AS on FROM users WHERE id = ${userId}::uuid`;
  return row?.on ?? false;
}

/** The teams the fan follows or joined (live ones), by name: the team feeds they can open. */
export function followedOrJoinedTeams(db: RawDb | DbTx, userId: string) {
  return raw(db).$queryRaw<{ id: string; name: string }[]>`
    SELECT t.id, t.name FROM teams t
    WHERE t.archived_at IS NULL AND t.id IN (SELECT team_id FROM team_follows WHERE user_id = ${userId}::uuid
                                            UNION SELECT team_id FROM team_members WHERE user_id = ${userId}::uuid)
    ORDER BY t.name, t.id`;
}
