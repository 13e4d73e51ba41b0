import { z } from "zod";
import { STAFF_ROLES } from "../../auth/roles";
import { favoriteTeam } from "../teams/schemas";
import { cursorQuery, idString, intlTimeZone, intQuery, isoDateTime, UUID_PATTERN } from "../../kernel/schemas";

/** The IANA name Intl knows `tz` by (canonical case), or null when it knows none. */
export function canonicalTimeZone(tz: string): string | null {
  return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz) ? intlTimeZone(tz) : null;
}
const validTimeZone = (tz: string) => canonicalTimeZone(tz) !== null;

export const settings = z
  .object({
    privateProfile: z.boolean().meta({ description: "Mirrors the user's private flag." }),
    notifyTeams: z.boolean(),
    notifyMilestones: z.boolean(),
    notifyCommunity: z.boolean(),
    analyticsPersonalization: z.boolean().meta({ description: "When false, feed signals are dropped, not stored." }),
    country: z
      .string()
      .nullable()
      .meta({ description: "The country the fan lives in (ISO 3166-1 alpha-2), or null: packs are not sold in some countries (GET /api/v1/me/eligibility)." }),
    timezone: z.string().nullable().meta({
      description:
        "The fan's IANA time zone (e.g. Europe/London), or null (UTC). It times what the fan feels (the streak-at-risk notification in the local evening, the UTC day's end in local time), never what counts (daily quests and the streak count UTC days).",
    }),
    timezoneChangeableAt: isoDateTime
      .nullable()
      .meta({ description: "From when timezone may change again (24 hours after the last change); null when it may now." }),
  })
  .meta({ id: "UserSettings" });

export const settingsPatch = z
  .strictObject({
    privateProfile: z.boolean().optional(),
    notifyTeams: z.boolean().optional(),
    notifyMilestones: z.boolean().optional(),
    notifyCommunity: z.boolean().optional(),
    analyticsPersonalization: z.boolean().optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "A two-letter country code (ISO 3166-1 alpha-2)")
      .transform((c) => c.toUpperCase())
      .nullable()
      .optional(),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .refine(validTimeZone, "An IANA time zone name, e.g. Europe/London")
      .transform((tz) => canonicalTimeZone(tz)!)
      .nullable()
      .optional()
      .meta({
        description:
          "An IANA time zone name (unknown: 400 VALIDATION_ERROR), or null for UTC. Changes at most once per 24 hours (409 TIMEZONE_CHANGE_TOO_SOON); sending the current value is no change.",
      }),
  })
  .refine((v) => Object.keys(v).length > 0, { message: "Send at least one setting." })
  .meta({ id: "UserSettingsPatch" });

export const me = z
  .object({
    id: z.string(),
    handle: z.string().nullable(),
    displayName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    bio: z.string().nullable(),
    isPrivate: z.boolean(),
    role: z.enum(["fan", ...STAFF_ROLES]).meta({
      description:
        "`fan`, or the caller's staff role: `admin` (every console area), `moderator`, `support` or `economy` (some areas; see the console guide). Show the console's entry to any role but `fan`; treat a value you do not know as staff without areas.",
    }),
    onboarded: z.boolean(),
    ugcTermsVersion: z.string().nullable(),
    repBalance: z.number().int(),
    claimedRewardsCount: z.number().int(),
    settings,
    createdAt: isoDateTime,
  })
  .meta({ id: "CurrentUser" });

export const HANDLE_PATTERN = /^[A-Za-z0-9_]{3,30}$/;
export const checkUsernameQuery = z.strictObject({
  username: z
    .string()
    .regex(HANDLE_PATTERN, "3-30 characters: letters, digits and underscores")
    .meta({ description: "Display handle to check (case-insensitive)." }),
});
export const usernameAvailability = z.object({ available: z.boolean() }).meta({ id: "UsernameAvailability" });

export type SettingsPatch = z.infer<typeof settingsPatch>;

// ---------------------------------------------------------------------------------------------------------------
// Profile, onboarding, blocks, terms and the caller's history lists.

export const DISPLAY_NAME_MAX = 50;
export const BIO_MAX = 280;
/** Favorite teams that count against the cap; official teams (Team.isOfficial) do not count. */
export const FAVORITE_TEAMS_CAP = 5;
/** Longest favoriteTeamIds array accepted at all (official teams included). */
export const FAVORITE_TEAMS_MAX_ITEMS = 25;

