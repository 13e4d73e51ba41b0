import { createHash } from "node:crypto";
import type { AuthUser } from "../../auth/users";
import type { Db, DbTx } from "../../db/client";
import { txOptions } from "../../db/tx";
import { env } from "../../env";
import { validationError } from "../../kernel/errors";
import { recordAudit, type StaffActor } from "../../core/audit/service";
import { COMMENT_MAX } from "../comments/schemas";
import { CONTENT_MAX, MEDIA_MAX } from "../lockerroom/schemas";
import { CART_MAX_LINES, PRICE_MAX } from "../marketplace/schemas";
import { TRADE_MAX_ITEMS } from "../marketplace/schemas";
import { appProducts, flagOf, killSwitchOf, lockEntry, readAll, settingOf, type FlagRow, type KillSwitchRow, type SettingRow } from "./queries";
import {
  FEATURE_DESCRIPTIONS,
  FEATURES,
  FLAGS_MAX,
  SETTING_KEYS,
  SETTINGS,
  type AppConfig,
  type Feature,
  type FlagInput,
  type KillSwitchInput,
  type SettingKey,
} from "./schemas";

// Remote config: feature flags (a stable share of users each), kill switches (a paused feature's writes answer 409
// FEATURE_DISABLED in the pipeline) and settings (minimum app versions, legal links), with fixed limits and the store
// product ids. Every process holds the whole config in memory and reads it again at most every CONFIG_CACHE_TTL_MS
// (a staff change in the same process clears it at once): GET /api/v1/config and the kill-switch check never query
// the database per request. Rules: docs/domains/config.md.

const BUCKETS = 10_000;

/** The user's bucket for a flag, 0..9999: the first 4 bytes of SHA-256("<flag key>:<user id>"), modulo 10,000. */
export function bucketOf(flagKey: string, userId: string): number {
  return createHash("sha256").update(`${flagKey}:${userId}`).digest().readUInt32BE(0) % BUCKETS;
}

/** Whether a flag is on: signed-in users by their bucket, signed-out callers only when it is rolled out to everyone. */
export const flagOn = (rolloutBps: number, flagKey: string, userId: string | null) =>
  userId === null ? rolloutBps >= BUCKETS : bucketOf(flagKey, userId) < rolloutBps;

export interface SwitchState {
  paused: boolean;
  scoped: boolean;
  userIds: Set<string>;
  message: string | null;
}

/** One read of the config, shared by every request of a process until it is replaced; its views are built once each. */
interface Snapshot {
  fingerprint: string;
  flags: FlagRow[];
  switches: Map<string, SwitchState>;
  rows: { switches: KillSwitchRow[]; settings: SettingRow[] };
  settings: Record<SettingKey, string>;
  products: AppConfig["products"];
  /** Built answers by the caller's on/off pattern (flags, then features): one object per pattern, hence one ETag. */
  views: Map<string, AppConfig>;
  /** Each signed-in user's pattern, so a repeat caller hashes nothing. */
  patterns: Map<string, string>;
}

const VIEWS_MAX = 4_096;
const PATTERNS_MAX = 100_000;

const g = globalThis as unknown as { __remoteConfig?: { snapshot: Promise<Snapshot>; expires: number; previous?: Snapshot } };

const refreshSeconds = () => Math.max(1, Math.ceil(env().CONFIG_CACHE_TTL_MS / 1000));

function defaultSetting(key: SettingKey): string {
  const base = env().APP_URL.replace(/\/$/, "");
  switch (key) {
    case "minVersion.ios":
    case "minVersion.android":
      return env().MOBILE_MIN_VERSION;
    case "minVersion.web":
      return "0.0.0";
    case "legal.termsUrl":
      return env().UGC_TERMS_URL ?? `${base}/legal/terms`;
    case "legal.privacyUrl":
      return `${base}/legal/privacy`;
    case "legal.communityGuidelinesUrl":
      return `${base}/legal/community-guidelines`;
  }
}

