import type { AuthUser } from "../../auth/users";
import type { Db } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { DomainError, notFound } from "../../kernel/errors";
import { decodeTimeCursor, decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { keysetPage } from "../../kernel/page";
import type { Viewer } from "../../core/visibility/service";
import { newestPostsPage, postListView } from "../lockerroom/service";
import { errors as tagsErrors } from "./errors";
import {
  adminTrendTags,
  deleteTagFollow,
  followedTagsPage,
  insertTagFollow,
  lockTag,
  setTrendStatus,
  tagByKey,
  tagFollowCount,
  tagFollowOf,
  tagPostsPage,
  toAdminTrendTag,
  trendingPosts,
  trendingTags,
} from "./queries";
import { TAG_FOLLOWS_MAX, TRENDS_WINDOW_HOURS, type TrendStatus } from "./schemas";

// Tags, mentions and trends: the tag page, following tags, the trends and their staff review. The write-time
// parsing and MENTION notifications are lib/features/lockerroom/indexing.ts (written with the post or comment). Rules: docs/domains/tags.md.

const tagNotFound = () => notFound("Tag");

/** The tag and a page of its posts as the feed serializes them (GET /api/v1/tags/{tag}). */
export async function tagPage(db: Db, viewer: Viewer, tag: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeUuidTimeCursor(cursor) : undefined;
  const [row, rows] = await Promise.all([tagByKey(db, tag, viewer?.id), tagPostsPage(db, viewer, tag, after, limit + 1)]);
  if (!row) throw tagNotFound();
  const page = await newestPostsPage(db, viewer, rows, limit, "posts");
  return { tag: { tag: row.tag, name: row.name, following: row.following }, ...page };
}

/**
 * Follows a tag (PUT /api/v1/tags/{tag}/follow): creates the tag when nobody used it yet. Idempotent (the first
 * follow's time stays) and capped at TAG_FOLLOWS_MAX, counted under the user's lock so concurrent follows cannot pass it.
 */
export async function followTag(db: Db, user: AuthUser, tag: string) {
  const at = await db.$transaction(async (tx) => {
    await lockUser(tx, user.id);
    const existing = await tagFollowOf(tx, user.id, tag);
    if (existing) return existing;
    if ((await tagFollowCount(tx, user.id)) >= TAG_FOLLOWS_MAX) {
      throw new DomainError(tagsErrors.TAG_FOLLOW_LIMIT, `You may follow at most ${TAG_FOLLOWS_MAX} tags: unfollow one first.`);
    }
    return insertTagFollow(tx, user.id, tag);
  }, txOptions());
  return { tag, following: true, followedAt: at.toISOString() };
}

/** Unfollows (DELETE): the same answer whether or not the caller followed it, or the tag exists. */
export async function unfollowTag(db: Db, user: AuthUser, tag: string) {
  await deleteTagFollow(db, user.id, tag);
  return { tag, following: false, followedAt: null };
}

export async function followedTags(db: Db, user: AuthUser, { cursor, limit }: { cursor?: string; limit: number }) {
  const after = cursor ? decodeTimeCursor(cursor) : undefined;
  const rows = await followedTagsPage(db, user.id, after, limit + 1);
  return keysetPage(
    "tags",
    rows,
    limit,
    (last) => encodeCursor(last.followedAt.getTime(), last.tag),
    (r) => ({ tag: r.tag, name: r.name, following: true as const, followedAt: r.followedAt.toISOString() }),
  );
}

/**
 * GET /api/v1/trends: approved tags ranked by distinct fans in the window (the same for every viewer), and posts
 * ranked by distinct fans interacting, under this viewer's visibility, mutes and feed filters.
 */
export async function trends(db: Db, viewer: Viewer, { limit }: { limit: number }) {
  const [tags, rows] = await Promise.all([trendingTags(db, limit), trendingPosts(db, viewer, limit)]);
  const view = await postListView(db, viewer, rows);
  const posts = rows.filter(view.shown).map((r) => ({ ...view.show(r), trendFans: r.trendFans }));
  return { window: { hours: TRENDS_WINDOW_HOURS, since: new Date(Date.now() - TRENDS_WINDOW_HOURS * 3_600_000).toISOString() }, tags, posts };
}

// Staff review ---------------------------------------------------------------------------------------------------

export async function adminTrends(db: Db, { status, limit }: { status: TrendStatus; limit: number }) {
  const rows = await adminTrendTags(db, status, limit);
  return { status, tags: rows.map(toAdminTrendTag) };
}

/** Staff approve, reject or send back a tag (audited in the same transaction; setting the state it has writes nothing). */
export async function reviewTag(db: Db, tag: string, status: TrendStatus, actor: StaffActor) {
  await db.$transaction(async (tx) => {
    const locked = await lockTag(tx, tag);
    if (!locked) throw tagNotFound();
    if (locked.status === status) return;
    await setTrendStatus(tx, tag, status, actor.id);
    await recordAudit(tx, actor, { action: "tag.trend_review", targetType: "tag", targetId: tag, before: { status: locked.status }, after: { status } });
  }, txOptions());
  const [row] = await adminTrendTags(db, status, 1, tag);
  return { tag: toAdminTrendTag(row!) };
}
