import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw } from "../../db/raw";
import { visiblePostSql } from "../visibility/service";
import { filtersVersionSql } from "../mutes/service";
import { UNREAD_COUNT_CAP, type NotificationFilter, type NotificationType } from "./schemas";
import { insertNotifications } from "./writes";

export interface NotificationRow {
  id: string;
  type: NotificationType;
  payload: unknown;
  createdAt: Date;
  readAt: Date | null;
  archivedAt: Date | null;
}

export const toNotification = (n: NotificationRow) =>
  ({
    id: n.id,
    type: n.type,
    createdAt: n.createdAt.toISOString(),
    readAt: n.readAt?.toISOString() ?? null,
    archivedAt: n.archivedAt?.toISOString() ?? null,
    payload: n.payload,
  }) as { id: string; type: NotificationType; createdAt: string; readAt: string | null; archivedAt: string | null; payload: never };

/** The text of a notification a filter looks at: its body, unless that is the user's own post (REACTION, REPOST, POST_PUBLISHED). */
export const filteredText = (n: NotificationRow): string | null => {
  const body = (n.payload as { body?: unknown } | null)?.body;
  return n.type === "REACTION" || n.type === "REPOST" || n.type === "POST_PUBLISHED" || typeof body !== "string" ? null : body;
};

/**
 * A notification's payload as its recipient may read it now (over `n`): the `body` of a notification about a post
 * (REPLY, MENTION, TEAM_POST, QUOTE, REACTION, REPOST, POST_PUBLISHED) quotes a post's or comment's text, and shows only
 * while the recipient may still read that text (THE visibility rule, lib/core/visibility/service.ts, for the recipient: a
 * team's private post once they neither follow nor joined the team, a deleted or hidden post, a blocked author), and
 * the comment (REPLY, a comment's MENTION) is neither deleted nor hidden; else the body is empty. Rendered at read
 * time rather than scrubbed on every change of access (docs/decisions/0065): two primary-key probes a notification.
 */
export const readablePayloadSql = (userId: string) => Prisma.sql`CASE
  WHEN n.payload->'postId' IS NOT NULL AND coalesce(n.payload->>'body', '') <> '' AND (
    NOT EXISTS (SELECT 1 FROM posts p
                WHERE p.id = (CASE WHEN n.type = 'QUOTE' THEN n.payload->>'quotePostId' ELSE n.payload->>'postId' END)::uuid
                  AND ${visiblePostSql({ id: userId, isAdmin: false })})
    OR (n.type IN ('REPLY', 'MENTION') AND n.payload->>'commentId' IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM post_comments c WHERE c.id = (n.payload->>'commentId')::uuid AND c.deleted_at IS NULL AND c.hidden_at IS NULL)))
  THEN n.payload || '{"body": ""}'::jsonb
  ELSE n.payload END`;

const columns = (userId: string) =>
  Prisma.sql`n.id::text AS id, n.type::text AS type, ${readablePayloadSql(userId)} AS payload, n.created_at AS "createdAt", n.read_at AS "readAt", n.archived_at AS "archivedAt"`;

/** Where a page of each filter continues: after the last row's id, or (archived) its (archivedAt, id). */
export type ListAfter = { id: string; at?: Date };

// Each filter reads one index in its order: the ORDER BY names the index's leading null column too (read_at,
// archived_at), so PostgreSQL walks the index instead of sorting.
const FILTERS: Record<NotificationFilter, { where: Prisma.Sql; order: Prisma.Sql }> = {
  inbox: { where: Prisma.sql`n.archived_at IS NULL`, order: Prisma.sql`n.archived_at DESC, n.id DESC` },
  unread: { where: Prisma.sql`n.read_at IS NULL`, order: Prisma.sql`n.read_at, n.id DESC` },
  archived: { where: Prisma.sql`n.archived_at IS NOT NULL`, order: Prisma.sql`n.archived_at DESC, n.id DESC` },
  all: { where: Prisma.sql`true`, order: Prisma.sql`n.id DESC` },
};

/**
 * One page (take rows) of the user's notifications in `filter`, optionally only `types`. Each row carries the user's
 * filters version (lib/core/mutes): the caller leaves out those whose text the user's notifications filters match (filteredText),
 * so a page may be short and its cursor never skips one.
 */
export function notificationsOf(
  db: DbTx,
  userId: string,
  filter: NotificationFilter,
  types: NotificationType[] | undefined,
  after: ListAfter | undefined,
  take: number,
) {
  const { where, order } = FILTERS[filter];
  const keyset = !after
    ? Prisma.empty
    : after.at
      ? Prisma.sql`AND (n.archived_at, n.id) < (${after.at}::timestamptz, ${after.id}::uuid)`
      : Prisma.sql`AND n.id < ${after.id}::uuid`;
  const typed = types ? Prisma.sql`AND n.type::text = ANY(${types}::text[])` : Prisma.empty;
  return raw(db).$queryRaw<(NotificationRow & { filtersVersion: number })[]>`
    SELECT ${columns(userId)}, ${filtersVersionSql(userId)} AS "filtersVersion" FROM notifications n
    WHERE n.user_id = ${userId}::uuid AND ${where} ${keyset} ${typed}
    ORDER BY ${order} LIMIT ${take}`;
}

