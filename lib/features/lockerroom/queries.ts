import { Prisma } from "../../generated/prisma/client";
import type { AuthUser } from "../../auth/users";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { filtersVersionSql, mutedAuthorSql, notMutedActorSql } from "../../core/mutes/service";
import { insertNotifications } from "../../core/notifications/service";
import { TEAM_SUMMARY_COLUMNS } from "../../core/teams/service";
import { visiblePostSql, type Viewer } from "../../core/visibility/service";
import { sharingColumns, sharingJoins, type SharingColumns } from "./sharing-queries";

// The locker room's statements. A post is always read with its author, poll and the viewer's own reaction and vote,
// by one statement for a whole page (joins, never a query per post); its teams' summaries come from the teams
// module's cache (teamSummaries).

export interface PostRow extends SharingColumns {
  id: string;
  authorId: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  /** The teams' summaries come from the teams module (teamSummaries, cached per team), not from this statement. */
  authorTeamId: string | null;
  teamId: string | null;
  content: string;
  imageUrl: string | null;
  media: unknown[] | null;
  collectible: unknown;
  lineup: unknown;
  visibility: "PUBLIC" | "PRIVATE";
  publishAt: Date;
  scheduled: boolean;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  hiddenAt: Date | null;
  commentCount: number;
  reactionCounts: Record<string, number>;
  pollOptions: string[] | null;
  pollMultiple: boolean | null;
  pollClosesAt: Date | null;
  pollVoteCounts: number[] | null;
  pollVoters: number | null;
  myReaction: string | null;
  myVotes: number[] | null;
}

/** The post columns and joins (and `extra` columns); `viewer` null reads no reaction or vote. */
export function selectPosts(viewer: Viewer, extra: Prisma.Sql = Prisma.empty) {
  const me = viewer ? Prisma.sql`${viewer.id}::uuid` : Prisma.sql`NULL::uuid`;
  return Prisma.sql`
    SELECT p.id::text AS id, p.author_id::text AS "authorId", u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl",
           p.author_team_id AS "authorTeamId", p.team_id AS "teamId",
           p.content, p.image_url AS "imageUrl", p.media, p.collectible, p.lineup, p.visibility::text AS visibility,
           p.publish_at AS "publishAt", p.scheduled, p.created_at AS "createdAt", p.edited_at AS "editedAt",
           p.deleted_at AS "deletedAt", p.hidden_at AS "hiddenAt", p.comment_count AS "commentCount", p.reaction_counts AS "reactionCounts",
           pp.options AS "pollOptions", pp.multiple AS "pollMultiple", pp.closes_at AS "pollClosesAt",
           pp.vote_counts AS "pollVoteCounts", pp.voters_count AS "pollVoters",
           r.kind AS "myReaction", v.choices AS "myVotes" ${sharingColumns(viewer)} ${extra}
    FROM posts p
    JOIN users u ON u.id = p.author_id
    LEFT JOIN post_polls pp ON pp.post_id = p.id
    LEFT JOIN post_reactions r ON r.post_id = p.id AND r.user_id = ${me}
    LEFT JOIN poll_voters v ON v.post_id = p.id AND v.user_id = ${me}
    ${sharingJoins(viewer)}`;
}

export interface FeedFilter {
  teamId?: string;
  authorId?: string;
  /** Only posts about or by the teams the user follows, and posts by the fans they follow. */
  followingOf?: string;
  after?: { at: Date; id: string };
  take: number;
}

/**
 * A page of the feed, newest first by (publish_at, id): the index on (publish_at DESC, id DESC) is read in order, so
 * page 1,000 costs what page 1 does. Visibility (published, not deleted or hidden, private, blocks) is the shared rule.
 * Each row says whether the viewer mutes its author (`muted`) and carries the viewer's filters version (lib/core/mutes):
 * the scan stays `take` rows and the caller leaves muted and filtered ones out, so a page may be short but its cursor
 * never skips a post.
 */
