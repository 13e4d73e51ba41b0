import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { uuidv7 } from "../../db/ids";
import { txOptions } from "../../db/tx";
import { notFound, validationError } from "../../kernel/errors";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { activeAnnouncements, ANNOUNCEMENT_SELECT, dismiss, lockAnnouncement, recentAnnouncements, toAnnouncement } from "./queries";
import { endAnnouncementNow } from "./writes";
import { ANNOUNCEMENT_HORIZON_MS, ANNOUNCEMENTS_MAX, type AnnouncementCreateInput } from "./schemas";

// Announcements: staff messages every fan sees while they run (startsAt <= now < endsAt, or no end), newest first; a
// signed-in fan can dismiss one for themselves. Staff create them and end them early, audited in the same
// transaction. Rules: docs/domains/announcements.md.

const announcementNotFound = () => notFound("Announcement");

/** The running announcements, newest first, capped; a signed-in fan's dismissed ones left out. */
export async function listAnnouncements(db: DbTx, user: Pick<AuthUser, "id"> | null) {
  const rows = await activeAnnouncements(db, user?.id ?? null, ANNOUNCEMENTS_MAX);
  return { announcements: rows.map(toAnnouncement) };
}

/** Staff: the latest announcements of any status (scheduled, running, ended), newest start first (the console). */
export async function listRecentAnnouncements(db: DbTx, limit = 100) {
  const rows = await recentAnnouncements(db, limit);
  return { announcements: rows.map((r) => ({ ...toAnnouncement(r), status: r.status })) };
}

/** Dismisses a running announcement for the fan. Idempotent: answers the first dismissal's time. Unknown or not running: 404. */
export async function dismissAnnouncement(db: DbTx, userId: string, announcementId: string) {
  const dismissedAt = await dismiss(db, userId, announcementId);
  if (!dismissedAt) throw announcementNotFound();
  return { announcementId, dismissedAt: dismissedAt.toISOString() };
}

/** Staff create an announcement (audited in the same transaction). */
export async function createAnnouncement(db: Db, input: AnnouncementCreateInput, actor: StaffActor) {
  const now = Date.now();
  const startsAt = input.startsAt ? new Date(input.startsAt) : new Date(now);
  const endsAt = input.endsAt ? new Date(input.endsAt) : null;
  if (startsAt.getTime() > now + ANNOUNCEMENT_HORIZON_MS) {
    throw validationError("startsAt must be at most a year ahead.", [{ path: "body.startsAt", message: "at most a year ahead" }]);
  }
  if (endsAt && (endsAt <= startsAt || endsAt.getTime() <= now || endsAt.getTime() > now + ANNOUNCEMENT_HORIZON_MS)) {
    throw validationError("endsAt must be after startsAt and in the future, at most a year ahead.", [
      { path: "body.endsAt", message: "after startsAt, in the future, at most a year ahead" },
    ]);
  }
  const id = uuidv7();
  const created = await db.$transaction(async (tx) => {
    const row = await tx.announcement.create({
      data: { id, title: input.title, body: input.body, linkUrl: input.linkUrl ?? null, startsAt, endsAt, createdBy: actor.id },
      select: ANNOUNCEMENT_SELECT,
    });
    const out = toAnnouncement(row);
    await recordAudit(tx, actor, { action: "announcement.create", targetType: "announcement", targetId: id, after: out });
    return out;
  }, txOptions());
  return { announcement: created };
}

/** Staff end an announcement now (audited). Idempotent: one that has already ended is answered unchanged, without an entry. Unknown: 404. */
export async function endAnnouncement(db: Db, announcementId: string, actor: StaffActor) {
  const ended = await db.$transaction(async (tx) => {
    if (!(await lockAnnouncement(tx, announcementId))) throw announcementNotFound();
    const before = toAnnouncement(await tx.announcement.findUniqueOrThrow({ where: { id: announcementId }, select: ANNOUNCEMENT_SELECT }));
    const changed = await endAnnouncementNow(tx, announcementId);
    if (!changed) return before;
    const after = toAnnouncement(await tx.announcement.findUniqueOrThrow({ where: { id: announcementId }, select: ANNOUNCEMENT_SELECT }));
    await recordAudit(tx, actor, { action: "announcement.end", targetType: "announcement", targetId: announcementId, before, after });
    return after;
  }, txOptions());
  return { announcement: ended };
}