async function load(db: DbTx): Promise<Snapshot> {
  const [all, products] = await Promise.all([readAll(db), appProducts(db)]);
  const settings = Object.fromEntries(SETTING_KEYS.map((k) => [k, defaultSetting(k)])) as Record<SettingKey, string>;
  for (const s of all.settings) if (s.key in SETTINGS) settings[s.key as SettingKey] = s.value;
  const productView = products.map((p) => ({ id: p.id, coins: p.coins, appStoreProductId: p.appStoreProductId, googlePlayProductId: p.googlePlayProductId }));
  const switches = new Map(all.switches.map((s) => [s.feature, { paused: s.paused, scoped: s.scoped, userIds: new Set(s.userIds), message: s.message }]));
  const flags = all.flags.slice(0, FLAGS_MAX);
  // What the answers are built from: an unchanged read keeps the previous snapshot, its views and their ETags.
  const fingerprint = JSON.stringify([
    flags.map((f) => [f.key, f.rolloutBps]),
    all.switches.map((s) => [s.feature, s.paused, s.scoped, s.userIds, s.message]),
    settings,
    productView,
    refreshSeconds(),
  ]);
  const previous = g.__remoteConfig?.previous;
  if (previous && previous.fingerprint === fingerprint) return previous;
  return { fingerprint, flags, switches, rows: all, settings, products: productView, views: new Map(), patterns: new Map() };
}

/** The process's config: cached for CONFIG_CACHE_TTL_MS (0: read every time); concurrent misses share one read. */
export function currentConfig(db: DbTx): Promise<Snapshot> {
  const now = Date.now();
  const cached = g.__remoteConfig;
  if (cached && cached.expires > now) return cached.snapshot;
  const snapshot = load(db);
  const entry = { snapshot, expires: now + env().CONFIG_CACHE_TTL_MS, previous: cached?.previous };
  g.__remoteConfig = entry;
  snapshot.then(
    (s) => {
      entry.previous = s;
    },
    () => {
      if (g.__remoteConfig === entry) g.__remoteConfig = { ...entry, expires: 0 };
    },
  );
  return snapshot;
}

/** After a staff change: this process reads the config again on its next request (others within the TTL). */
export function forgetConfig(): void {
  if (g.__remoteConfig) g.__remoteConfig = { ...g.__remoteConfig, expires: 0 };
}

/** Whether a switch pauses its feature for this caller: paused, and for everyone or for a listed signed-in user. */
export function pausesFor(sw: SwitchState | undefined, userId: string | null): boolean {
  if (!sw?.paused) return false;
  return !sw.scoped || (userId !== null && sw.userIds.has(userId));
}

const pausedFor = (s: Snapshot, feature: string, userId: string | null) => pausesFor(s.switches.get(feature), userId);

const defaultMessage = (feature: string) => `${feature[0]!.toUpperCase()}${feature.slice(1)} is paused for maintenance. Please try again later.`;

/** Why `feature` is paused for this caller, or null: the pipeline's kill-switch check (lib/features/config/gate.ts). */
export async function pausedReason(db: DbTx, feature: string, user: Pick<AuthUser, "id"> | null): Promise<string | null> {
  if (!(FEATURES as readonly string[]).includes(feature)) throw new Error(`Unknown feature "${feature}" on a route (lib/features/config/schemas.ts FEATURES)`);
  const s = await currentConfig(db);
  if (!pausedFor(s, feature, user?.id ?? null)) return null;
  return s.switches.get(feature)!.message ?? defaultMessage(feature);
}

function patternOf(s: Snapshot, userId: string | null): string {
  const cached = userId === null ? undefined : s.patterns.get(userId);
  if (cached !== undefined) return cached;
  let p = "";
  for (const f of s.flags) p += flagOn(f.rolloutBps, f.key, userId) ? "1" : "0";
  p += "|";
  for (const f of FEATURES) p += pausedFor(s, f, userId) ? "1" : "0";
  if (userId !== null) {
    if (s.patterns.size >= PATTERNS_MAX) s.patterns.clear();
    s.patterns.set(userId, p);
  }
  return p;
}

