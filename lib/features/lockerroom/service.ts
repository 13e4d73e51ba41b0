import { createHash } from "node:crypto";
import type { AuthUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { txOptions } from "../../db/tx";
import { IDEMPOTENCY_HEADER } from "../../db/idempotency";
import { decodeIdCursor, decodeUuidTimeCursor, encodeCursor, encodeIdCursor } from "../../kernel/cursor";
import { DomainError, notFound, validationError, sharedErrors } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import type { TeamSummaryRow } from "../../core/teams/service";
import { teamSummaries } from "../../core/teams/service";
import { attachLockerMedia } from "../../core/uploads/service";
import { canPostAsTeam } from "../../core/teams/service";
import { assertMayPost, visiblePost, type Viewer } from "../../core/visibility/service";
import {
  deletedPostAuthor,
  claimDuePosts,
  collectibleExists,
  editsPage,
  feedPage,
  insertPoll,
  insertPost,
  liveTeams,
  lockPostRow,
  markAnnounced,
  notifyPublished,
  postById,
  postByIdempotencyKey,
  recordEdit,
  reschedule,
  scheduledPage,
  setPostMedia,
  softDelete,
  type PostRow,
  setPostMute,
} from "./queries";
import { EDIT_WINDOW_MINUTES, SCHEDULE_MAX_DAYS, type CreatePostInput } from "./schemas";
import { errors as lockerroomErrors } from "./errors";
import { viewerTextFilter } from "../../core/mutes/service";
import { notePushSoon } from "../../core/push/service";
import { publishLockerPost } from "../live/service";
import { lockQuotable, postTeamIds, toSharing } from "./sharing";
import { indexPost } from "./indexing";
import { ownsPost } from "./policy";
import { commentPolicyDb, type CommentPolicy } from "./sharing";
import { notifyQuote, setCommentPolicy } from "./writes";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { assertMayComment } from "./policy";
export { indexComment } from "./indexing";
export { selectPosts } from "./queries";
export type { PostRow } from "./queries";
export { TAG_MAX_LENGTH, tagKey } from "./parse";

// Posts and the feed. Who sees what is lib/core/visibility/service.ts; comments, reactions, polls' votes and moderation
// are their own modules over the same tables.

const DAY_MS = 86_400_000;
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The summaries of the teams a page of posts shows (cached per team by the teams module). */
const teamsOf = (db: Db, rows: PostRow[]) => teamSummaries(db, postTeamIds(rows));

const teamOf = (teams: Map<string, TeamSummaryRow>, id: string | null) => (id === null ? null : (teams.get(id) ?? null));

/** The API's post, as `viewer` sees it; `teams` holds its teams' summaries (teamsOf). */
export function toPost(row: PostRow, teams: Map<string, TeamSummaryRow>, viewer: Viewer, now = new Date()) {
  const own = viewer?.id === row.authorId;
  const closed = row.pollClosesAt ? row.pollClosesAt <= now : false;
  const showResults = own || closed || row.myVotes !== null;
  return {
    id: row.id,
    author: { id: row.authorId, handle: row.handle, displayName: row.displayName, avatarUrl: row.avatarUrl },
    authorTeam: teamOf(teams, row.authorTeamId),
    team: teamOf(teams, row.teamId),
    content: row.content,
    imageUrl: row.imageUrl,
    media: (row.media ?? []) as never[],
    poll: row.pollOptions
      ? {
          options: row.pollOptions.map((title, i) => ({ title, votesCount: showResults ? (row.pollVoteCounts?.[i] ?? 0) : null })),
          multiple: row.pollMultiple ?? false,
          closesAt: row.pollClosesAt!.toISOString(),
          closed,
          votersCount: showResults ? row.pollVoters : null,
          ownVotes: row.myVotes,
        }
      : null,
    collectible: row.collectible as never,
    lineup: row.lineup as never,
    visibility: row.visibility === "PRIVATE" ? ("private" as const) : ("public" as const),
    publishAt: row.publishAt.toISOString(),
    scheduled: row.scheduled,
    createdAt: row.createdAt.toISOString(),
    editedAt: iso(row.editedAt),
    deletedAt: iso(row.deletedAt),
    hiddenAt: iso(row.hiddenAt),
    counts: { comments: row.commentCount, reactions: row.reactionCounts, reposts: row.repostCount, quotes: row.quoteCount },
    ...toSharing(row, teams),
    viewer: {
      reaction: row.myReaction,
      canEdit: own && !row.deletedAt && editWindowOpen(row.publishAt, now),
      canDelete: !row.deletedAt && (own || Boolean(viewer?.isAdmin)),
      canComment: row.canComment && !row.deletedAt && !row.hiddenAt,
      reposted: row.reposted,
    },
  };
}

const editWindowOpen = (publishAt: Date, now: Date) => now.getTime() - Math.max(publishAt.getTime(), 0) <= EDIT_WINDOW_MINUTES * 60_000;

async function readPost(db: Db, viewer: Viewer, postId: string) {
  const row = await postById(db, viewer, postId);
  if (!row) throw notFound("Post");
  return toPost(row, await teamsOf(db, [row]), viewer);
}

function publishTime(scheduledFor: string | undefined, now: Date, path: string) {
  if (scheduledFor === undefined) return { publishAt: now, scheduled: false };
  const at = new Date(scheduledFor);
  if (at.getTime() <= now.getTime()) throw validationError("scheduledFor must be in the future.", [{ path, message: "Must be in the future" }]);
  if (at.getTime() > now.getTime() + SCHEDULE_MAX_DAYS * DAY_MS) {
    throw validationError(`scheduledFor may be at most ${SCHEDULE_MAX_DAYS} days ahead.`, [{ path, message: `At most ${SCHEDULE_MAX_DAYS} days ahead` }]);
  }
  return { publishAt: at, scheduled: true };
}

const requestHash = (input: CreatePostInput) => createHash("sha256").update(JSON.stringify(input)).digest("hex");

/** The first post of a used key, replayed; a different request under the same key is 409. */
async function replay(db: Db, user: AuthUser, key: string, hash: string) {
  const first = await postByIdempotencyKey(db, user.id, key);
  if (!first) return undefined;
  if (first.requestHash !== hash) {
    throw new DomainError(sharedErrors.IDEMPOTENCY_KEY_REUSED, `This ${IDEMPOTENCY_HEADER} was already used for a different post.`);
  }
  const post = await postById(db, user, first.id);
  // The first post may have been deleted or hidden since: the key still answers for it, as it was.
  if (!post) throw notFound("Post");
  return { data: toPost(post, await teamsOf(db, [post]), user), replayed: true };
}

/**
 * Creates a post (POST /api/locker-room). The checks that read the database (terms and suspension, posting as a
 * team, teams and collectible exist) run first; then one transaction inserts the post, attaches its media (every
 * upload must be the caller's pending locker media, else 400 and nothing is written) and writes its poll. With an
 * Idempotency-Key, the insert claims (author, key): a retry, concurrent or later, answers the first post (`replayed`).
 */
export async function createPost(db: Db, user: AuthUser, input: CreatePostInput, key: string | null, now = new Date()) {
  const hash = requestHash(input);
  if (key) {
    const replayed = await replay(db, user, key, hash);
    if (replayed) return replayed;
  }
  await assertMayPost(db, user.id, now);
  const authorTeamId = input.authorTeamId ?? input.postAsTeamId ?? null;
  const teamPath = input.authorTeamId ? "authorTeamId" : "postAsTeamId";
  const live = await liveTeams(
    db,
    [input.teamId, authorTeamId].filter((t): t is string => Boolean(t)),
  );
  if (input.teamId && !live.has(input.teamId)) throw validationError("No such team.", [{ path: "teamId", message: "Unknown or archived team" }]);
  if (authorTeamId && !live.has(authorTeamId)) throw validationError("No such team.", [{ path: teamPath, message: "Unknown or archived team" }]);
  if (authorTeamId && !(await canPostAsTeam(db, user, authorTeamId))) {
    throw new DomainError(lockerroomErrors.CANNOT_POST_AS_TEAM, "You may not post as this team: only its staff accounts can.");
  }
  if (input.collectible && !(await collectibleExists(db, input.collectible))) {
    throw validationError(`No such ${input.collectible.type}.`, [{ path: "collectible.id", message: `Unknown ${input.collectible.type}` }]);
  }
  const { publishAt, scheduled } = publishTime(input.scheduledFor, now, "scheduledFor");

  const postId = await db.$transaction(async (tx) => {
    if (input.quotedPostId) await lockQuotable(tx, user, input.quotedPostId);
    const id = await insertPost(tx, {
      authorId: user.id,
      authorTeamId,
      teamId: input.teamId ?? null,
      content: input.content,
      imageUrl: input.imageUrl ?? null,
      collectible: input.collectible ?? null,
      lineup: input.lineup ?? null,
      visibility: input.visibility === "private" ? "PRIVATE" : "PUBLIC",
      publishAt,
      scheduled,
      idempotencyKey: key,
      requestHash: key ? hash : null,
      quotedPostId: input.quotedPostId ?? null,
      language: input.language ?? null,
    });
    if (!id) return undefined; // a concurrent request with the same key committed first
    if (input.media?.length) {
      const ids = input.media.map((m) => m.uploadId);
      const attached = new Set(await attachLockerMedia(tx, user.id, ids, now));
      const missing = ids.findIndex((u) => !attached.has(u));
      if (missing >= 0) {
        throw validationError("An attached upload is not one of your pending locker-media uploads (or it expired).", [
          { path: `media.${missing}.uploadId`, message: "Not your pending locker-media upload" },
        ]);
      }
      await setPostMedia(tx, id, input.media);
    }
    if (input.poll) await insertPoll(tx, id, input.poll.options, input.poll.multiple, new Date(publishAt.getTime() + input.poll.expiresIn * 1000));
    if (input.quotedPostId) await notifyQuote(tx, id);
    await indexPost(tx, id); // tags and mentions (indexing.ts), with their MENTION notifications
    if (!scheduled) {
      // Published now: its side effects too (a scheduled post's wait for the publish cron).
      if (authorTeamId) {
        await notifyPublished(tx, id, { announce: false });
        notePushSoon();
      }
      await markAnnounced(tx, id);
    }
    return id;
  }, txOptions());
  if (!postId) {
    const replayed = await replay(db, user, key!, hash);
    if (replayed) return replayed;
    throw notFound("Post");
  }
  // Published now: to the matchday rooms of its teams' live games (lib/features/live).
  if (!scheduled)
    await publishLockerPost(db, {
      id: postId,
      teamIds: [input.teamId, authorTeamId],
      isPublic: input.visibility !== "private",
      content: input.content,
      authorTeamId,
    });
  return { data: await readPost(db, user, postId), replayed: false };
}

export async function getPost(db: Db, viewer: Viewer, postId: string) {
  return readPost(db, viewer, postId);
}

export async function feed(db: Db, viewer: Viewer, q: { teamId?: string; authorId?: string; following?: boolean; cursor?: string; limit: number }) {
  if (q.following && !viewer) throw new DomainError(sharedErrors.UNAUTHORIZED, "Sign in to read the posts of the teams and fans you follow.");
  const after = q.cursor ? decodeUuidTimeCursor(q.cursor) : undefined;
  const rows = await feedPage(db, viewer, {
    teamId: q.teamId,
    authorId: q.authorId,
    followingOf: q.following ? viewer!.id : undefined,
    after,
    take: q.limit + 1,
  });
  return newestPostsPage(db, viewer, rows, q.limit, "posts");
}

/** A post as lists read it: with whether the viewer mutes its author and the version of their filters (lib/core/mutes). */
export type ListedPostRow = PostRow & { muted: boolean; filtersVersion: number };

/**
 * What showing a list of posts to `viewer` needs, read once for the list: `show` serializes a post as the feed does
 * (its teams' summaries, quoted posts' included), `shown` says whether the viewer's mutes and feed filters let it
 * through (their own posts always).
 */
export async function postListView(db: Db, viewer: Viewer, rows: ListedPostRow[]) {
  const [teams, filtered] = await Promise.all([teamsOf(db, rows), viewerTextFilter(db, viewer?.id, "feed", rows)]);
  const now = new Date();
  return {
    show: (row: ListedPostRow) => toPost(row, teams, viewer, now),
    shown: (row: ListedPostRow) => !row.muted && (row.authorId === viewer?.id || !filtered(row.content)),
  };
}

/**
 * A newest-first page of posts (`rows` read as limit + 1 by (publish_at, id)) under `key`. Posts the viewer's mutes
 * or filters hide are left out: a short page whose cursor follows the last post read.
 */
export async function newestPostsPage<K extends string>(db: Db, viewer: Viewer, rows: ListedPostRow[], limit: number, key: K) {
  const view = await postListView(db, viewer, rows);
  return keysetPage(key, rows, limit, (last) => encodeCursor(last.publishAt.getTime(), last.id), view.show, view.shown);
}

/** The author edits the text within EDIT_WINDOW_MINUTES of publication; the replaced text is kept (GET .../edits). */
export async function editPost(db: Db, user: AuthUser, postId: string, content: string, now = new Date()) {
  await visiblePost(db, postId, user);
  await assertMayPost(db, user.id, now);
  await db.$transaction(async (tx) => {
    const post = await lockPostRow(tx, postId);
    if (!post || post.deletedAt) throw notFound("Post");
    if (post.authorId !== user.id) throw new DomainError(sharedErrors.FORBIDDEN, "Only the author can edit a post.");
    if (!editWindowOpen(post.publishAt, now)) {
      throw new DomainError(lockerroomErrors.EDIT_WINDOW_CLOSED, `Posts can be edited for ${EDIT_WINDOW_MINUTES} minutes after they are published.`);
    }
    if (content.trim() === "" && !post.hasAttachments) {
      throw validationError("content may be empty only when the post has an attachment.", [{ path: "content", message: "Empty" }]);
    }
    if (content !== post.content) {
      await recordEdit(tx, postId, post.content, content);
      await indexPost(tx, postId); // re-parsed: tags and mentions follow the new text (lib/features/tags)
    }
  }, txOptions());
  return readPost(db, user, postId);
}

export async function listEdits(db: Db, viewer: Viewer, postId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  await visiblePost(db, postId, viewer);
  const rows = await editsPage(db, postId, cursor ? decodeIdCursor(cursor) : undefined, limit + 1);
  return keysetPage(
    "edits",
    rows,
    limit,
    (last) => encodeIdCursor(last.id),
    (e) => ({ id: e.id, content: e.content, editedAt: e.editedAt.toISOString() }),
  );
}

/** The author (or staff) deletes a post; deleting again answers the same. */
export async function deletePost(db: Db, user: AuthUser, postId: string) {
  if ((await deletedPostAuthor(db, postId))?.deletedBy === user.id) return { id: postId, deleted: true as const };
  const post = await visiblePost(db, postId, user);
  if (post.authorId !== user.id && !user.isAdmin) throw new DomainError(sharedErrors.FORBIDDEN, "Only the author can delete a post.");
  await softDelete(db, postId);
  return { id: postId, deleted: true as const };
}

// Scheduled posts: the author's own, until their time comes.

export async function listScheduled(db: Db, user: AuthUser, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const rows = await scheduledPage(db, user, after, limit + 1);
  const teams = await teamsOf(db, rows);
  return keysetPage(
    "posts",
    rows,
    limit,
    (last) => encodeCursor(last.publishAt.getTime(), last.id),
    (row) => toPost(row, teams, user),
  );
}

/** Locks the caller's scheduled post that has not been published yet (404 for others, 409 once published). */
async function lockScheduled(tx: Parameters<Parameters<Db["$transaction"]>[0]>[0], user: AuthUser, postId: string, now: Date) {
  const post = await lockPostRow(tx, postId);
  if (!post || post.deletedAt || post.authorId !== user.id || !post.scheduled) throw notFound("Scheduled post");
  if (post.publishAt <= now) throw new DomainError(lockerroomErrors.ALREADY_PUBLISHED, "This post was already published: edit or delete it instead.");
  return post;
}

export async function reschedulePost(db: Db, user: AuthUser, postId: string, scheduledFor: string, now = new Date()) {
  const { publishAt } = publishTime(scheduledFor, now, "scheduledFor");
  await db.$transaction(async (tx) => {
    await lockScheduled(tx, user, postId, now);
    await reschedule(tx, postId, publishAt);
  }, txOptions());
  return readPost(db, user, postId);
}

export async function cancelScheduled(db: Db, user: AuthUser, postId: string, now = new Date()) {
  await db.$transaction(async (tx) => {
    await lockScheduled(tx, user, postId, now);
    await softDelete(tx, postId);
  }, txOptions());
  return { id: postId, deleted: true as const };
}

export const PUBLISH_BATCH = 200;

/**
 * The publish cron: announces scheduled posts whose time came (POST_PUBLISHED to the author, TEAM_POST to a posting
 * team's followers). Each batch claims its posts (announced_at) in the statement that selects them, in the same
 * transaction as the notifications, so a post is announced once however often or concurrently the cron runs.
 * Visibility never waits for this: the feed filters on publish_at.
 */
export async function publishDuePosts(db: Db, { batches = 10 }: { batches?: number } = {}) {
  let published = 0;
  for (let i = 0; i < batches; i++) {
    const n = await db.$transaction(async (tx) => {
      const due = await claimDuePosts(tx, PUBLISH_BATCH);
      for (const { id } of due) {
        await notifyPublished(tx, id, { announce: true });
        await indexPost(tx, id); // its mentions notify now that the mentioned fans may see it (lib/features/tags)
      }
      return due.length;
    }, txOptions(60_000));
    published += n;
    if (n < PUBLISH_BATCH) break;
  }
  return { published };
}

/**
 * Mutes or unmutes the caller's notifications about a post they may see (PUT and DELETE /api/locker-room/{postId}/mute):
 * while muted, comments on it, replies in it and reactions to it notify them of nothing. Idempotent.
 */
export async function mutePost(db: Db, user: AuthUser, postId: string, muted: boolean) {
  await visiblePost(db, postId, user);
  await setPostMute(db, user.id, postId, muted);
  return { postId, muted };
}

/** PUT /api/locker-room/{postId}/interaction-policy: who may comment (the rule is policy.ts and sharing.ts). */
export async function setInteractionPolicy(db: Db, user: AuthUser, postId: string, comments: CommentPolicy) {
  await db.$transaction(async (tx) => {
    const post = await visiblePost(tx, postId, user, { forUpdate: true });
    if (!(await ownsPost(tx, user, post))) {
      throw new DomainError(sharedErrors.FORBIDDEN, "Only the post's author (for a team's post, its staff) can set who may comment.");
    }
    await setCommentPolicy(tx, postId, commentPolicyDb(comments));
  }, txOptions());
  return getPost(db, user, postId);
}
