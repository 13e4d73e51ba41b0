import { Prisma } from "../../generated/prisma/client";
import type { AuthUser } from "../../auth/users";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
import { TEAM_FAN, visiblePostSql, type Viewer } from "../../core/visibility/service";

// The parts of a post's read that reply controls, reposts and quotes add (policy.ts, reposts.ts): columns and joins
// selectPosts (queries.ts) puts in every statement that reads posts, so a feed page, a detail, a bookmark list or a
// quote list shows them without another query. The quoted post is read under the one visibility rule
// (visiblePostSql), per viewer, in the same statement: a quote never shows what its reader may not see.

/**
 * SQL condition over a post aliased `p`: the viewer may comment on it under its interaction policy. The author, and
 * for a post posted as a team its staff accounts (and staff, as for posting as the team), always may; otherwise
 * `everyone`; `followers`: the fans who follow the author (for a team's post, the team's followers); `team_fans`: the
 * fans who follow or joined the post's team (the rule of private posts); `nobody`. Signed out: never. Visibility is
 * not part of it (a post the viewer may not see is 404 before this is asked).
 */
export function commentAllowedSql(viewer: Viewer): Prisma.Sql {
  if (!viewer) return Prisma.sql`false`;
  const me = Prisma.sql`${viewer.id}::uuid`;
  const teamStaff = viewer.isAdmin
    ? Prisma.sql`true`
    : Prisma.sql`EXISTS (SELECT 1 FROM team_staff s WHERE s.user_id = ${me} AND s.team_id = p.author_team_id)`;
  return Prisma.sql`(CASE
    WHEN p.author_id = ${me} OR p.comment_policy = 'EVERYONE' THEN true
    WHEN p.author_team_id IS NOT NULL AND ${teamStaff} THEN true
    WHEN p.comment_policy = 'NOBODY' THEN false
    WHEN p.comment_policy = 'FOLLOWERS' THEN
      CASE WHEN p.author_team_id IS NULL
           THEN EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = ${me} AND f.followee_id = p.author_id)
           ELSE EXISTS (SELECT 1 FROM team_follows f WHERE f.user_id = ${me} AND f.team_id = p.author_team_id) END
    ELSE ${TEAM_FAN(me)} END)`;
}

/** The post's interaction policy and whether the user may comment under it (commentAllowedSql); none for no such post. */
export async function commentPermission(db: RawDb | DbTx, user: AuthUser, postId: string) {
  const [row] = await raw(db).$queryRaw<{ policy: string; allowed: boolean }[]>`
    SELECT p.comment_policy::text AS policy, ${commentAllowedSql(user)} AS allowed FROM posts p WHERE p.id = ${postId}::uuid`;
  return row;
}

/** The quoted post as a quote embeds it, when its reader may see it. */
export interface QuotedRow {
  id: string;
  authorId: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  authorTeamId: string | null;
  teamId: string | null;
  content: string;
  imageUrl: string | null;
  media: unknown[] | null;
  visibility: "PUBLIC" | "PRIVATE";
  publishAt: string;
  editedAt: string | null;
}

/** The columns sharingColumns adds to a post row. */
export interface SharingColumns {
  commentPolicy: string;
  canComment: boolean;
  repostCount: number;
  quoteCount: number;
  reposted: boolean;
  quotedPostId: string | null;
  quoteDetached: boolean;
  /** The quoted post, when the viewer may see it and the quote is not detached. */
  quoted: QuotedRow | null;
}

/** Columns over `p` (and the joins of sharingJoins): policy, counts, the viewer's repost, the quoted post. */
export function sharingColumns(viewer: Viewer): Prisma.Sql {
  return Prisma.sql`, p.comment_policy::text AS "commentPolicy", ${commentAllowedSql(viewer)} AS "canComment",
           p.repost_count AS "repostCount", p.quote_count AS "quoteCount", ${viewer ? Prisma.sql`(vrp.user_id IS NOT NULL)` : Prisma.sql`false`} AS reposted,
           p.quoted_post_id::text AS "quotedPostId", (p.quote_detached_at IS NOT NULL) AS "quoteDetached", ${quotedSql(viewer)} AS quoted`;
}

/**
 * The quoted post for this viewer under visiblePostSql, or null: a subquery run only for a quote that is not detached
 * (most posts quote nothing and pay nothing). The rule is written over `p`, so the quoted post is `p` inside it and
 * the quoting post's reference comes in through the `qref` lateral of sharingJoins.
 */
function quotedSql(viewer: Viewer): Prisma.Sql {
  return Prisma.sql`CASE WHEN qref.id IS NOT NULL AND qref.detached_at IS NULL THEN (
      SELECT json_build_object('id', p.id::text, 'authorId', p.author_id::text, 'handle', u.handle, 'displayName', u.display_name,
                               'avatarUrl', u.avatar_url, 'authorTeamId', p.author_team_id, 'teamId', p.team_id, 'content', p.content,
                               'imageUrl', p.image_url, 'media', p.media, 'visibility', p.visibility, 'publishAt', p.publish_at,
                               'editedAt', p.edited_at)
      FROM posts p JOIN users u ON u.id = p.author_id
      WHERE p.id = qref.id AND ${visiblePostSql(viewer)}) END`;
}

/**
 * The joins sharingColumns reads: the viewer's repost (primary key; none signed out), and the quoting post's reference
 * (`qref`: its quoted post and whether the quote was detached) for the quoted post's subquery.
 */
export function sharingJoins(viewer: Viewer): Prisma.Sql {
  const viewerRepost = viewer ? Prisma.sql`LEFT JOIN post_reposts vrp ON vrp.post_id = p.id AND vrp.user_id = ${viewer.id}::uuid` : Prisma.empty;
  return Prisma.sql`
    ${viewerRepost}
    LEFT JOIN LATERAL (SELECT p.quoted_post_id AS id, p.quote_detached_at AS detached_at) qref ON true`;
}
