import { z } from "zod";
import { isoDateTime, UUID_PATTERN } from "../../kernel/schemas";

// Feed signals: what the apps saw and did, sent in batches. The lists below are the PostgreSQL enums FeedSignalType
// and FeedItemType (prisma/schema/signals.prisma); tests/domain/signals.test.ts keeps them equal.

export const SIGNAL_TYPES = ["impression", "view", "click", "dwell", "share", "like", "unlike", "save", "hide"] as const;
export const SIGNAL_ITEM_TYPES = ["post", "team", "game", "player", "league", "reward", "quest", "user"] as const;

export const MAX_EVENTS_PER_BATCH = 50;
/** Browsers cap the bodies of keepalive fetches (and sendBeacon) in flight at 64 KiB. */
export const SIGNALS_BODY_LIMIT = 65_536;
/** How far the client's `at` may lie before and after the server's clock. */
export const MAX_EVENT_AGE_MS = 24 * 3_600_000;
export const MAX_EVENT_AHEAD_MS = 5 * 60_000;
export const MAX_DURATION_MS = 3_600_000;
export const MAX_POSITION = 9_999;
const ID_MAX = 64;

/** Ids of the things seen: ours (`tm_hch`, UUIDs) and providers'; letters, digits and `_ - . :` only. */
const itemRef = z
  .string()
  .max(ID_MAX)
  .regex(/^[A-Za-z0-9_.:-]+$/, "Only letters, digits and _ - . : are allowed");

const at = z.iso.datetime({ offset: true, error: "Must be an ISO 8601 date-time with Z or an offset" }).superRefine((value, ctx) => {
  const offset = Date.parse(value) - Date.now();
  if (Number.isNaN(offset)) return;
  if (offset < -MAX_EVENT_AGE_MS) ctx.addIssue({ code: "custom", message: "More than 24 h in the past: events older than a day are not accepted" });
  else if (offset > MAX_EVENT_AHEAD_MS) ctx.addIssue({ code: "custom", message: "More than 5 min in the future (check the device clock)" });
});

export const signalEvent = z
  .strictObject({
    type: z.enum(SIGNAL_TYPES).meta({
      description:
        "What happened. `impression`: the item was rendered on screen; `view`: the item itself was opened; `click`: a tap on it or on one of its actions; " +
        "`dwell`: time spent on it (`durationMs` required); `share`, `like`, `unlike`, `save`: those actions; `hide`: the user asked to see less of it.",
    }),
    itemType: z.enum(SIGNAL_ITEM_TYPES).meta({ description: "What kind of thing the event is about." }),
    itemId: itemRef.meta({ description: `The item's id (at most ${ID_MAX} characters: letters, digits, \`_ - . :\`).`, examples: ["tm_hch"] }),
    teamId: itemRef.optional().meta({ description: "The team the item belongs to, when it belongs to one (a team's post, game or player)." }),
    at: at.meta({
      description: `When it happened, on the client's clock (ISO 8601 with \`Z\` or an offset). At most 24 h before and 5 min after the server's clock, else the batch is 400 naming \`body.events.<i>.at\`.`,
      examples: ["2026-11-23T18:04:05.120Z"],
    }),
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(MAX_DURATION_MS)
      .optional()
      .meta({ description: `How long, in whole milliseconds (0..${MAX_DURATION_MS}: clamp longer ones). Required for \`dwell\`, optional for the others.` }),
    surface: z
      .string()
      .min(1)
      .max(32)
      .regex(/^[a-z][a-z0-9_.-]*$/, "Lower-case letters, digits and _ - . only, starting with a letter")
      .optional()
      .meta({ description: "Where in the app: a screen or module name (1..32 characters, lower-case).", examples: ["home_feed", "team_hq"] }),
    position: z
      .number()
      .int()
      .min(0)
      .max(MAX_POSITION)
      .optional()
      .meta({ description: `The item's 0-based index in the list or carousel it was shown in (0..${MAX_POSITION}).` }),
    eventId: z.string().regex(UUID_PATTERN, "Must be a UUID").optional().meta({
      description:
        "The client's id for this event (a UUID, e.g. crypto.randomUUID()). An id repeated within a batch is stored once (counted in `duplicates`). When every event of a batch has one, the batch is known by its ids: sending the same events again (a batch whose answer was lost, in any order) stores nothing more and answers them all as `duplicates`, so a retry is safe. Without ids, every send is stored. Keep a batch's events together when retrying: events regrouped into a different batch are a new batch.",
    }),
  })
  .meta({ id: "FeedSignalEvent", description: "One behavioural event. Unknown fields are refused (400 naming them)." });

export type SignalEvent = z.infer<typeof signalEvent>;

export const signalBatch = z
  .strictObject({
    events: z
      .array(signalEvent)
      .min(1)
      .max(MAX_EVENTS_PER_BATCH)
      // Checked over the array rather than per event: a refinement on each event costs ~15% of the parse.
      .superRefine((events, ctx) => {
        events.forEach((e, i) => {
          if (e.type === "dwell" && e.durationMs === undefined) ctx.addIssue({ code: "custom", path: [i, "durationMs"], message: "Required for dwell events" });
        });
      })
      .meta({ description: `1..${MAX_EVENTS_PER_BATCH} events, in any order. One invalid event refuses the whole batch (400 naming it); nothing is stored.` }),
  })
  .meta({ id: "FeedSignalBatch" });

export const DROPPED_REASONS = ["analytics_personalization_off"] as const;

export const signalsResult = z
  .object({
    received: z.number().int().nonnegative().meta({ description: "Events in the batch." }),
    accepted: z.number().int().nonnegative().meta({ description: "Events stored by this request." }),
    duplicates: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: "Events not stored: their `eventId` was repeated in the batch, or the whole batch (the same eventIds) was stored before." }),
    dropped: z.number().int().nonnegative().meta({ description: "Events discarded unstored because of `droppedReason`." }),
    droppedReason: z.enum(DROPPED_REASONS).nullable().meta({
      description: "`analytics_personalization_off`: the caller turned `analyticsPersonalization` off, so the whole batch was dropped. Null otherwise.",
    }),
  })
  .meta({ id: "FeedSignalsResult", description: "`received` = `accepted` + `duplicates` + `dropped`." });

export const retentionResult = z
  .object({
    deleted: z.number().int().nonnegative().meta({ description: "Events deleted by this call (stored batches go whole)." }),
    cutoff: isoDateTime.meta({ description: "Signals received before this instant were due." }),
    complete: z.boolean().meta({ description: "False when the call stopped at its batch or time budget with due signals left (the next call continues)." }),
  })
  .meta({ id: "SignalsRetentionResult" });
