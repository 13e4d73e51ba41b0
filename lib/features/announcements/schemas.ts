import { z } from "zod";
import { isoDateTime, uuidString } from "../../kernel/schemas";

// Announcements: requests and answers (lib/features/announcements/service.ts).

/** Active announcements one list answers at most (newest first; no paging: only a handful run at once). */
export const ANNOUNCEMENTS_MAX = 20;
/** How far ahead staff may schedule the start or the end. */
export const ANNOUNCEMENT_HORIZON_MS = 366 * 86_400_000;

export const announcementParams = z.strictObject({ announcementId: uuidString("Announcement id (UUID).") });

export const announcementCreateBody = z
  .strictObject({
    title: z.string().trim().min(1).max(120),
    body: z.string().trim().min(1).max(2_000),
    linkUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .optional()
      .meta({ description: "An https link the app opens from the announcement." }),
    startsAt: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: "When fans start seeing it (default now; may be in the future, at most a year ahead)." }),
    endsAt: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: "When it stops being shown: after startsAt and in the future, at most a year ahead; omitted: until staff end it." }),
  })
  .meta({ id: "AnnouncementCreate" });
export type AnnouncementCreateInput = z.infer<typeof announcementCreateBody>;

export const announcement = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    linkUrl: z.string().nullable(),
    startsAt: isoDateTime,
    endsAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: "Announcement" });

export const announcementResponse = z.object({ announcement });
export const announcementList = z.object({ announcements: z.array(announcement) }).meta({ id: "AnnouncementList" });
export const dismissalResponse = z
  .object({ announcementId: z.string(), dismissedAt: isoDateTime.meta({ description: "When the caller first dismissed it." }) })
  .meta({ id: "AnnouncementDismissal" });