// PostgreSQL text cannot hold NUL; other control characters have no place in names either.
const noControl = (s: string) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s);
/**
 * Invisible characters that let one name pass for another: format characters (Unicode Cf: bidi overrides and
 * isolates such as U+202E, zero-width space/joiners, soft hyphen, BOM, tag characters) and the line/paragraph
 * separators (Zl, Zp). Refused in names. This also refuses emoji joined with U+200D (e.g. family emoji).
 */
export const INVISIBLE_FORMAT = /\p{Cf}|\p{Zl}|\p{Zp}/u;

const handleInput = z.string().regex(HANDLE_PATTERN, "3-30 characters: letters, digits and underscores").meta({
  description:
    "Display handle, 3..30 of [A-Za-z0-9_]. Unique case-insensitively; the case you send is kept. Reserved handles answer 409 USERNAME_TAKEN: staff-like words (admin, support, staff, moderator, official, …) compared after folding case, look-alike digits (0→o, 1→i/l, 3→e, 4→a, 5→s, 7→t, 8→b), underscores and trailing digits, so admin_, support1 and 0fficial are reserved too, as are handles starting with admin, moderator or official. Keeping a handle you already hold is always allowed.",
  example: "Pat_Fan",
});

const displayNameInput = z
  .string()
  .trim()
  .min(1, "Must not be empty")
  .max(DISPLAY_NAME_MAX)
  .refine((s) => noControl(s) && !/[\r\n\t]/.test(s), "Must be one line without control characters")
  .refine(
    (s) => !INVISIBLE_FORMAT.test(s),
    "Must not contain invisible formatting characters (bidi controls, zero-width characters, line or paragraph separators)",
  )
  .meta({
    description: `Trimmed, 1..${DISPLAY_NAME_MAX} characters, one line, without control characters or invisible formatting characters (Unicode categories Cf, Zl, Zp: bidi controls, zero-width characters; emoji joined with U+200D included).`,
    example: "Pat Fan",
  });

const bioInput = z
  .string()
  .trim()
  .max(BIO_MAX)
  .nullable()
  .meta({ description: `Trimmed, 0..${BIO_MAX} characters; "" or null clears it.` });

const favoriteTeamIdsInput = z
  .array(idString)
  .max(FAVORITE_TEAMS_MAX_ITEMS)
  .superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, index) => {
      if (seen.has(id)) ctx.addIssue({ code: "custom", path: [index], message: `Duplicate team id ${id}` });
      seen.add(id);
    });
  })
  .meta({
    description: `Replaces the whole list, in the order given (display order). Ids must be unique and name existing, non-archived teams (else 400 naming the index). At most ${FAVORITE_TEAMS_CAP} non-official teams; official teams do not count (else 409 FAVORITE_TEAMS_LIMIT). [] clears the list.`,
  });

const profileFields = {
  handle: handleInput.optional(),
  displayName: displayNameInput.optional(),
  bio: bioInput.optional(),
  favoriteTeamIds: favoriteTeamIdsInput.optional(),
};

export const profilePatch = z
  .strictObject(profileFields)
  .refine((v) => Object.keys(v).length > 0, { message: "Send at least one field." })
  .meta({ id: "UserProfilePatch", description: "Only the fields sent change. Unknown fields are rejected." });

export const onboardingBody = z
  .strictObject({
    ...profileFields,
    acceptTermsVersion: z.string().min(1).max(64).optional().meta({
      description: "Accept the Terms of Use during onboarding; must equal the current version (else 409 TERMS_VERSION_MISMATCH and nothing changes).",
    }),
  })
  .meta({
    id: "OnboardingInput",
    description: "Every field is optional; the same rules as PATCH /api/user/profile apply. An empty body completes onboarding without profile changes.",
  });

