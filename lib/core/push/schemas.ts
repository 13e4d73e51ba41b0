import { z } from "zod";
import { intlTimeZone } from "../../kernel/schemas";
import { NOTIFICATION_TYPES, type NotificationType } from "../notifications/schemas";

/**
 * The account settings' notify_* booleans (PATCH /api/user/settings) and the notification types each one switches
 * in-app: a setting is on while any of its types is, turning it off turns them all off, turning it on turns them all
 * on (a trigger on users). Types in no list (POST_PUBLISHED and the marketplace's, trades included) have only their own preference.
 */
export const SETTING_TYPES = {
  notifyTeams: ["GAME_ALERT", "RATING", "TEAM_POST"],
  notifyMilestones: ["MILESTONE", "STREAK_AT_RISK"],
  notifyCommunity: ["REPLY", "REACTION", "FOLLOW", "FOLLOW_REQUEST", "MENTION", "REPOST", "QUOTE"],
} as const satisfies Record<string, readonly NotificationType[]>;
export type NotifySetting = keyof typeof SETTING_TYPES;

export const settingOf = (type: NotificationType): NotifySetting | undefined =>
  (Object.keys(SETTING_TYPES) as NotifySetting[]).find((s) => (SETTING_TYPES[s] as readonly string[]).includes(type));

const validTimezone = (tz: string) => intlTimeZone(tz) !== null;

const clock = (what: string) =>
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "A time of day as HH:MM (00:00 to 23:59)")
    .meta({ description: `${what}, local time in timeZone (HH:MM).`, examples: ["22:00"] });

export const quietHours = z
  .strictObject({
    start: clock("When quiet hours begin"),
    end: clock("When they end (an end before the start spans midnight)"),
    timeZone: z.string().min(1).max(64).refine(validTimezone, "An IANA time zone, e.g. Europe/London").nullable().optional().meta({
      description: "An IANA time zone for these hours; left out or null: they follow the fan's own time zone (`timezone` in the settings, else UTC).",
    }),
  })
  .refine((q) => q.start !== q.end, { message: "start and end must differ", path: ["end"] })
  .meta({
    id: "QuietHours",
    description:
      "No push from start to end in the user's time zone: what falls due then waits until the end (and is dropped when older than PUSH_STALE_HOURS, 24 h by default). The inbox is not affected.",
  });

export const typePreference = z
  .object({
    type: z.enum(NOTIFICATION_TYPES),
    inApp: z.boolean().meta({ description: "The inbox gets this type. Off: it is neither in the inbox nor pushed." }),
    push: z.boolean().meta({ description: "This type is pushed to the caller's devices (only while inApp is on)." }),
    setting: z
      .enum(["notifyTeams", "notifyMilestones", "notifyCommunity"])
      .nullable()
      .meta({ description: "The account setting (GET /api/user/settings) that switches this type in-app together with its others; null for none." }),
  })
  .meta({ id: "NotificationTypePreference" });

export const notificationPreferences = z
  .object({
    types: z.array(typePreference).meta({ description: "Every notification type, in a fixed order." }),
    quietHours: z
      .object({
        start: z.string(),
        end: z.string(),
        timeZone: z.string().meta({ description: "The time zone the hours are in now." }),
        followsAccountTimeZone: z.boolean().meta({ description: "True when no zone was set for them: they move with the fan's `timezone` setting." }),
      })
      .nullable(),
  })
  .meta({ id: "NotificationPreferences" });

export const notificationPreferencesPut = z
  .strictObject({
    types: z
      .array(z.strictObject({ type: z.enum(NOTIFICATION_TYPES), inApp: z.boolean().optional(), push: z.boolean().optional() }))
      .max(NOTIFICATION_TYPES.length)
      .refine((a) => new Set(a.map((t) => t.type)).size === a.length, "Each type at most once")
      .optional()
      .meta({ description: "Types to change: each names inApp, push or both; types and fields left out keep their values." }),
    quietHours: quietHours.nullable().optional().meta({ description: "Quiet hours; null removes them; left out keeps them." }),
  })
  .refine((b) => b.types !== undefined || b.quietHours !== undefined, "Send types, quietHours or both")
  .meta({ id: "NotificationPreferencesUpdate" });
export type PreferencesPut = z.infer<typeof notificationPreferencesPut>;

export const deliverResult = z
  .object({
    claimed: z.number().int().meta({ description: "Outbox rows due and claimed by this call." }),
    sent: z.number().int(),
    deferred: z.number().int().meta({ description: "In the user's quiet hours: due again when they end." }),
    retrying: z.number().int().meta({ description: "Failed, due again after the backoff." }),
    failed: z.number().int().meta({ description: "Failed for the last allowed time (PUSH_MAX_ATTEMPTS)." }),
    dropped: z.number().int().meta({ description: "Never to be sent: stale, blocked, push off, no device left, or interrupted mid-send." }),
    receipts: z.number().int().meta({ description: "Expo receipts read (DeviceNotRegistered there removes the device)." }),
  })
  .meta({ id: "PushDeliverResult" });
export type DeliverResult = z.infer<typeof deliverResult>;

export const OUTBOX_STATUSES = ["pending", "sending", "sent", "failed", "dropped"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