function buildView(s: Snapshot, pattern: string): AppConfig {
  const [flagBits, featureBits] = pattern.split("|") as [string, string];
  const e = env();
  return {
    flags: Object.fromEntries(s.flags.map((f, i) => [f.key, flagBits[i] === "1"])),
    features: Object.fromEntries(
      FEATURES.map((f, i) => [
        f,
        featureBits[i] === "1" ? { enabled: false, message: s.switches.get(f)!.message ?? defaultMessage(f) } : { enabled: true, message: null },
      ]),
    ) as AppConfig["features"],
    minVersions: { ios: s.settings["minVersion.ios"], android: s.settings["minVersion.android"], web: s.settings["minVersion.web"] },
    legal: {
      termsUrl: s.settings["legal.termsUrl"],
      privacyUrl: s.settings["legal.privacyUrl"],
      communityGuidelinesUrl: s.settings["legal.communityGuidelinesUrl"],
      termsVersion: e.UGC_TERMS_VERSION,
    },
    limits: {
      postMaxLength: CONTENT_MAX,
      commentMaxLength: COMMENT_MAX,
      postMediaMax: MEDIA_MAX,
      cartMaxLines: CART_MAX_LINES,
      tradeMaxItems: TRADE_MAX_ITEMS,
      listingPriceMax: PRICE_MAX,
    },
    products: s.products,
    refreshSeconds: refreshSeconds(),
  };
}

/**
 * GET /api/v1/config: the caller's view. The same object for every caller with the same on/off pattern until the
 * config changes, so the pipeline serializes it and computes its ETag once (route option `conditional`).
 */
export async function configFor(db: DbTx, user: Pick<AuthUser, "id"> | null): Promise<AppConfig> {
  const s = await currentConfig(db);
  const pattern = patternOf(s, user?.id ?? null);
  let view = s.views.get(pattern);
  if (!view) {
    if (s.views.size >= VIEWS_MAX) s.views.clear();
    view = Object.freeze(buildView(s, pattern));
    s.views.set(pattern, view);
  }
  return view;
}

// ---- Staff: reading and changing the config (each change audited in its transaction, then this process's cache cleared).

const toFlag = (f: FlagRow) => ({
  key: f.key,
  description: f.description,
  rolloutPercent: f.rolloutBps / 100,
  updatedBy: f.updatedBy,
  updatedAt: f.updatedAt.toISOString(),
});

