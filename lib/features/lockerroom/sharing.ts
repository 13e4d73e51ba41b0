import { Prisma } from "../../generated/prisma/client";
import type { AuthUser } from "../../auth/users";
import type { DbTx } from "../../db/client";
import { DomainError, notFound } from "../../kernel/errors";
import { actorJsonSql, actorNameSql, insertNotifications, recipientAcceptsSql, threadNotMutedSql } from "../../core/notifications/service";
import type { TeamSummaryRow } from "../../core/teams/service";
import { TEAM_FAN, visiblePost, visiblePostSql, type Viewer, type VisiblePost } from "../../core/visibility/service";
import { errors as lockerroomErrors } from "./errors";

// The parts of a post's read that reply controls, reposts and quotes add (policy.ts, reposts.ts): columns and joins
// selectPosts (queries.ts) puts in every statement that reads posts, so a feed page, a detail, a bookmark list or a
// quote list shows them without another query. The quoted post is read under the one visibility rule
// (visiblePostSql), per viewer, in the same statement: a quote never shows what its reader may not see.

export const COMMENT_POLICIES = ["everyone", "followers", "team_fans", "nobody"] as const;
export type CommentPolicy = (typeof COMMENT_POLICIES)[number];
export const commentPolicyOf = (db: string) => db.toLowerCase() as CommentPolicy;
export const commentPolicyDb = (p: CommentPolicy) => p.toUpperCase() as "EVERYONE" | "FOLLOWERS" | "TEAM_FANS" | "NOBODY";

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

/** Every team a page of posts shows, their quoted posts' included (for teamSummaries). */
export const postTeamIds = (rows: { authorTeamId: string | null; teamId: string | null; quoted?: QuotedRow | null }[]) =>
  rows.flatMap((r) => [r.authorTeamId, r.teamId, r.quoted?.authorTeamId ?? null, r.quoted?.teamId ?? null]);

const iso = (s: string | null) => (s === null ? null : new Date(s).toISOString());
const teamOf = (teams: Map<string, TeamSummaryRow>, id: string | null) => (id === null ? null : (teams.get(id) ?? null));

/** The API's fields for the post's policy and quote (toPost adds the counts and the viewer's flags). */
export function toSharing(row: SharingColumns, teams: Map<string, TeamSummaryRow>) {
  const q = row.quoted;
  return {
    interactionPolicy: { comments: commentPolicyOf(row.commentPolicy) },
    quotedPost:
      row.quotedPostId === null
        ? null
        : q
          ? {
              id: q.id,
              unavailable: false as const,
              detached: false as const,
              author: { id: q.authorId, handle: q.handle, displayName: q.displayName, avatarUrl: q.avatarUrl },
              authorTeam: teamOf(teams, q.authorTeamId),
              team: teamOf(teams, q.teamId),
              content: q.content,
              imageUrl: q.imageUrl,
              media: (q.media ?? []) as never[],
              visibility: q.visibility === "PRIVATE" ? ("private" as const) : ("public" as const),
              publishAt: iso(q.publishAt)!,
              editedAt: iso(q.editedAt),
            }
          : { id: row.quotedPostId, unavailable: true as const, detached: row.quoteDetached },
  };
}

/**
 * A post may be reposted or quoted when the caller may see it (else 404, as reading it), it is live (staff see
 * deleted and hidden posts; nobody shares them: 404), public and published (409 POST_NOT_SHAREABLE: a private post
 * is for its team's fans only, and a repost or quote would carry it further).
 */
export function assertShareable(post: VisiblePost, now = new Date()) {
  if (post.deletedAt || post.hiddenAt) throw notFound("Post");
  if (post.visibility !== "PUBLIC") {
    throw new DomainError(lockerroomErrors.POST_NOT_SHAREABLE, "A private post cannot be reposted or quoted: it is for its team's fans only.");
  }
  if (post.publishAt > now) throw new DomainError(lockerroomErrors.POST_NOT_SHAREABLE, "This post is not published yet: it cannot be reposted or quoted.");
}

/** In a new quote's transaction: locks the quoted post (its quote_count moves by trigger) after checking it may be quoted. */
export async function lockQuotable(tx: DbTx, user: AuthUser, postId: string) {
  assertShareable(await visiblePost(tx, postId, user, { forUpdate: true }));
}

/**
 * Tells a post's author that a fan reposted (REPOST, once per fan and post, grouped per post like REACTION) or quoted
 * it (QUOTE, once per quote): with their notifyCommunity on, never for their own action, not across a block, not when
 * they muted the post's thread or the fan (lib/core/mutes). Written in the repost's or the quote's transaction.
 */
export const notifyRepost = (tx: DbTx, postId: string, userId: string) =>
  insertNotifications(tx, {
    type: "REPOST",
    recipient: Prisma.sql`p.author_id`,
    cause: Prisma.sql`'repost:' || p.id || ':' || a.id`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('postId', p.id::text, 'actor', ${actorJsonSql()},
                              'title', ${actorNameSql()} || ' reposted your post', 'body', left(p.content, 140),
                              'href', '/api/locker-room/' || p.id)`,
    from: Prisma.sql`FROM posts p JOIN users u ON u.id = p.author_id JOIN users a ON a.id = ${userId}::uuid
    WHERE p.id = ${postId}::uuid AND ${notifiable}`,
  });

export const notifyQuote = (tx: DbTx, quoteId: string) =>
  insertNotifications(tx, {
    type: "QUOTE",
    recipient: Prisma.sql`p.author_id`,
    cause: Prisma.sql`'quote:' || q.id`,
    actor: Prisma.sql`a.id`,
    payload: Prisma.sql`jsonb_build_object('postId', p.id::text, 'quotePostId', q.id::text, 'actor', ${actorJsonSql()},
                              'title', ${actorNameSql()} || ' quoted your post', 'body', left(q.content, 140),
                              'href', '/api/locker-room/' || q.id)`,
    from: Prisma.sql`FROM posts q JOIN posts p ON p.id = q.quoted_post_id JOIN users u ON u.id = p.author_id JOIN users a ON a.id = q.author_id
    WHERE q.id = ${quoteId}::uuid AND ${notifiable}`,
  });

/** Over the post `p`, its author `u` and the actor `a`: the author wants this notification. */
const notifiable = Prisma.sql`p.author_id <> a.id AND u.notify_community
      AND ${recipientAcceptsSql(Prisma.sql`u.id`, Prisma.sql`a.id`)}
      AND ${threadNotMutedSql(Prisma.sql`p.author_id`, Prisma.sql`p.id`)}`;