/** Unread notifications counted up to the cap + 1 (a LIMIT under the count: cheap however many there are). */
export async function unreadCountOf(db: DbTx, userId: string) {
  const [row] = await raw(db).$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM notifications WHERE user_id = ${userId}::uuid AND read_at IS NULL LIMIT ${UNREAD_COUNT_CAP + 1}
    ) s`;
  const n = row?.n ?? 0;
  return { count: Math.min(n, UNREAD_COUNT_CAP), capped: n > UNREAD_COUNT_CAP };
}

/**
 * Sets read (or archived and read) on one of the user's notifications, keeping the first times, and answers it; null
 * when the user has no notification with this id. One UPDATE: concurrent calls queue on the row and each computes
 * from the latest version, so every answer shows the state as it is.
 */
export async function markNotification(db: DbTx, userId: string, id: string, state: "read" | "archived") {
  const set =
    state === "read"
      ? Prisma.sql`read_at = coalesce(read_at, now())`
      : Prisma.sql`archived_at = coalesce(archived_at, now()), read_at = coalesce(read_at, now())`;
  const [row] = await raw(db).$queryRaw<NotificationRow[]>`
    UPDATE notifications n SET ${set} WHERE n.id = ${id}::uuid AND n.user_id = ${userId}::uuid RETURNING ${columns(userId)}`;
  return row ?? null;
}

/**
 * Marks the user's unread notifications read in one statement, bounded to what the caller can have seen: created
 * at or before `seenAt` (the request's start) and, with `upTo`, not newer than that id. Answers how many it marked.
 */
export function markAllRead(db: DbTx, userId: string, seenAt: Date, upTo: string | undefined) {
  const bound = upTo ? Prisma.sql`AND id <= ${upTo}::uuid` : Prisma.empty;
  return raw(db).$executeRaw`
    UPDATE notifications SET read_at = now()
    WHERE user_id = ${userId}::uuid AND read_at IS NULL AND created_at <= ${seenAt}::timestamptz ${bound}`;
}

/**
 * The erasure of `actor` (lib/operations/erasure/writes.ts), in one UPDATE over the notifications they caused for other fans
 * (`actor_id`, indexed): the payload's actor becomes the tombstone as the app shows it everywhere (the same id, no
 * handle, display name or avatar: docs/decisions/0029), a title that began with their name begins with "A fan" (what
 * a producer writes for a fan without one), and a body quoting their text (REPLY, MENTION, QUOTE, TEAM_POST,
 * POST_PUBLISHED) is emptied, as their comments' content is. A body quoting the recipient's own post (REACTION,
 * REPOST) stays.
 */
export const eraseActorSql = (actor: Prisma.Sql) => {
  const name = Prisma.sql`coalesce(n.payload->'actor'->>'displayName', n.payload->'actor'->>'handle', 'A fan')`;
  return Prisma.sql`
    UPDATE notifications n SET payload = n.payload
      || CASE WHEN n.payload->'actor' IS NOT NULL
              THEN jsonb_build_object('actor', jsonb_build_object('id', n.payload->'actor'->'id', 'handle', NULL, 'displayName', NULL, 'avatarUrl', NULL))
              ELSE '{}'::jsonb END
      || CASE WHEN n.payload->'actor' IS NOT NULL AND (n.type <> 'TRADE_UPDATE' OR n.payload->>'event' IN ('proposed', 'countered'))
                   AND starts_with(n.payload->>'title', ${name})
              THEN jsonb_build_object('title', 'A fan' || substr(n.payload->>'title', length(${name}) + 1))
              ELSE '{}'::jsonb END
      || CASE WHEN n.type IN ('REPLY', 'MENTION', 'QUOTE', 'TEAM_POST', 'POST_PUBLISHED') THEN '{"body": ""}'::jsonb ELSE '{}'::jsonb END
    WHERE n.actor_id = ${actor}`;
};

/**
 * After eraseActorSql: the push deliveries of those notifications keep what was pushed (the console shows it), so
 * their title and body become the scrubbed ones. Through the outbox's (user_id, cause_key) and deliveries' outbox_id.
 */
export const eraseActorPushesSql = (actor: Prisma.Sql) => Prisma.sql`
  UPDATE push_deliveries d SET title = n.payload->>'title', body = coalesce(n.payload->>'body', '')
  FROM notifications n JOIN push_outbox o ON o.user_id = n.user_id AND o.cause_key = n.cause_key
  WHERE n.actor_id = ${actor} AND d.outbox_id = o.id`;

// Producers: one INSERT … SELECT each (lib/core/notifications/writes.ts), idempotent through UNIQUE (user_id, cause_key). --------------------------

/**
 * MILESTONE for the highest threshold each user's Rep balance has reached, unless a milestone at that threshold or
 * above was already written (a balance that falls after spending never brings back a lower one).
 */
export function insertRepMilestones(db: DbTx, thresholds: readonly number[]) {
  return insertNotifications(raw(db), {
    type: "MILESTONE",
    recipient: Prisma.sql`m.id`,
    cause: Prisma.sql`'milestone:rep:' || m.threshold`,
    actor: null,
    payload: Prisma.sql`jsonb_build_object('metric', 'rep_balance', 'threshold', m.threshold,
             'title', m.threshold || ' Rep reached', 'body', 'You have ' || m.threshold || ' Rep or more. See what you can redeem.',
             'href', '/api/rewards')`,
    from: Prisma.sql`FROM (
      SELECT DISTINCT ON (u.id) u.id, t.threshold
      FROM users u JOIN unnest(${[...thresholds]}::int[]) AS t(threshold) ON u.rep_balance >= t.threshold
      WHERE u.notify_milestones
      ORDER BY u.id, t.threshold DESC
    ) m
    WHERE NOT EXISTS (
      SELECT 1 FROM notifications n
      WHERE n.user_id = m.id AND n.type = 'MILESTONE' AND n.cause_key LIKE 'milestone:rep:%' AND (n.payload->>'threshold')::int >= m.threshold
    )`,
  });
}