function toKillSwitch(feature: Feature, row: KillSwitchRow | null | undefined) {
  return {
    feature,
    description: FEATURE_DESCRIPTIONS[feature],
    paused: row?.paused ?? false,
    scope: row?.scoped ? ("users" as const) : ("everyone" as const),
    userIds: row?.scoped ? [...row.userIds].sort() : [],
    message: row?.message ?? null,
    updatedBy: row?.updatedBy ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

function toSetting(key: SettingKey, row: SettingRow | null | undefined) {
  return {
    key,
    description: SETTINGS[key].description,
    value: row?.value ?? defaultSetting(key),
    isDefault: !row,
    updatedBy: row?.updatedBy ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** The whole config as stored (fresh from the database, not the cache), for the console and GET /api/admin/config. */
export async function adminConfig(db: DbTx) {
  const all = await readAll(db);
  return {
    flags: all.flags.map(toFlag),
    killSwitches: FEATURES.map((f) =>
      toKillSwitch(
        f,
        all.switches.find((s) => s.feature === f),
      ),
    ),
    settings: SETTING_KEYS.map((k) =>
      toSetting(
        k,
        all.settings.find((s) => s.key === k),
      ),
    ),
    refreshSeconds: refreshSeconds(),
  };
}

/** Creates or updates a flag's rollout (and description). Audited; unchanged values write nothing. */
export async function putFlag(db: Db, key: string, input: FlagInput, actor: StaffActor) {
  const rolloutBps = Math.round(input.rolloutPercent * 100);
  const flag = await db.$transaction(async (tx) => {
    await lockEntry(tx, "flag", key);
    const before = await flagOf(tx, key);
    if (!before && (await tx.featureFlag.count()) >= FLAGS_MAX)
      throw validationError(`At most ${FLAGS_MAX} flags.`, [{ path: "params.key", message: "too many flags" }]);
    const description = input.description ?? before?.description ?? "";
    if (before && before.rolloutBps === rolloutBps && before.description === description) return before;
    const row = await tx.featureFlag.upsert({
      where: { key },
      create: { key, rolloutBps, description, updatedBy: actor.id },
      update: { rolloutBps, description, updatedBy: actor.id },
    });
    await recordAudit(tx, actor, {
      action: before ? "config.flag.update" : "config.flag.create",
      targetType: "feature_flag",
      targetId: key,
      ...(before ? { before: toFlag(before) } : {}),
      after: toFlag(row),
    });
    return row;
  }, txOptions());
  forgetConfig();
  return { flag: toFlag(flag) };
}

/** Deletes a flag (clients then read it as absent). Audited; an unknown key is a no-op answering false. */
export async function deleteFlag(db: Db, key: string, actor: StaffActor) {
  const deleted = await db.$transaction(async (tx) => {
    await lockEntry(tx, "flag", key);
    const before = await flagOf(tx, key);
    if (!before) return false;
    await tx.featureFlag.delete({ where: { key } });
    await recordAudit(tx, actor, { action: "config.flag.delete", targetType: "feature_flag", targetId: key, before: toFlag(before) });
    return true;
  }, txOptions());
  forgetConfig();
  return { deleted };
}

/** Pauses or resumes a feature, for everyone or for listed users only. Audited. */
export async function putKillSwitch(db: Db, feature: Feature, input: KillSwitchInput, actor: StaffActor) {
  const scoped = input.userIds !== undefined;
  const userIds = [...new Set(input.userIds ?? [])].sort();
  const row = await db.$transaction(async (tx) => {
    await lockEntry(tx, "switch", feature);
    const before = await killSwitchOf(tx, feature);
    const message = input.message ?? null;
    const same =
      before &&
      before.paused === input.paused &&
      before.scoped === scoped &&
      before.message === message &&
      JSON.stringify([...(before.userIds ?? [])].sort()) === JSON.stringify(userIds);
    if (same) return before;
    const after = await tx.killSwitch.upsert({
      where: { feature },
      create: { feature, paused: input.paused, scoped, userIds, message, updatedBy: actor.id },
      update: { paused: input.paused, scoped, userIds, message, updatedBy: actor.id },
    });
    await recordAudit(tx, actor, {
      action: input.paused ? "config.feature.pause" : "config.feature.resume",
      targetType: "kill_switch",
      targetId: feature,
      ...(before ? { before: toKillSwitch(feature, before) } : {}),
      after: toKillSwitch(feature, after),
    });
    return after;
  }, txOptions());
  forgetConfig();
  return { killSwitch: toKillSwitch(feature, row) };
}

/** Sets a setting (validated by its own schema: a version, a URL). Audited. */
export async function putSetting(db: Db, key: SettingKey, value: string, actor: StaffActor) {
  const parsed = SETTINGS[key].schema.safeParse(value);
  if (!parsed.success)
    throw validationError(`${key}: ${parsed.error.issues[0]?.message ?? "invalid"}`, [
      { path: "body.value", message: parsed.error.issues[0]?.message ?? "invalid" },
    ]);
  const row = await db.$transaction(async (tx) => {
    await lockEntry(tx, "setting", key);
    const before = await settingOf(tx, key);
    if (before?.value === parsed.data) return before;
    const after = await tx.configSetting.upsert({
      where: { key },
      create: { key, value: parsed.data, updatedBy: actor.id },
      update: { value: parsed.data, updatedBy: actor.id },
    });
    await recordAudit(tx, actor, {
      action: "config.setting.update",
      targetType: "config_setting",
      targetId: key,
      before: toSetting(key, before),
      after: toSetting(key, after),
    });
    return after;
  }, txOptions());
  forgetConfig();
  return { setting: toSetting(key, row) };
}
