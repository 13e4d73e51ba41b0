import { Prisma } from "../../generated/prisma/client";
import { visiblePostSql, type Viewer } from "../../core/visibility/service";
import { mutedAuthorSql } from "../../core/mutes/service";
import { REACTION_KINDS } from "../reactions/schemas";

// The for-you ranking (docs/domains/feeds.md, "Ranking"; decision 0053). One statement ranks a bounded candidate pool
// for a fan and stores the order as a snapshot; pages then read positions of that frozen order. Every number the
// formula uses is here.

/** The freshest posts the viewer may see, whoever wrote them: the pool's main source. */
export const POOL_FRESH = 25_000;
/** Newest posts of each followed fan, and of each followed or joined team, added to the pool. */
export const POOL_PER_FOLLOWED_FAN = 200;
export const POOL_PER_TEAM = 1_000;
/** Newest posts of each of the (at most POOL_AFFINITY_AUTHORS) authors the fan's signals favour, added to the pool. */
export const POOL_AFFINITY_AUTHORS = 50;
export const POOL_PER_AFFINITY_AUTHOR = 200;
/** Signals read: the fan's events received in the last SIGNAL_WINDOW_DAYS. */
export const SIGNAL_WINDOW_DAYS = 30;
/** Followed sources and signal authors reach back this far. */
export const POOL_MAX_AGE_DAYS = 30;

/** The weight of each signal type toward the author (and team) of the item it is about. */
export const SIGNAL_WEIGHTS = {
  like: 3,
  share: 3,
  save: 2,
  click: 0.5,
  view: 0.5,
  /** dwell: per 10 s of durationMs, at most 30 s counted (so at most 3). */
  dwellPer10s: 1,
  unlike: -3,
  /** hide: the post itself leaves the ranking, and its author is pushed down. */
  hide: -4,
  impression: 0,
} as const;

/** Freshness halves every FRESHNESS_HALF_LIFE_HOURS. */
export const FRESHNESS_HALF_LIFE_HOURS = 12;
/** The factors of the score (see scoreSql). */
export const WEIGHTS = {
  engagement: 0.2,
  followsAuthor: 1,
  followsTeam: 0.5,
  authorAffinity: 0.5,
  teamAffinity: 0.25,
} as const;

/** Snapshot chunks hold this many ids (16 bytes each). */
export const SNAPSHOT_CHUNK = 100;

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
               FROM (SELECT id, (row_number() OVER (ORDER BY score DESC, id DESC) - 1)::int AS pos FROM scored) r),
    snap AS (INSERT INTO feed_snapshots (id, user_id, size) SELECT ${snapshotId}::uuid, ${me}, count(*)::int FROM ranked RETURNING size),
    chunks AS (
      INSERT INTO feed_snapshot_chunks (snapshot_id, chunk, post_ids)
      SELECT ${snapshotId}::uuid, chunk, string_agg(uuid_send(id), ''::bytea ORDER BY pos) FROM ranked GROUP BY chunk),
    expired AS (
      DELETE FROM feed_snapshots WHERE id IN (
        SELECT id FROM feed_snapshots WHERE created_at < now() - make_interval(mins => ${ttlMinutes}) ORDER BY created_at LIMIT 20 FOR UPDATE SKIP LOCKED))
    SELECT size FROM snap`;
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
