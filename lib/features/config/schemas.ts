import { z } from "zod";
import { isoDateTime } from "../../kernel/schemas";

// Remote config: requests and answers (lib/features/config/service.ts). Rules: docs/domains/config.md.

/** The features a kill switch can pause; routes name one in their spec (`feature: "marketplace"`). */
export const FEATURES = ["marketplace", "trades", "packs", "topups", "posting"] as const;
export type Feature = (typeof FEATURES)[number];
export const FEATURE_DESCRIPTIONS: Record<Feature, string> = {
  marketplace: "Listing and repricing, buying, bidding, offers, adding to a cart and checkout on the marketplace (cancelling stays open).",
  trades: "Proposing, countering and accepting trades (cancelling and declining stay open).",
  packs: "Buying and opening packs, entering drops, and drop draws while paused for everyone (withdrawing stays open).",
  topups: "Starting a card top-up (store receipts of purchases already paid are still credited).",
  posting: "Writing and editing posts, reposts, scheduled posts and comments in the locker room, and uploading their media.",
};

export const PLATFORMS = ["ios", "android", "web"] as const;

const semver = z.string().regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}$/, "a version like 1.4.0");
const httpsUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** The other values staff set in the console, each validated by its schema; unset ones answer their default. */
export const SETTINGS = {
  "minVersion.ios": { schema: semver, description: "Oldest iOS app version that may still call the API (older: force an update)." },
  "minVersion.android": { schema: semver, description: "Oldest Android app version that may still call the API." },
  "minVersion.web": { schema: semver, description: "Oldest web app build that may still call the API." },
  "legal.termsUrl": { schema: httpsUrl, description: "Terms of Use." },
  "legal.privacyUrl": { schema: httpsUrl, description: "Privacy policy." },
  "legal.communityGuidelinesUrl": { schema: httpsUrl, description: "Community guidelines (the locker room's rules)." },
} as const;
export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export const FLAG_KEY = /^[a-z][a-z0-9_.]{0,63}$/;
/** Flags one config holds at most (each answer lists them all). */
export const FLAGS_MAX = 200;
/** Users a scoped pause names at most. */
export const SCOPED_USERS_MAX = 1_000;

export const flagParams = z.strictObject({
  key: z.string().regex(FLAG_KEY, "lower-case letters, digits, _ and ., starting with a letter, at most 64").meta({ description: "The flag's key." }),
});
export const flagBody = z
  .strictObject({
    rolloutPercent: z
      .number()
      .min(0)
      .max(100)
      .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, "at most two decimals")
      .meta({ description: "Share of signed-in users who get the flag, 0..100 (two decimals at most). 100 also turns it on for signed-out callers." }),
    description: z.string().trim().max(500).optional(),
  })
  .meta({ id: "FeatureFlagUpdate" });
export type FlagInput = z.infer<typeof flagBody>;

export const featureParams = z.strictObject({ feature: z.enum(FEATURES).meta({ description: "The feature the kill switch pauses." }) });
export const killSwitchBody = z
  .strictObject({
    paused: z.boolean(),
    message: z.string().trim().min(1).max(280).optional().meta({ description: "Shown to fans while it is paused (a default otherwise)." }),
    userIds: z
      .array(z.uuid())
      .min(1)
      .max(SCOPED_USERS_MAX)
      .optional()
      .meta({ description: "Pause for these users only (a test cohort, a staged pause); omitted: for everyone." }),
  })
  .meta({ id: "KillSwitchUpdate" });
export type KillSwitchInput = z.infer<typeof killSwitchBody>;

export const settingParams = z.strictObject({ key: z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]).meta({ description: "The setting." }) });
export const settingBody = z.strictObject({ value: z.string().trim().min(1).max(2048) }).meta({ id: "ConfigSettingUpdate" });

const featureState = z.object({
  enabled: z.boolean().meta({ description: "False while staff paused it: its writes answer 409 FEATURE_DISABLED." }),
  message: z.string().nullable().meta({ description: "Why it is paused, for the app to show (null while enabled)." }),
});

export const appConfig = z
  .object({
    flags: z.record(z.string(), z.boolean()).meta({ description: "Every feature flag by key: on or off for this caller (stable per user)." }),
    features: z.object(Object.fromEntries(FEATURES.map((f) => [f, featureState])) as Record<Feature, typeof featureState>),
    minVersions: z.object({ ios: z.string(), android: z.string(), web: z.string() }),
    legal: z.object({ termsUrl: z.string(), privacyUrl: z.string(), communityGuidelinesUrl: z.string(), termsVersion: z.string() }),
    limits: z.object({
      postMaxLength: z.int(),
      commentMaxLength: z.int(),
      postMediaMax: z.int(),
      cartMaxLines: z.int(),
      tradeMaxItems: z.int(),
      listingPriceMax: z.int().meta({ description: "COIN minor units." }),
    }),
    products: z
      .array(z.object({ id: z.string(), coins: z.int(), appStoreProductId: z.string().nullable(), googlePlayProductId: z.string().nullable() }))
      .meta({ description: "The coin bundles on sale and their store product ids (GET /api/v1/wallet/products has prices)." }),
    refreshSeconds: z.int().meta({ description: "How stale this answer may be on the server (its cache); poll no more often than this." }),
  })
  .meta({ id: "AppConfig" });
export type AppConfig = z.infer<typeof appConfig>;

export const adminFlag = z.object({ key: z.string(), description: z.string(), rolloutPercent: z.number(), updatedBy: z.string(), updatedAt: isoDateTime });
export const adminKillSwitch = z.object({
  feature: z.enum(FEATURES),
  description: z.string(),
  paused: z.boolean(),
  scope: z.enum(["everyone", "users"]),
  userIds: z.array(z.string()),
  message: z.string().nullable(),
  updatedBy: z.string().nullable(),
  updatedAt: isoDateTime.nullable(),
});
export const adminSetting = z.object({
  key: z.string(),
  description: z.string(),
  value: z.string(),
  isDefault: z.boolean(),
  updatedBy: z.string().nullable(),
  updatedAt: isoDateTime.nullable(),
});
export const adminConfig = z
  .object({ flags: z.array(adminFlag), killSwitches: z.array(adminKillSwitch), settings: z.array(adminSetting), refreshSeconds: z.int() })
  .meta({ id: "AdminConfig" });
export const adminFlagResponse = z.object({ flag: adminFlag });
export const adminKillSwitchResponse = z.object({ killSwitch: adminKillSwitch });
export const adminSettingResponse = z.object({ setting: adminSetting });
