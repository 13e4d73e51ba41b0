import { Prisma } from "../../generated/prisma/client";
import type { Db, DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { visiblePostSql, type Viewer } from "../../core/visibility/service";
import { selectPosts, type PostRow } from "../lockerroom/service";
import { filtersVersionSql, mutedAuthorSql } from "../../core/mutes/service";
import { REACTION_KINDS } from "../reactions/schemas";
import {
  FRESHNESS_HALF_LIFE_HOURS,
  POOL_AFFINITY_AUTHORS,
  POOL_FRESH,
  POOL_MAX_AGE_DAYS,
  POOL_PER_AFFINITY_AUTHOR,
  POOL_PER_FOLLOWED_FAN,
  POOL_PER_TEAM,
  SIGNAL_WEIGHTS,
  SIGNAL_WINDOW_DAYS,
  SNAPSHOT_CHUNK,
  WEIGHTS,
} from "./ranking";

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

// The for-you ranking (its numbers are ranking.ts's) ------------------------------------------------------------------

const W = SIGNAL_WEIGHTS;

/**
 * The fan's signals as (author, team, weight, hidden post) rows: each event of the last SIGNAL_WINDOW_DAYS about a
 * post (its author and team from the post), a user (the author) or a team.
 */
const signalRowsSql = (me: Prisma.Sql) => Prisma.sql`
  SELECT CASE WHEN e.item_type = 'post' THEN sp.author_id WHEN e.item_type = 'user' AND e.item_id ~ ${UUID_RE} THEN e.item_id::uuid END AS author_id,
         CASE WHEN e.item_type = 'post' THEN COALESCE(sp.team_id, sp.author_team_id) WHEN e.item_type = 'team' THEN e.item_id ELSE e.team_id END AS team_id,
         CASE e.type
           WHEN 'like' THEN ${W.like}::float8 WHEN 'share' THEN ${W.share}::float8 WHEN 'save' THEN ${W.save}::float8
           WHEN 'click' THEN ${W.click}::float8 WHEN 'view' THEN ${W.view}::float8 WHEN 'unlike' THEN ${W.unlike}::float8
           WHEN 'hide' THEN ${W.hide}::float8
           WHEN 'dwell' THEN ${W.dwellPer10s}::float8 * least(COALESCE(e.duration_ms, 0), 30000) / 10000.0
           ELSE 0::float8 END AS w,
         CASE WHEN e.type = 'hide' AND e.item_type = 'post' THEN sp.id END AS hidden_post
  FROM feed_signal_events e
  LEFT JOIN posts sp ON e.item_type = 'post' AND e.item_id ~ ${UUID_RE} AND sp.id = e.item_id::uuid
  WHERE e.user_id = ${me} AND e.received_at > now() - make_interval(days => ${SIGNAL_WINDOW_DAYS})`;

/** The candidates' columns the score reads (the pool carries them, so the posts are read once). */
const COLS = Prisma.sql`p.id, p.author_id, p.team_id, p.author_team_id, p.publish_at, p.comment_count, p.reaction_counts`;

const UUID_RE = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/**
 * The statement that ranks the pool for `viewer` (signed in) and stores it as snapshot `snapshotId`: chunks of
 * SNAPSHOT_CHUNK ids in rank order, and the snapshot row with its size. `personalized` false ranks by freshness and
 * engagement only (no signals, no follows): not used by the service today (a fan with personalization off gets the
 * chronological feed), kept for the bench's comparison. It also deletes up to 20 expired snapshots (any fan's).
 */
export function rankIntoSnapshotSql(viewer: Viewer & object, snapshotId: string, ttlMinutes: number): Prisma.Sql {
  const me = Prisma.sql`${viewer.id}::uuid`;
  return Prisma.sql`${rankedSql(viewer)},
    ${storeSql(me, snapshotId, Prisma.sql`SELECT count(*)::int FROM ranked`, Prisma.sql`SELECT chunk, string_agg(uuid_send(id), ''::bytea ORDER BY pos) FROM ranked GROUP BY chunk`, ttlMinutes)}`;
}

/** The ranking's CTEs, up to `ranked` (id, pos, chunk): reads only, so a replica can run them (rankedChunks). */
function rankedSql(viewer: Viewer & object): Prisma.Sql {
  const me = Prisma.sql`${viewer.id}::uuid`;
  const live = Prisma.sql`${visiblePostSql(viewer)} AND p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()
    AND NOT ${mutedAuthorSql(viewer.id, Prisma.sql`p.author_id`)}`;
  const since = Prisma.sql`now() - make_interval(days => ${POOL_MAX_AGE_DAYS})`;
  return Prisma.sql`
    WITH sig AS (${signalRowsSql(me)}),
    author_aff AS (SELECT author_id, sum(w) AS a FROM sig WHERE author_id IS NOT NULL GROUP BY author_id),
    team_aff AS (SELECT team_id, sum(w) AS t FROM sig WHERE team_id IS NOT NULL GROUP BY team_id),
    fans AS (SELECT followee_id AS id FROM user_follows WHERE follower_id = ${me}),
    teams AS (SELECT team_id AS id FROM team_follows WHERE user_id = ${me} UNION SELECT team_id FROM team_members WHERE user_id = ${me}),
    cand AS (
      -- the freshest posts (the publish_at index, in order)
      (SELECT ${COLS} FROM posts p WHERE ${live} ORDER BY p.publish_at DESC, p.id DESC LIMIT ${POOL_FRESH})
      UNION
      -- followed fans' newest (the author index)
      SELECT x.* FROM fans f CROSS JOIN LATERAL (
        SELECT ${COLS} FROM posts p WHERE p.author_id = f.id AND p.publish_at > ${since} AND ${live}
        ORDER BY p.publish_at DESC, p.id DESC LIMIT ${POOL_PER_FOLLOWED_FAN}) x
      UNION
      -- followed or joined teams' newest (about the team, or posted as it)
      SELECT x.* FROM teams t CROSS JOIN LATERAL (
        (SELECT ${COLS} FROM posts p WHERE p.team_id = t.id AND p.publish_at > ${since} AND ${live} ORDER BY p.publish_at DESC, p.id DESC LIMIT ${POOL_PER_TEAM})
        UNION
        (SELECT ${COLS} FROM posts p WHERE p.author_team_id = t.id AND p.publish_at > ${since} AND ${live} ORDER BY p.publish_at DESC, p.id DESC LIMIT ${POOL_PER_TEAM})) x
      UNION
      -- the authors the fan's signals favour most
      SELECT x.* FROM (SELECT author_id FROM author_aff WHERE a > 0 ORDER BY a DESC, author_id LIMIT ${POOL_AFFINITY_AUTHORS}) aa CROSS JOIN LATERAL (
        SELECT ${COLS} FROM posts p WHERE p.author_id = aa.author_id AND p.publish_at > ${since} AND ${live}
        ORDER BY p.publish_at DESC, p.id DESC LIMIT ${POOL_PER_AFFINITY_AUTHOR}) x
    ),
    scored AS (
      SELECT p.id, ${scoreSql()} AS score
      FROM cand p
      LEFT JOIN author_aff aa ON aa.author_id = p.author_id
      LEFT JOIN team_aff ta ON ta.team_id = COALESCE(p.team_id, p.author_team_id)
      WHERE p.id NOT IN (SELECT hidden_post FROM sig WHERE hidden_post IS NOT NULL)
    ),
    ranked AS (SELECT id, pos, pos / ${SNAPSHOT_CHUNK}::int AS chunk
               FROM (SELECT id, (row_number() OVER (ORDER BY score DESC, id DESC) - 1)::int AS pos FROM scored) r)`;
}

/** Stores snapshot `snapshotId` of `size` posts (a statement) from `chunks` (rows of chunk, ids), deleting up to 20 expired snapshots. */
const storeSql = (me: Prisma.Sql, snapshotId: string, size: Prisma.Sql, chunks: Prisma.Sql, ttlMinutes: number) => Prisma.sql`
    snap AS (INSERT INTO feed_snapshots (id, user_id, size) SELECT ${snapshotId}::uuid, ${me}, (${size}) RETURNING size),
    chunks AS (INSERT INTO feed_snapshot_chunks (snapshot_id, chunk, post_ids) SELECT ${snapshotId}::uuid, c.* FROM (${chunks}) c),
    expired AS (
      DELETE FROM feed_snapshots WHERE id IN (
        SELECT id FROM feed_snapshots WHERE created_at < now() - make_interval(mins => ${ttlMinutes}) ORDER BY created_at LIMIT 20 FOR UPDATE SKIP LOCKED))
    SELECT size FROM snap`;

/** A ranking read on its own (on a replica): each chunk of ids in rank order, as hex; stored by storeRankedSnapshot. */
export type RankedChunk = { chunk: number; ids: string };

/** The for-you ranking of the pool for `viewer` without storing it (reads only: a replica can run it). */
export function rankedChunks(db: RawDb | DbTx, viewer: Viewer & object): Promise<RankedChunk[]> {
  return raw(db).$queryRaw<RankedChunk[]>`${rankedSql(viewer)}
    SELECT chunk, encode(string_agg(uuid_send(id), ''::bytea ORDER BY pos), 'hex') AS ids FROM ranked GROUP BY chunk ORDER BY chunk`;
}

/** Stores a ranking read elsewhere (rankedChunks) as snapshot `snapshotId` (one statement); answers its size. */
export async function storeRankedSnapshot(db: RawDb | DbTx, viewer: Viewer & object, snapshotId: string, chunks: RankedChunk[], ttlMinutes: number) {
  const me = Prisma.sql`${viewer.id}::uuid`;
  const size = chunks.reduce((n, c) => n + c.ids.length / 32, 0);
  const rows = Prisma.sql`SELECT chunk, decode(ids, 'hex') FROM unnest(${chunks.map((c) => c.chunk)}::int[], ${chunks.map((c) => c.ids)}::text[]) AS r(chunk, ids)`;
  const [row] = await raw(db).$queryRaw<{ size: number }[]>`WITH ${storeSql(me, snapshotId, Prisma.sql`SELECT ${size}::int`, rows, ttlMinutes)}`;
  return row?.size ?? 0;
}

/**
 * A candidate's score (posts `p`, the fan's author affinity `aa.a` and team affinity `ta.t`, followed fans `fans`
 * and teams `teams`):
 *
 *   score = freshness × (1 + 0.2·ln(1 + engagement)) × boost / (1 + max(0, −A))
 *   freshness = 2^(−age hours / 12)
 *   engagement = comments + reactions on the post row
 *   boost = 1 + 1·[follows the author] + 0.5·[follows or joined the post's team]
 *             + 0.5·ln(1 + max(0, A)) + 0.25·ln(1 + max(0, T))
 *   A, T = the summed signal weights (SIGNAL_WEIGHTS) on the post's author and team.
 */
function scoreSql(): Prisma.Sql {
  const w = WEIGHTS;
  // Per known kind (jsonb_each_text per row cost 7× as much over the pool).
  const reactionsTotal = Prisma.join(
    REACTION_KINDS.map((k) => Prisma.sql`COALESCE((p.reaction_counts->>${Prisma.raw(`'${k}'`)})::int, 0)`),
    " + ",
  );
  return Prisma.sql`(
    power(2::float8, -extract(epoch FROM (now() - p.publish_at))::float8 / ${FRESHNESS_HALF_LIFE_HOURS * 3600}::float8)
    * (1 + ${w.engagement}::float8 * ln(1 + p.comment_count + ${reactionsTotal}))
    * (1 + ${w.followsAuthor}::float8 * (p.author_id IN (SELECT id FROM fans))::int
         + ${w.followsTeam}::float8 * COALESCE(p.team_id IN (SELECT id FROM teams) OR p.author_team_id IN (SELECT id FROM teams), false)::int
         + ${w.authorAffinity}::float8 * ln(1 + greatest(COALESCE(aa.a, 0), 0))
         + ${w.teamAffinity}::float8 * ln(1 + greatest(COALESCE(ta.t, 0), 0)))
    / (1 + greatest(-COALESCE(aa.a, 0), 0))
  )`;
}

/** Ranks the pool for the viewer into a new snapshot (one statement, rankIntoSnapshotSql); answers its size. */
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