export function feedPage(db: RawDb | DbTx, viewer: Viewer, f: FeedFilter) {
  const where: Prisma.Sql[] = [visiblePostSql(viewer)];
  // Staff see every post through visiblePostSql; the feed still lists only published, live ones.
  if (viewer?.isAdmin) where.push(Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`);
  if (f.teamId) where.push(Prisma.sql`(p.team_id = ${f.teamId} OR p.author_team_id = ${f.teamId})`);
  if (f.authorId) where.push(Prisma.sql`p.author_id = ${f.authorId}::uuid`);
  if (f.followingOf) {
    // Each set is read once per statement into a hash (team_follows and user_follows, both indexed by the follower first),
    // and the posts index (publish_at, id) is read in order: a keyset read whatever the page.
    const followed = Prisma.sql`(SELECT team_id FROM team_follows WHERE user_id = ${f.followingOf}::uuid)`;
    const fans = Prisma.sql`(SELECT followee_id FROM user_follows WHERE follower_id = ${f.followingOf}::uuid)`;
    where.push(Prisma.sql`(p.team_id IN ${followed} OR p.author_team_id IN ${followed} OR p.author_id IN ${fans})`);
  }
  if (f.after) where.push(Prisma.sql`(p.publish_at, p.id) < (${f.after.at}, ${f.after.id}::uuid)`);
  const extra = Prisma.sql`, ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted, ${filtersVersionSql(viewer?.id)} AS "filtersVersion"`;
  return raw(db).$queryRaw<(PostRow & { muted: boolean; filtersVersion: number })[]>`
    ${selectPosts(viewer, extra)}
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY p.publish_at DESC, p.id DESC
    LIMIT ${f.take}`;
}

/** One post as the viewer may see it (none when they may not). */
export async function postById(db: RawDb | DbTx, viewer: Viewer, postId: string): Promise<PostRow | undefined> {
  const [row] = await raw(db).$queryRaw<PostRow[]>`${selectPosts(viewer)} WHERE p.id = ${postId}::uuid AND ${visiblePostSql(viewer)}`;
  return row;
}

/** The author's scheduled posts not yet published, soonest first. */
export function scheduledPage(db: RawDb | DbTx, author: Viewer & object, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (p.publish_at, p.id) > (${after.at}, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<PostRow[]>`
    ${selectPosts(author)}
    WHERE p.author_id = ${author.id}::uuid AND p.scheduled AND p.publish_at > now() AND p.deleted_at IS NULL ${keyset}
    ORDER BY p.publish_at, p.id
    LIMIT ${take}`;
}

export interface NewPost {
  authorId: string;
  authorTeamId: string | null;
  teamId: string | null;
  content: string;
  imageUrl: string | null;
  collectible: unknown;
  lineup: unknown;
  visibility: "PUBLIC" | "PRIVATE";
  publishAt: Date;
  scheduled: boolean;
  idempotencyKey: string | null;
  requestHash: string | null;
  /** A quote: the post it quotes (reposts.ts checks it may be quoted). */
  quotedPostId?: string | null;
  /** ISO 639-1 or null: picks the post's text-search configuration (the generated posts.search_vector). */
  language?: string | null;
}

/** Inserts the post; none when the author already used the idempotency key (the first post stands). */
export async function insertPost(tx: DbTx, p: NewPost): Promise<string | undefined> {
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO posts (id, author_id, author_team_id, team_id, content, image_url, collectible, lineup, visibility, publish_at, scheduled,
                       idempotency_key, request_hash, quoted_post_id, language)
    VALUES (${UUIDV7_SQL}, ${p.authorId}::uuid, ${p.authorTeamId}, ${p.teamId}, ${p.content}, ${p.imageUrl}, ${json(p.collectible)}::jsonb,
            ${json(p.lineup)}::jsonb, ${p.visibility}::"PostVisibility", ${p.publishAt}, ${p.scheduled}, ${p.idempotencyKey}, ${p.requestHash},
            ${p.quotedPostId ?? null}::uuid, ${p.language ?? null})
    ON CONFLICT (author_id, idempotency_key) DO NOTHING
    RETURNING id::text AS id`;
  return row?.id;
}

/** The post an author made with an idempotency key, and the request hash it came with. */
export async function postByIdempotencyKey(db: RawDb | DbTx, authorId: string, key: string) {
  const [row] = await raw(db).$queryRaw<{ id: string; requestHash: string | null }[]>`
    SELECT id::text AS id, request_hash AS "requestHash" FROM posts WHERE author_id = ${authorId}::uuid AND idempotency_key = ${key}`;
  return row;
}

/** The attached uploads as the post stores them, in the given order. */
export async function setPostMedia(tx: DbTx, postId: string, items: { uploadId: string; alt?: string }[]) {
  await tx.$executeRaw`
    UPDATE posts SET media = (
      SELECT jsonb_agg(jsonb_build_object('uploadId', m.id::text, 'url', m.url, 'width', m.width, 'height', m.height,
                                          'thumbhash', m.thumbhash, 'alt', i.alt) ORDER BY i.ord)
      FROM jsonb_to_recordset(${JSON.stringify(items.map((m, ord) => ({ id: m.uploadId, alt: m.alt ?? null, ord })))}::jsonb)
           AS i(id uuid, alt text, ord int)
      JOIN media_uploads m ON m.id = i.id)
    WHERE id = ${postId}::uuid`;
}

export const insertPoll = (tx: DbTx, postId: string, options: string[], multiple: boolean, closesAt: Date) =>
  tx.$executeRaw`
    INSERT INTO post_polls (post_id, options, multiple, closes_at, vote_counts)
    VALUES (${postId}::uuid, ${options}::text[], ${multiple}, ${closesAt}, ${options.map(() => 0)}::int[])`;

/** Which of the teams exist and are not archived. */
export async function liveTeams(db: RawDb | DbTx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await raw(db).$queryRaw<{ id: string }[]>`SELECT id FROM teams WHERE id = ANY(${ids}::text[]) AND archived_at IS NULL`;
  return new Set(rows.map((r) => r.id));
}

export async function collectibleExists(db: RawDb | DbTx, c: { type: "player" | "team"; id: string }): Promise<boolean> {
  const rows =
    c.type === "player"
      ? await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM players WHERE id = ${c.id}`
      : await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM teams WHERE id = ${c.id} AND archived_at IS NULL`;
  return rows.length > 0;
}

/**
 * Notifies the followers of a post's author team (notify_teams on; not the author) once: the cause key is the post.
 * `announce` also writes POST_PUBLISHED for the author (a scheduled post going live).
 */
export function notifyPublished(tx: DbTx, postId: string, { announce }: { announce: boolean }) {
  const href = `/api/locker-room/${postId}`;
  return insertNotifications(
    tx,
    [
      {
        type: "TEAM_POST",
        recipient: Prisma.sql`f.user_id`,
        cause: Prisma.sql`'team_post:' || p.id`,
        actor: Prisma.sql`p.author_id`,
        payload: Prisma.sql`jsonb_build_object('postId', p.id::text, 'team', (SELECT to_jsonb(x) FROM (SELECT ${TEAM_SUMMARY_COLUMNS} FROM teams t WHERE t.id = p.author_team_id) x),
                              'title', (SELECT name FROM teams WHERE id = p.author_team_id) || ' posted', 'body', p.excerpt, 'href', ${href}::text)`,
        from: Prisma.sql`FROM p JOIN team_follows f ON f.team_id = p.author_team_id JOIN users u ON u.id = f.user_id
    WHERE u.notify_teams AND f.user_id <> p.author_id AND ${notMutedActorSql(Prisma.sql`f.user_id`, Prisma.sql`p.author_id`)}`,
      },
      {
        type: "POST_PUBLISHED",
        recipient: Prisma.sql`p.author_id`,
        cause: Prisma.sql`'post_published:' || p.id`,
        actor: Prisma.sql`p.author_id`,
        payload: Prisma.sql`jsonb_build_object('postId', p.id::text, 'title', 'Your scheduled post is live', 'body', p.excerpt, 'href', ${href}::text)`,
        from: Prisma.sql`FROM p WHERE ${announce}`,
      },
    ],
    Prisma.sql`
    WITH p AS (
      SELECT p.id, p.author_id, p.author_team_id, left(p.content, 140) AS excerpt FROM posts p WHERE p.id = ${postId}::uuid
    )`,
  );
}

export const markAnnounced = (tx: DbTx, postId: string) => tx.$executeRaw`UPDATE posts SET announced_at = now() WHERE id = ${postId}::uuid`;

/** Claims scheduled posts whose time came and whose publication was not announced yet (a bounded batch). */
export function claimDuePosts(tx: DbTx, take: number) {
  return tx.$queryRaw<{ id: string }[]>`
    UPDATE posts SET announced_at = now()
    WHERE id IN (
      SELECT id FROM posts
      WHERE announced_at IS NULL AND scheduled AND publish_at <= now() AND deleted_at IS NULL
      ORDER BY announced_at, publish_at
      LIMIT ${take}
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id`;
}

/** The post's author fields a change needs, locked (FOR UPDATE), whatever its state. */
export async function lockPostRow(tx: DbTx, postId: string) {
  const [row] = await tx.$queryRaw<
    { id: string; authorId: string; content: string; publishAt: Date; scheduled: boolean; deletedAt: Date | null; hasAttachments: boolean }[]
  >`
    SELECT id::text AS id, author_id::text AS "authorId", content, publish_at AS "publishAt", scheduled, deleted_at AS "deletedAt",
           (jsonb_array_length(COALESCE(media, '[]')) > 0 OR collectible IS NOT NULL OR lineup IS NOT NULL
            OR quoted_post_id IS NOT NULL OR EXISTS (SELECT 1 FROM post_polls WHERE post_id = posts.id)) AS "hasAttachments"
    FROM posts WHERE id = ${postId}::uuid FOR UPDATE`;
  return row;
}

export const recordEdit = (tx: DbTx, postId: string, previous: string, content: string) =>
  tx.$executeRaw`
    WITH e AS (INSERT INTO post_edits (id, post_id, content) VALUES (${UUIDV7_SQL}, ${postId}::uuid, ${previous}))
    UPDATE posts SET content = ${content}, edited_at = now() WHERE id = ${postId}::uuid`;

/** A deleted post's author (`deletedBy`; null while the post is live): a repeated delete answers the same. */
export async function deletedPostAuthor(db: RawDb | DbTx, postId: string) {
  const [row] = await raw(db).$queryRaw<{ deletedBy: string | null }[]>`
    SELECT CASE WHEN deleted_at IS NOT NULL THEN author_id::text END AS "deletedBy" FROM posts WHERE id = ${postId}::uuid`;
  return row;
}

export const softDelete = (tx: RawDb | DbTx, postId: string) =>
  raw(tx).$executeRaw`UPDATE posts SET deleted_at = now() WHERE id = ${postId}::uuid AND deleted_at IS NULL`;

/** Moves a scheduled post (and its poll's closing by the same shift). */
export const reschedule = (tx: DbTx, postId: string, to: Date) =>
  tx.$executeRaw`
    WITH old AS (SELECT publish_at FROM posts WHERE id = ${postId}::uuid),
         poll AS (UPDATE post_polls SET closes_at = closes_at + (${to}::timestamptz - (SELECT publish_at FROM old)) WHERE post_id = ${postId}::uuid)
    UPDATE posts SET publish_at = ${to} WHERE id = ${postId}::uuid`;

export function editsPage(db: RawDb | DbTx, postId: string, after: string | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND id > ${after}::uuid` : Prisma.empty;
  return raw(db).$queryRaw<{ id: string; content: string; editedAt: Date }[]>`
    SELECT id::text AS id, content, edited_at AS "editedAt" FROM post_edits WHERE post_id = ${postId}::uuid ${keyset} ORDER BY id LIMIT ${take}`;
}

/** Mutes (or unmutes) a post's thread for a user: no REPLY or REACTION notification about the post reaches them. */
export async function setPostMute(db: RawDb | DbTx, userId: string, postId: string, muted: boolean): Promise<void> {
  if (muted) {
    await raw(db).$executeRaw`INSERT INTO post_mutes (user_id, post_id) VALUES (${userId}::uuid, ${postId}::uuid) ON CONFLICT DO NOTHING`;
  } else {
    await raw(db).$executeRaw`DELETE FROM post_mutes WHERE user_id = ${userId}::uuid AND post_id = ${postId}::uuid`;
  }
}

/** Locks the post's row (FOR UPDATE), whatever its state. */
export const lockPost = (tx: DbTx, postId: string) => tx.$executeRaw`SELECT 1 FROM posts WHERE id = ${postId}::uuid FOR UPDATE`;

// Tags and mentions (indexing.ts) -------------------------------------------------------------------------------------

/** A post's author, text and publication time, as its tags and mentions are indexed from them. */
export async function postToIndex(tx: DbTx, postId: string) {
  const [post] = await tx.$queryRaw<{ authorId: string; content: string; publishAt: Date }[]>`
    SELECT author_id::text AS "authorId", content, publish_at AS "publishAt" FROM posts WHERE id = ${postId}::uuid`;
  return post;
}

/** A comment's post, author and text, as its tags and mentions are indexed from them. */
export async function commentToIndex(tx: DbTx, commentId: string) {
  const [comment] = await tx.$queryRaw<{ postId: string; authorId: string; content: string }[]>`
    SELECT post_id::text AS "postId", author_id::text AS "authorId", content FROM post_comments WHERE id = ${commentId}::uuid`;
  return comment;
}

/** The live accounts (a handle, so not erased) the handle keys name. */
export async function mentionedUsers(tx: DbTx, handles: string[]): Promise<string[]> {
  if (!handles.length) return [];
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM users WHERE handle_key = ANY(${handles}::text[]) AND handle IS NOT NULL ORDER BY id`;
  return rows.map((r) => r.id);
}

// Reposts and quotes (reposts.ts) -------------------------------------------------------------------------------------

type After = { at: Date; id: string } | undefined;

/** The fan's repost of the post (its time) and the post's repost count. */
export async function repostOf(tx: DbTx, userId: string, postId: string) {
  const [row] = await tx.$queryRaw<{ at: Date; count: number }[]>`
    SELECT r.created_at AS at, p.repost_count AS count FROM post_reposts r JOIN posts p ON p.id = r.post_id
    WHERE r.user_id = ${userId}::uuid AND r.post_id = ${postId}::uuid`;
  return row;
}

/** The post's repost count, or null when the user may not see the post. */
export async function visibleRepostCount(tx: DbTx, user: AuthUser, postId: string): Promise<number | null> {
  const [row] = await tx.$queryRaw<{ count: number }[]>`
    SELECT p.repost_count AS count FROM posts p WHERE p.id = ${postId}::uuid AND ${visiblePostSql(user)}`;
  return row?.count ?? null;
}

/** A page of a fan's reposts, newest first by (created_at, post_id), over the index (user_id, created_at DESC, post_id DESC). */
export function repostsPage(db: RawDb | DbTx, viewer: Viewer, userId: string, after: After, take: number) {
  const where: Prisma.Sql[] = [
    Prisma.sql`rr.user_id = ${userId}::uuid`,
    visiblePostSql(viewer),
    // Staff see every post through visiblePostSql; reposts still list only live, published ones.
    Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`,
  ];
  if (after) where.push(Prisma.sql`(rr.created_at, rr.post_id) < (${after.at}, ${after.id}::uuid)`);
  const extra = Prisma.sql`, rr.created_at AS "repostedAt", ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted`;
  return raw(db).$queryRaw<(PostRow & { repostedAt: Date; muted: boolean })[]>`
    ${selectPosts(viewer, extra)}
    JOIN post_reposts rr ON rr.post_id = p.id
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY rr.created_at DESC, rr.post_id DESC
    LIMIT ${take}`;
}

/** A page of the posts quoting a post, newest first by (publish_at, id), over the index (quoted_post_id, publish_at DESC, id DESC). */
export function quotesPage(db: RawDb | DbTx, viewer: Viewer, postId: string, after: After, take: number) {
  const where: Prisma.Sql[] = [
    Prisma.sql`p.quoted_post_id = ${postId}::uuid`,
    Prisma.sql`p.quote_detached_at IS NULL`,
    visiblePostSql(viewer),
    Prisma.sql`p.deleted_at IS NULL AND p.hidden_at IS NULL AND p.publish_at <= now()`,
  ];
  if (after) where.push(Prisma.sql`(p.publish_at, p.id) < (${after.at}, ${after.id}::uuid)`);
  const extra = Prisma.sql`, ${mutedAuthorSql(viewer?.id, Prisma.sql`p.author_id`)} AS muted, ${filtersVersionSql(viewer?.id)} AS "filtersVersion"`;
  return raw(db).$queryRaw<(PostRow & { muted: boolean; filtersVersion: number })[]>`
    ${selectPosts(viewer, extra)}
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY p.publish_at DESC, p.id DESC
    LIMIT ${take}`;
}

// Bookmarks (bookmarks.ts) --------------------------------------------------------------------------------------------

/** A page of the user's bookmarks, newest first by (created_at, post_id), over the index in that order. */
export function bookmarksPage(db: RawDb | DbTx, user: AuthUser, after: After, take: number) {
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