export const profile = z
  .object({
    id: z.string(),
    handle: z.string().nullable(),
    displayName: z.string().nullable(),
    bio: z.string().nullable(),
    email: z.string().nullable().meta({ description: "From the identity provider (POST /api/user/sync-idp); only ever shown to its owner." }),
    avatarUrl: z.string().nullable(),
    avatarThumbhash: z.string().nullable().meta({ description: "Base64 thumbhash of the uploaded avatar, for a placeholder while it loads." }),
    bannerUrl: z.string().nullable(),
    bannerThumbhash: z.string().nullable(),
    favoriteTeams: z.array(favoriteTeam).meta({ description: "In display order." }),
    isPrivate: z.boolean(),
    onboarded: z.boolean(),
    ugcTermsVersion: z.string().nullable().meta({ description: "The Terms of Use version the user accepted, or null." }),
    ugcTermsAcceptedAt: isoDateTime.nullable(),
    currentTermsVersion: z.string().meta({ description: "The version that must be accepted to post." }),
    termsAccepted: z.boolean().meta({ description: "ugcTermsVersion equals currentTermsVersion (the user may post)." }),
    idpSyncedAt: isoDateTime.nullable().meta({ description: "Last POST /api/user/sync-idp." }),
    createdAt: isoDateTime,
  })
  .meta({ id: "UserProfile" });

export const onboardingResult = z
  .object({
    completed: z.literal(true),
    freePackId: z.string().nullable().meta({
      description:
        "Id of the free starter pack purchase (the same on every repeat), or null when the grant degraded (no active starter pack, or the grant failed); a later onboarding call retries it.",
    }),
  })
  .meta({ id: "OnboardingResult" });

export const syncIdpBody = z.strictObject({}).meta({ id: "SyncIdpInput", description: "No fields; the body may be omitted." });

export const isOnboardedResult = z.object({ isOnboarded: z.boolean() }).meta({ id: "IsOnboarded" });

// Blocks -----------------------------------------------------------------------------------------------------

export const blockBody = z
  .strictObject({
    blockedUserId: z
      .string()
      .min(1, "Must not be empty")
      .regex(UUID_PATTERN, "Must be a user id (UUID)")
      .transform((s) => s.toLowerCase())
      .optional()
      .meta({ description: "Id of the user to block." }),
    handle: z
      .string()
      .min(1, "Must not be empty")
      .regex(/^@?[A-Za-z0-9_]{3,30}$/, "3-30 characters: letters, digits and underscores (a leading @ is allowed)")
      .transform((s) => s.replace(/^@/, ""))
      .optional()
      .meta({ description: "Display handle of the user to block (case-insensitive, optional leading @)." }),
  })
  .refine((v) => v.blockedUserId !== undefined || v.handle !== undefined, { message: "Send blockedUserId or handle." })
  .meta({ id: "UserBlockCreate", description: "At least one of blockedUserId and handle; when both are sent they must name the same user." });

export const blockedUser = z
  .object({
    id: z.string(),
    handle: z.string().nullable(),
    displayName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    blockedAt: isoDateTime,
  })
  .meta({ id: "BlockedUser" });

export const blockResult = z.object({ blocked: z.literal(true), user: blockedUser }).meta({ id: "UserBlockResult" });
export const unblockResult = z.object({ blocked: z.literal(false), userId: z.string() }).meta({ id: "UserUnblockResult" });

export const blockListQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 100, 20) });
export const blockPage = z
  .object({
    blocks: z.array(blockedUser),
    nextCursor: z.string().optional().meta({ description: "Present only when more blocks remain." }),
  })
  .meta({ id: "UserBlockPage" });

export const blockedUserParams = z.strictObject({
  userId: z
    .string()
    .regex(UUID_PATTERN, "Must be a user id (UUID)")
    .transform((s) => s.toLowerCase())
    .meta({ description: "Id of the blocked user." }),
});

// Terms ----------------------------------------------------------------------------------------------------------

export const termsBody = z
  .strictObject({
    version: z.string().min(1, "Must not be empty").max(64).meta({ description: "The version being accepted; must be the current one." }),
  })
  .meta({ id: "TermsAcceptance" });
export const termsAccepted = z
  .object({
    version: z.string(),
    acceptedAt: isoDateTime.meta({ description: "When this version was first accepted (re-accepting keeps it)." }),
  })
  .meta({ id: "TermsAccepted" });
export const currentTerms = z
  .object({
    currentVersion: z.string(),
    url: z.string().optional().meta({ description: "Where the terms can be read; present when the service is configured with UGC_TERMS_URL." }),
  })
  .meta({ id: "CurrentTerms" });

export type ProfilePatch = z.infer<typeof profilePatch>;
export type OnboardingInput = z.infer<typeof onboardingBody>;
export type BlockInput = z.infer<typeof blockBody>;
