import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { UUIDV7_SQL } from "../../db/ids";
import { raw, type RawDb } from "../../db/raw";
import { QUEUE_LATEST_REPORTS, type ReportReason } from "./schemas";

// Reports -------------------------------------------------------------------------------------------------------

export interface ReportRow {
  id: string;
  reporterId: string;
  postId: string | null;
  commentId: string | null;
  reason: string;
  note: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  resolution: string | null;
}

const REPORT_COLUMNS = Prisma.sql`r.id::text AS id, r.reporter_id::text AS "reporterId", r.post_id::text AS "postId", r.comment_id::text AS "commentId",
  r.reason::text AS reason, r.note, r.created_at AS "createdAt", r.resolved_at AS "resolvedAt", r.resolved_by AS "resolvedBy", r.resolution`;

export const toReport = (r: ReportRow) => ({
  id: r.id,
  postId: r.postId,
  commentId: r.commentId,
  reason: r.reason.toLowerCase() as ReportReason,
  note: r.note,
  createdAt: r.createdAt.toISOString(),
});

export const toStaffReport = (r: ReportRow) => ({
  ...toReport(r),
  reporterId: r.reporterId,
  resolvedAt: r.resolvedAt?.toISOString() ?? null,
  resolvedBy: r.resolvedBy,
  resolution: r.resolution as "hidden" | "dismissed" | null,
});

export type ReportTarget = { postId: string; commentId?: undefined } | { commentId: string; postId?: undefined };

/**
 * Inserts the report unless the reporter already reported the target (the unique constraint decides, so concurrent
 * reports of one user and target leave one row); null when one existed.
 */
export async function insertReport(db: RawDb | DbTx, reporterId: string, target: ReportTarget, reason: ReportReason, note: string | null) {
  const conflict = target.postId ? Prisma.sql`(reporter_id, post_id)` : Prisma.sql`(reporter_id, comment_id)`;
  const [row] = await raw(db).$queryRaw<ReportRow[]>`
    INSERT INTO reports AS r (id, reporter_id, post_id, comment_id, reason, note)
    VALUES (${UUIDV7_SQL}, ${reporterId}::uuid, ${target.postId ?? null}::uuid, ${target.commentId ?? null}::uuid,
            ${reason.toUpperCase()}::"ReportReason", ${note})
    ON CONFLICT ${conflict} DO NOTHING
    RETURNING ${REPORT_COLUMNS}`;
  return row ?? null;
}

const targetWhere = (target: ReportTarget) =>
  target.postId ? Prisma.sql`r.post_id = ${target.postId}::uuid` : Prisma.sql`r.comment_id = ${target.commentId}::uuid`;

/** One page of a target's reports (open and resolved), newest first by id (UUIDv7). */
export function reportsOf(db: RawDb | DbTx, target: ReportTarget, afterId: string | undefined, take: number) {
  const after = afterId ? Prisma.sql`AND r.id < ${afterId}::uuid` : Prisma.empty;
  return raw(db).$queryRaw<ReportRow[]>`
    SELECT ${REPORT_COLUMNS} FROM reports r WHERE ${targetWhere(target)} ${after} ORDER BY r.id DESC LIMIT ${take}`;
}

/** Resolves the target's open reports; answers how many. */
export function resolveReports(db: RawDb | DbTx, target: ReportTarget, staffId: string, resolution: "hidden" | "dismissed") {
  return raw(db).$executeRaw`
    UPDATE reports r SET resolved_at = now(), resolved_by = ${staffId}, resolution = ${resolution}, open = NULL
    WHERE ${targetWhere(target)} AND r.resolved_at IS NULL`;
}

// The queue ----------------------------------------------------------------------------------------------------

/** A queue entry: the oldest open report of its target. */
export interface QueueHead {
  id: string;
  postId: string | null;
  commentId: string | null;
  createdAt: Date;
}

