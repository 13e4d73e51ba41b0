import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw } from "../../db/raw";

export interface AnnouncementRow {
  id: string;
  title: string;
  body: string;
  linkUrl: string | null;
  startsAt: Date;
  endsAt: Date | null;
  createdAt: Date;
}

export const toAnnouncement = (a: AnnouncementRow) => ({
  id: a.id,
  title: a.title,
  body: a.body,
  linkUrl: a.linkUrl,
  startsAt: a.startsAt.toISOString(),
  endsAt: a.endsAt?.toISOString() ?? null,
  createdAt: a.createdAt.toISOString(),
});

export const ANNOUNCEMENT_SELECT = { id: true, title: true, body: true, linkUrl: true, startsAt: true, endsAt: true, createdAt: true } as const;

/** Running now: started, and not ended (or open-ended). */
const ACTIVE = Prisma.sql`a.starts_at <= now() AND (a.ends_at IS NULL OR a.ends_at > now())`;

/** The active announcements, newest start first; without the ones the user dismissed when a user is given. */
export function activeAnnouncements(db: DbTx, userId: string | null, take: number) {
  const undismissed = userId
    ? Prisma.sql`AND NOT EXISTS (SELECT 1 FROM announcement_dismissals d WHERE d.announcement_id = a.id AND d.user_id = ${userId}::uuid)`
    : Prisma.empty;
  return raw(db).$queryRaw<AnnouncementRow[]>`
    SELECT a.id::text AS id, a.title, a.body, a.link_url AS "linkUrl", a.starts_at AS "startsAt", a.ends_at AS "endsAt", a.created_at AS "createdAt"
    FROM announcements a
    WHERE ${ACTIVE} ${undismissed}
    ORDER BY a.starts_at DESC, a.id DESC LIMIT ${take}`;
}

/**
 * Records the user's dismissal of an active announcement, once (a second or concurrent one changes nothing), and
 * answers when they first dismissed it; null when the announcement is unknown or not active.
 */
export async function dismiss(db: DbTx, userId: string, announcementId: string) {
  // DO UPDATE (to the same value), not DO NOTHING: it waits for a concurrent first dismissal and returns its row,
  // which DO NOTHING would skip (this statement's snapshot does not see the other's insert).
  const [row] = await raw(db).$queryRaw<{ dismissedAt: Date }[]>`
    INSERT INTO announcement_dismissals (user_id, announcement_id)
    SELECT ${userId}::uuid, a.id FROM announcements a WHERE a.id = ${announcementId}::uuid AND ${ACTIVE}
    ON CONFLICT (user_id, announcement_id) DO UPDATE SET dismissed_at = announcement_dismissals.dismissed_at
    RETURNING dismissed_at AS "dismissedAt"`;
  return row?.dismissedAt ?? null;
}

/** Every announcement, newest start first, with whether it is scheduled, running or ended (the database's clock): the console's list. */
export function recentAnnouncements(db: DbTx, take: number) {
  return raw(db).$queryRaw<(AnnouncementRow & { status: "scheduled" | "running" | "ended" })[]>`
    SELECT a.id::text AS id, a.title, a.body, a.link_url AS "linkUrl", a.starts_at AS "startsAt", a.ends_at AS "endsAt", a.created_at AS "createdAt",
      CASE WHEN a.starts_at > now() THEN 'scheduled' WHEN a.ends_at IS NOT NULL AND a.ends_at <= now() THEN 'ended' ELSE 'running' END AS status
    FROM announcements a
    ORDER BY a.starts_at DESC, a.id DESC LIMIT ${take}`;
}

/** Locks the announcement's row (FOR UPDATE): whether it exists. */
export async function lockAnnouncement(tx: DbTx, announcementId: string): Promise<boolean> {
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM announcements WHERE id = ${announcementId}::uuid FOR UPDATE`;
  return locked !== undefined;
}
