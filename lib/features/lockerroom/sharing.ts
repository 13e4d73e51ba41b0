import type { AuthUser } from "../../auth/users";
import type { DbTx } from "../../db/client";
import { DomainError, notFound } from "../../kernel/errors";
import type { TeamSummaryRow } from "../../core/teams/service";
import { visiblePost, type VisiblePost } from "../../core/visibility/service";
import { errors as lockerroomErrors } from "./errors";
import type { QuotedRow, SharingColumns } from "./sharing-queries";

// Reply controls, reposts and quotes as a post shows them (policy.ts, reposts.ts): the interaction policy's values,
// the API's fields for the policy and the quoted post, and the rule that a post may be shared. The columns and joins
// that read them with every post are sharing-queries.ts.

export const COMMENT_POLICIES = ["everyone", "followers", "team_fans", "nobody"] as const;
export type CommentPolicy = (typeof COMMENT_POLICIES)[number];
export const commentPolicyOf = (db: string) => db.toLowerCase() as CommentPolicy;
export const commentPolicyDb = (p: CommentPolicy) => p.toUpperCase() as "EVERYONE" | "FOLLOWERS" | "TEAM_FANS" | "NOBODY";

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
