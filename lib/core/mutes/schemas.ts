import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";

// Account mutes (POST, GET /api/user/mutes; DELETE …/{userId}) and keyword filters (/api/v1/me/filters).

export const MUTES_MAX = 1_000;
export const FILTERS_MAX = 100;
export const KEYWORDS_PER_FILTER_MAX = 10;
/** Keywords across all of a user's filters: one context's patterns form one regular expression, kept small. */
export const KEYWORDS_MAX = 200;
export const KEYWORD_LENGTH_MAX = 60;
export const FILTER_CONTEXTS = ["feed", "comments", "notifications"] as const;
export type FilterContext = (typeof FILTER_CONTEXTS)[number];

const future = (what: string) =>
  z.iso
    .datetime({ offset: true, error: `${what} must be an ISO 8601 date-time with Z or an offset` })
    .refine((s) => new Date(s).getTime() > Date.now(), "Must be in the future");

// Mutes ----------------------------------------------------------------------------------------------------------

export const muteBody = z
  .strictObject({
    userId: uuidString("The account to mute.", "Must be a user id (UUID)"),
    expiresAt: future("expiresAt").nullable().optional().meta({ description: "The mute ends at this time (in the future); absent or null: until unmuted." }),
    notifications: z
      .boolean()
      .default(true)
      .meta({ description: "Also stop notifications the account causes (comments, replies, reactions, team posts). Default true." }),
  })
  .meta({ id: "UserMuteCreate" });
export type MuteBody = z.infer<typeof muteBody>;

const userSummary = z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable(), avatarUrl: z.string().nullable() });

export const mute = z
  .object({
    user: userSummary,
    notifications: z.boolean(),
    expiresAt: isoDateTime.nullable(),
    mutedAt: isoDateTime,
  })
  .meta({ id: "UserMute", description: "An account the caller mutes, seen by the caller only." });

export const muteResult = z.object({ mute }).meta({ id: "UserMuteResult" });
export const unmuteResult = z.object({ muted: z.literal(false), userId: z.string() }).meta({ id: "UserUnmuteResult" });
export const muteListQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });
export const mutePage = z
  .object({
    mutes: z.array(mute),
    nextCursor: z.string().optional().meta({ description: "Present only when more mutes remain." }),
  })
  .meta({ id: "UserMutePage" });
export const mutedUserParams = z.strictObject({ userId: uuidString("Id of the muted user.", "Must be a user id (UUID)") });

// Keyword filters ------------------------------------------------------------------------------------------------

// Text PostgreSQL stores and matches: no NUL (jsonb and text refuse it) or other control characters.
const NO_CONTROLS = /^[^\u0000-\u001f\u007f]*$/;

const keyword = z
  .strictObject({
    keyword: z
      .string()
      .transform((s) => s.trim().replace(/\s+/g, " "))
      .pipe(
        z
          .string()
          .min(1, "Must not be empty")
          .max(KEYWORD_LENGTH_MAX, `At most ${KEYWORD_LENGTH_MAX} characters`)
          .regex(NO_CONTROLS, "Must not contain control characters"),
      )
      .meta({ description: `A word or phrase (1..${KEYWORD_LENGTH_MAX} characters; runs of spaces count as one). Matched case-insensitively.` }),
    wholeWord: z
      .boolean()
      .default(true)
      .meta({ description: "Match only where the phrase starts and ends on word boundaries (default true): `goal` then hides `goal!` but not `goalkeeper`." }),
  })
  .meta({ id: "FilterKeyword" });
export type FilterKeyword = z.output<typeof keyword>;

const keywords = z
  .array(keyword)
  .min(1, "At least one keyword")
  .max(KEYWORDS_PER_FILTER_MAX, `At most ${KEYWORDS_PER_FILTER_MAX} keywords per filter`)
  .meta({ description: `1..${KEYWORDS_PER_FILTER_MAX} keywords; a text matching any of them is hidden.` });

const contexts = z
  .array(z.enum(FILTER_CONTEXTS))
  .min(1, "At least one context")
  .transform((cs) => [...new Set(cs)])
  .meta({ description: "Where the filter hides: `feed` (locker-room posts), `comments` (comments and replies), `notifications` (the inbox)." });

const title = z
  .string()
  .trim()
  .min(1, "Must not be empty")
  .max(100, "At most 100 characters")
  .regex(NO_CONTROLS, "Must not contain control characters")
  .meta({ description: "A name for the filter (default: its first keyword)." });

const expiresAt = future("expiresAt").nullable().meta({ description: "The filter stops applying at this time (in the future); null: never." });

export const filterBody = z.strictObject({ title: title.optional(), keywords, contexts, expiresAt: expiresAt.optional() }).meta({ id: "KeywordFilterCreate" });
export type FilterBody = z.infer<typeof filterBody>;

export const filterPatch = z
  .strictObject({ title: title.optional(), keywords: keywords.optional(), contexts: contexts.optional(), expiresAt: expiresAt.optional() })
  .refine((b) => Object.keys(b).length > 0, "Send at least one of title, keywords, contexts, expiresAt")
  .meta({ id: "KeywordFilterPatch", description: "The fields to change; `keywords` replaces the filter's keywords." });
export type FilterPatch = z.infer<typeof filterPatch>;

export const filterParams = z.strictObject({ filterId: uuidString("Filter id (UUID).") });

export const filter = z
  .object({
    id: z.string(),
    title: z.string(),
    keywords: z.array(z.object({ keyword: z.string(), wholeWord: z.boolean() })),
    contexts: z.array(z.enum(FILTER_CONTEXTS)),
    expiresAt: isoDateTime.nullable(),
    expired: z.boolean().meta({ description: "Past its expiresAt: it no longer hides anything." }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "KeywordFilter" });

export const filterResult = z.object({ filter }).meta({ id: "KeywordFilterResult" });
export const filterList = z.object({ filters: z.array(filter) }).meta({ id: "KeywordFilterList" });
export const filterRemoved = z.object({ removed: z.boolean() }).meta({ id: "KeywordFilterRemoved" });
