import type { DbTx } from "../../db/client";
import { decodeCursor, encodeCursor, invalidCursor } from "../../kernel/cursor";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { keysetPage } from "../../kernel/page";
import { UUID_PATTERN } from "../../kernel/schemas";
import { viewerTextFilter } from "../mutes/service";
import {
  filteredText,
  insertRepMilestones,
  markAllRead,
  markNotification,
  notificationsOf,
  toNotification,
  type ListAfter,
  type NotificationRow,
} from "./queries";
import { REP_MILESTONES, type NotificationFilter, type NotificationType } from "./schemas";

// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { actorJsonSql, actorNameSql, insertNotifications, notBlockedEitherWaySql, recipientAcceptsSql, threadNotMutedSql } from "./writes";
export { eraseActorPushesSql, eraseActorSql, readablePayloadSql } from "./queries";

// The inbox: notifications are written only by the producers (cron routes); a user reads, archives and lists them.
// Read and archived are two states; archiving also reads. Both writes are idempotent (the first time is kept).

// A cursor's sort key is the filter it continues ("inbox", "unread", "all", or "archived:<archivedAt ms>").
function cursorOf(filter: NotificationFilter, row: NotificationRow) {
  return encodeCursor(filter === "archived" ? `archived:${row.archivedAt!.getTime()}` : filter, row.id);
}

function decodeListCursor(cursor: string, filter: NotificationFilter): ListAfter {
  const { sortKey, id } = decodeCursor(cursor);
  if (!UUID_PATTERN.test(id)) throw invalidCursor();
  const match = /^(inbox|unread|all|archived)(?::(\d{1,15}))?$/.exec(sortKey);
  if (!match || (match[1] === "archived") !== (match[2] !== undefined)) throw invalidCursor();
  if (match[1] !== filter) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, `This cursor continues filter=${match[1]}, not filter=${filter}; start again without it.`, [
      { path: "query.cursor", message: `Cursor belongs to filter=${match[1]}` },
    ]);
  }
  if (match[2] === undefined) return { id };
  const at = new Date(Number(match[2]));
  if (Number.isNaN(at.getTime())) throw invalidCursor();
  return { id, at };
}

export async function listNotifications(
  db: DbTx,
  userId: string,
  { filter, types, cursor, limit }: { filter: NotificationFilter; types?: NotificationType[]; cursor?: string; limit: number },
) {
  const after = cursor ? decodeListCursor(cursor, filter) : undefined;
  const rows = await notificationsOf(db, userId, filter, types && [...new Set(types)], after, limit + 1);
  const filtered = await viewerTextFilter(db, userId, "notifications", rows);
  // Notifications the caller's keyword filters hide are left out: a short page whose cursor follows the last one read.
  return keysetPage(
    "notifications",
    rows,
    limit,
    (r) => cursorOf(filter, r),
    toNotification,
    (r) => !filtered(filteredText(r)),
  );
}

/** Marks one of the user's notifications read or archived (idempotent); another user's or an unknown id is 404. */
export async function setNotificationState(db: DbTx, userId: string, id: string, state: "read" | "archived") {
  const row = await markNotification(db, userId, id, state);
  if (!row) throw notFound("Notification");
  return toNotification(row);
}

/** Marks read what the caller had seen: created by `seenAt` (the request's start) and, with `upTo`, not newer. */
export async function readAll(db: DbTx, userId: string, seenAt: Date, upTo?: string) {
  return { marked: await markAllRead(db, userId, seenAt, upTo) };
}

// The producer of Rep milestones (a cron route): one statement, safe to run twice or concurrently. The games' own
// (GAME_ALERT, RATING) are the games' (lib/features/games/alert-writes.ts, run from their service).
/** GET /api/cron/notifications-milestones. */
export const runRepMilestones = async (db: DbTx) => ({ type: "MILESTONE" as const, created: await insertRepMilestones(db, REP_MILESTONES) });

/**
 * Mastodon v2 style: GAME_ALERT, RATING, FOLLOW and FOLLOW_REQUEST of one UTC day (by createdAt) group, reactions and
 * reposts and mentions per post; the others stand alone.
 */
const GROUPED_PER_DAY: readonly NotificationType[] = ["GAME_ALERT", "RATING", "FOLLOW", "FOLLOW_REQUEST"];
export function groupKeyOf(n: { id: string; type: NotificationType; createdAt: string; payload: unknown }) {
  if (GROUPED_PER_DAY.includes(n.type)) return `${n.type}:${n.createdAt.slice(0, 10)}`;
  if (n.type === "REACTION" || n.type === "REPOST" || n.type === "MENTION") return `${n.type}:${(n.payload as { postId: string }).postId}`;
  return `ungrouped-${n.id}`;
}

/**
 * One page of the list (same filters, limit and cursor), its notifications grouped within the page: groups in the
 * order of their newest notification, so paging stays on the list's keyset (no scan of the whole inbox).
 */
export async function listNotificationGroups(db: DbTx, userId: string, query: Parameters<typeof listNotifications>[2]) {
  const page = await listNotifications(db, userId, query);
  const groups = new Map<string, { groupKey: string; type: NotificationType; notifications: (typeof page.notifications)[number][] }>();
  for (const n of page.notifications) {
    const groupKey = groupKeyOf(n);
    const group = groups.get(groupKey) ?? { groupKey, type: n.type, notifications: [] };
    group.notifications.push(n);
    groups.set(groupKey, group);
  }
  const result = [...groups.values()].map(({ groupKey, type, notifications }) => {
    const ids = notifications.map((n) => n.id).sort();
    const newest = notifications.reduce((a, b) => (b.id > a.id ? b : a));
    return {
      groupKey,
      type,
      notificationsCount: notifications.length,
      unreadCount: notifications.filter((n) => n.readAt === null).length,
      mostRecentNotificationId: newest.id,
      latestPageNotificationAt: newest.createdAt,
      pageMinId: ids[0]!,
      pageMaxId: ids[ids.length - 1]!,
      notifications,
    };
  });
  return page.nextCursor ? { groups: result, nextCursor: page.nextCursor } : { groups: result };
}