/**
 * Targets with open reports, oldest open report first: walks the open reports in (created_at, id) order on the
 * (resolved_at, created_at) index and keeps each target's oldest open one (the NOT EXISTS probes use the post_id and
 * comment_id indexes), so a page costs its own rows, not the whole backlog. The ORDER BY names the index's leading
 * column (resolved_at, null here) so PostgreSQL reads the index in order (only ties on created_at get sorted).
 */
export function queueHeads(db: RawDb | DbTx, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (r.created_at, r.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<QueueHead[]>`
    SELECT r.id::text AS id, r.post_id::text AS "postId", r.comment_id::text AS "commentId", r.created_at AS "createdAt"
    FROM reports r
    WHERE r.resolved_at IS NULL ${keyset}
      AND NOT EXISTS (
        SELECT 1 FROM reports o
        WHERE r.post_id IS NOT NULL AND o.post_id = r.post_id AND o.resolved_at IS NULL AND (o.created_at, o.id) < (r.created_at, r.id))
      AND NOT EXISTS (
        SELECT 1 FROM reports o
        WHERE r.comment_id IS NOT NULL AND o.comment_id = r.comment_id AND o.resolved_at IS NULL AND (o.created_at, o.id) < (r.created_at, r.id))
    ORDER BY r.resolved_at, r.created_at, r.id
    LIMIT ${take}`;
}

export interface TargetStats {
  postId: string | null;
  commentId: string | null;
  openReports: number;
  reasons: Record<string, number>;
  firstReportedAt: Date;
  lastReportedAt: Date;
}

/** Open-report counts per target (per reason too) and the first and last report times, for a page of targets. */
export function openStats(db: RawDb | DbTx, postIds: string[], commentIds: string[]) {
  return raw(db).$queryRaw<TargetStats[]>`
    WITH open AS (
      SELECT post_id, comment_id, reason, created_at FROM reports WHERE post_id = ANY(${postIds}::uuid[]) AND resolved_at IS NULL
      UNION ALL
      SELECT post_id, comment_id, reason, created_at FROM reports WHERE comment_id = ANY(${commentIds}::uuid[]) AND resolved_at IS NULL
    ),
    per_reason AS (SELECT post_id, comment_id, lower(reason::text) AS reason, count(*)::int AS n FROM open GROUP BY 1, 2, 3)
    SELECT o.post_id::text AS "postId", o.comment_id::text AS "commentId", count(*)::int AS "openReports",
           min(o.created_at) AS "firstReportedAt", max(o.created_at) AS "lastReportedAt",
           (SELECT jsonb_object_agg(p.reason, p.n) FROM per_reason p
             WHERE p.post_id IS NOT DISTINCT FROM o.post_id AND p.comment_id IS NOT DISTINCT FROM o.comment_id) AS reasons
    FROM open o GROUP BY o.post_id, o.comment_id`;
}

/** The latest open reports of each target of a page (QUEUE_LATEST_REPORTS each). */
export function latestOpenReports(db: RawDb | DbTx, postIds: string[], commentIds: string[]) {
  return raw(db).$queryRaw<ReportRow[]>`
    SELECT ${REPORT_COLUMNS} FROM (
      SELECT r.*, row_number() OVER (PARTITION BY r.post_id, r.comment_id ORDER BY r.created_at DESC, r.id DESC) AS rn
      FROM (
        SELECT * FROM reports WHERE post_id = ANY(${postIds}::uuid[]) AND resolved_at IS NULL
        UNION ALL
        SELECT * FROM reports WHERE comment_id = ANY(${commentIds}::uuid[]) AND resolved_at IS NULL
      ) r
    ) r
    WHERE r.rn <= ${QUEUE_LATEST_REPORTS}
    ORDER BY r.created_at DESC, r.id DESC`;
}

export interface Snapshot {
  postId: string;
  commentId: string | null;
  content: string;
  mediaCount: number;
  createdAt: Date;
  hiddenAt: Date | null;
  deletedAt: Date | null;
  authorId: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
}

const AUTHOR = Prisma.sql`u.id::text AS "authorId", u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl"`;

/** The reported posts and comments as they are now, with their authors. */
export function snapshots(db: RawDb | DbTx, postIds: string[], commentIds: string[]) {
  return raw(db).$queryRaw<Snapshot[]>`
    SELECT p.id::text AS "postId", NULL::text AS "commentId", p.content,
           (CASE WHEN jsonb_typeof(p.media) = 'array' THEN jsonb_array_length(p.media) ELSE 0 END
             + CASE WHEN p.image_url IS NULL THEN 0 ELSE 1 END)::int AS "mediaCount",
           p.created_at AS "createdAt", p.hidden_at AS "hiddenAt", p.deleted_at AS "deletedAt", ${AUTHOR}
    FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id = ANY(${postIds}::uuid[])
    UNION ALL
    SELECT c.post_id::text, c.id::text, c.content, 0, c.created_at, c.hidden_at, c.deleted_at, ${AUTHOR}
    FROM post_comments c JOIN users u ON u.id = c.author_id WHERE c.id = ANY(${commentIds}::uuid[])`;
}

// Hiding --------------------------------------------------------------------------------------------------------

/** The post's hidden state, its row locked for the rest of the transaction; null when there is no such post. */
export async function lockPost(tx: DbTx, postId: string) {
  const [row] = await tx.$queryRaw<
    { id: string; authorId: string; teamId: string | null; authorTeamId: string | null; hiddenAt: Date | null; hiddenActionId: string | null }[]
  >`
    SELECT id::text AS id, author_id::text AS "authorId", team_id AS "teamId", author_team_id AS "authorTeamId", hidden_at AS "hiddenAt", hidden_action_id::text AS "hiddenActionId"
    FROM posts WHERE id = ${postId}::uuid FOR UPDATE`;
  return row ?? null;
}

/** Sets (naming the moderation action that hides it) or clears the post's hidden state; answers the new hidden time. */
export async function setPostHidden(tx: DbTx, postId: string, staffId: string | null, actionId: string | null = null) {
  const [row] = await tx.$queryRaw<{ hiddenAt: Date | null }[]>`
    UPDATE posts SET hidden_at = CASE WHEN ${staffId}::text IS NULL THEN NULL ELSE now() END, hidden_by = ${staffId}, hidden_action_id = ${actionId}::uuid
    WHERE id = ${postId}::uuid RETURNING hidden_at AS "hiddenAt"`;
  return row!.hiddenAt;
}

export interface CommentState {
  id: string;
  postId: string;
  authorId: string;
  hiddenActionId: string | null;
  parentId: string | null;
  deletedAt: Date | null;
  hiddenAt: Date | null;
}

/** Whether the reported post or comment exists (in any state). */
export async function targetExists(db: RawDb | DbTx, target: ReportTarget): Promise<boolean> {
  const rows = target.postId
    ? await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM posts WHERE id = ${target.postId}::uuid`
    : await raw(db).$queryRaw<unknown[]>`SELECT 1 FROM post_comments WHERE id = ${target.commentId}::uuid`;
  return rows.length > 0;
}

/** The comment's post id (no lock): what to lock first. */
export async function commentPostId(db: RawDb | DbTx, commentId: string) {
  const [row] = await raw(db).$queryRaw<{ postId: string }[]>`SELECT post_id::text AS "postId" FROM post_comments WHERE id = ${commentId}::uuid`;
  return row?.postId ?? null;
}

/** The comment's state, its row locked (after its post's row). */
export async function lockComment(tx: DbTx, commentId: string) {
  const [row] = await tx.$queryRaw<CommentState[]>`
    SELECT id::text AS id, post_id::text AS "postId", author_id::text AS "authorId", hidden_action_id::text AS "hiddenActionId",
           parent_id::text AS "parentId", deleted_at AS "deletedAt", hidden_at AS "hiddenAt"
    FROM post_comments WHERE id = ${commentId}::uuid FOR UPDATE`;
  return row ?? null;
}

/** Sets (naming the moderation action that hides it) or clears the comment's hidden state; answers the new hidden time. */
export async function setCommentHidden(tx: DbTx, commentId: string, staffId: string | null, actionId: string | null = null) {
  const [row] = await tx.$queryRaw<{ hiddenAt: Date | null }[]>`
    UPDATE post_comments SET hidden_at = CASE WHEN ${staffId}::text IS NULL THEN NULL ELSE now() END, hidden_by = ${staffId}, hidden_action_id = ${actionId}::uuid
    WHERE id = ${commentId}::uuid RETURNING hidden_at AS "hiddenAt"`;
  return row!.hiddenAt;
}

/** Moves the counters a visible comment counts in by `delta` (±1): the post's comment_count, a reply's parent's reply_count. */
export async function adjustCommentCounters(tx: DbTx, comment: CommentState, delta: 1 | -1) {
  await tx.$executeRaw`UPDATE posts SET comment_count = comment_count + ${delta}::int WHERE id = ${comment.postId}::uuid`;
  if (comment.parentId) await tx.$executeRaw`UPDATE post_comments SET reply_count = reply_count + ${delta}::int WHERE id = ${comment.parentId}::uuid`;
}

// Suspensions ---------------------------------------------------------------------------------------------------

export interface SuspensionRow {
  id: string;
  userId: string;
  until: Date;
  reason: string;
  staffId: string;
  createdAt: Date;
  liftedAt: Date | null;
}

const SUSPENSION_COLUMNS = Prisma.sql`s.id::text AS id, s.user_id::text AS "userId", s.until, s.reason, s.staff_id AS "staffId",
  s.created_at AS "createdAt", s.lifted_at AS "liftedAt"`;

export const toSuspension = (s: SuspensionRow, now = new Date()) => ({
  id: s.id,
  userId: s.userId,
  until: s.until.toISOString(),
  reason: s.reason,
  staffId: s.staffId,
  createdAt: s.createdAt.toISOString(),
  liftedAt: s.liftedAt?.toISOString() ?? null,
  active: s.liftedAt === null && s.until > now,
});

/** Lifts the suspension (keeping the first lift time); null when there is no such suspension. */
export async function liftSuspensionRow(db: RawDb | DbTx, id: string) {
  const [row] = await raw(db).$queryRaw<SuspensionRow[]>`
    UPDATE posting_suspensions s SET lifted_at = coalesce(s.lifted_at, now())
    WHERE s.id = ${id}::uuid
    RETURNING ${SUSPENSION_COLUMNS}`;
  return row ?? null;
}

/** One page of the user's suspensions, newest first by id (UUIDv7). */
export function suspensionsOf(db: RawDb | DbTx, userId: string, afterId: string | undefined, take: number) {
  const after = afterId ? Prisma.sql`AND s.id < ${afterId}::uuid` : Prisma.empty;
  return raw(db).$queryRaw<SuspensionRow[]>`
    SELECT ${SUSPENSION_COLUMNS} FROM posting_suspensions s WHERE s.user_id = ${userId}::uuid ${after} ORDER BY s.id DESC LIMIT ${take}`;
}

// Reports of users, listings and binders ------------------------------------------------------------------------

export type AccountTargetKind = "user" | "listing" | "binder";
export interface AccountTarget {
  kind: AccountTargetKind;
  id: string;
}

const TARGET_COLUMN = { user: Prisma.sql`target_user_id`, listing: Prisma.sql`listing_id`, binder: Prisma.sql`binder_id` } as const;

export interface AnyReportRow extends ReportRow {
  targetUserId: string | null;
  listingId: string | null;
  binderId: string | null;
}

const ANY_REPORT_COLUMNS = Prisma.sql`${REPORT_COLUMNS}, r.target_user_id::text AS "targetUserId", r.listing_id::text AS "listingId",
  r.binder_id::text AS "binderId"`;

/** The report's target as { type, id }. */
export const targetOf = (r: AnyReportRow) =>
  r.commentId
    ? { type: "comment" as const, id: r.commentId }
    : r.postId
      ? { type: "post" as const, id: r.postId }
      : r.targetUserId
        ? { type: "user" as const, id: r.targetUserId }
        : r.listingId
          ? { type: "listing" as const, id: r.listingId }
          : { type: "binder" as const, id: r.binderId! };

/**
 * Inserts the report unless the reporter has an open one of the target: the unique index on (reporter, target,
 * open) decides, so concurrent reports leave one open row; null when one was open.
 */
export async function insertAccountReport(db: RawDb | DbTx, reporterId: string, target: AccountTarget, reason: ReportReason, note: string | null) {
  const column = TARGET_COLUMN[target.kind];
  const [row] = await raw(db).$queryRaw<AnyReportRow[]>`
    INSERT INTO reports AS r (id, reporter_id, ${column}, reason, note)
    VALUES (${UUIDV7_SQL}, ${reporterId}::uuid, ${target.id}::uuid, ${reason.toUpperCase()}::"ReportReason", ${note})
    ON CONFLICT (reporter_id, ${column}, open) DO NOTHING
    RETURNING ${ANY_REPORT_COLUMNS}`;
  return row ?? null;
}

/**
 * The owner of a target the viewer may see, or null: a user neither blocking nor blocked by the viewer; any listing
 * (listings are public); a binder that is the viewer's own or public on a profile that is not private.
 */
export async function visibleTargetOwner(db: RawDb | DbTx, viewerId: string, target: AccountTarget): Promise<string | null> {
  const rows =
    target.kind === "user"
      ? await raw(db).$queryRaw<{ owner: string }[]>`
          SELECT u.id::text AS owner FROM users u WHERE u.id = ${target.id}::uuid
            AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE (b.blocker_id = u.id AND b.blocked_id = ${viewerId}::uuid)
                                                        OR (b.blocker_id = ${viewerId}::uuid AND b.blocked_id = u.id))`
      : target.kind === "listing"
        ? await raw(db).$queryRaw<{ owner: string }[]>`SELECT seller_id::text AS owner FROM listings WHERE id = ${target.id}::uuid`
        : await raw(db).$queryRaw<{ owner: string }[]>`
            SELECT b.user_id::text AS owner FROM binders b JOIN users u ON u.id = b.user_id
            WHERE b.id = ${target.id}::uuid AND (b.user_id = ${viewerId}::uuid OR (b.is_public AND NOT u.is_private))`;
  return rows[0]?.owner ?? null;
}

/** One page of the reporter's reports (every kind), newest first by id (UUIDv7). */
export function reportsBy(db: RawDb | DbTx, reporterId: string, afterId: string | undefined, take: number) {
  const after = afterId ? Prisma.sql`AND r.id < ${afterId}::uuid` : Prisma.empty;
  return raw(db).$queryRaw<AnyReportRow[]>`
    SELECT ${ANY_REPORT_COLUMNS} FROM reports r WHERE r.reporter_id = ${reporterId}::uuid ${after} ORDER BY r.id DESC LIMIT ${take}`;
}

/** Open reports of users, listings and binders, oldest first (keyset on created_at, id), for the console. */
export function openAccountReports(db: RawDb | DbTx, after: { at: Date; id: string } | undefined, take: number) {
  const keyset = after ? Prisma.sql`AND (r.created_at, r.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<AnyReportRow[]>`
    SELECT ${ANY_REPORT_COLUMNS} FROM reports r
    WHERE r.resolved_at IS NULL AND r.post_id IS NULL AND r.comment_id IS NULL ${keyset}
    ORDER BY r.resolved_at, r.created_at, r.id LIMIT ${take}`;
}

/** Resolves the open reports of a user, listing or binder; answers how many. */
export function resolveAccountReports(db: RawDb | DbTx, target: AccountTarget, staffId: string, resolution: "actioned" | "dismissed") {
  return raw(db).$executeRaw`
    UPDATE reports SET resolved_at = now(), resolved_by = ${staffId}, resolution = ${resolution}, open = NULL
    WHERE ${TARGET_COLUMN[target.kind]} = ${target.id}::uuid AND resolved_at IS NULL`;
}

export * from "./action-queries";
