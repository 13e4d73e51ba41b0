import type { Db, DbTx } from "../../db/client";
import { isUniqueViolation, lockUser, txOptions } from "../../db/tx";
import type { AuthUser } from "../../auth/users";
import { acceptPendingRequests, endFollowsForBlock } from "../follows/service";
import { env } from "../../env";
import { decodeUuidTimeCursor, encodeCursor } from "../../kernel/cursor";
import { DomainError, notFound, type ErrorDetail, sharedErrors } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { keysetPage } from "../../kernel/page";
import { identityProvider, type IdentityProvider, type IdpUser } from "../../auth/identity-provider";
import { grantOnce } from "../rep/service";
import { missingProfileFields, NOTIFICATION_SETTINGS } from "../rep/service";
import { currentTermsVersion } from "../visibility/service";
import { isReservedHandle } from "./handles";
import { blocksOf, databaseKnowsZone, getProfile, SETTINGS_SELECT, timezoneChangeableAt, toBlocked, toSettings } from "./queries";
import { DISPLAY_NAME_MAX, FAVORITE_TEAMS_CAP, type BlockInput, type OnboardingInput, type ProfilePatch, type SettingsPatch } from "./schemas";
import { errors as usersErrors } from "./errors";

// The caller's account: settings, profile, onboarding, terms, blocks and the identity-provider sync. Every profile
// or settings write runs in a transaction that first locks the user's row, so concurrent writes of one user (two
// tabs, retries, parallel onboardings) are serialized; handle uniqueness across users is held by the unique
// handle_key column.

/** The user's row lock for a write; a missing user is a 404. */
async function lockUserOrThrow(tx: DbTx, userId: string) {
  if (!(await lockUser(tx, userId))) throw notFound("User");
}

const usernameTaken = (handle: string, reserved = false) =>
  new DomainError(usersErrors.USERNAME_TAKEN, reserved ? `The handle "${handle}" is reserved.` : `The handle "${handle}" belongs to another user.`, [
    { path: "body.handle", message: reserved ? "Reserved" : "Taken" },
  ]);

export async function getCurrentUser(db: DbTx, auth: AuthUser) {
  const user = await db.user.findUnique({
    where: { id: auth.id },
    include: { _count: { select: { rewardClaims: true } } },
  });
  if (!user) throw notFound("User");
  return {
    id: user.id,
    handle: user.handle,
    displayName: user.displayName,
    avatarUrl: user.avatarUrl,
    bio: user.bio,
    isPrivate: user.isPrivate,
    role: auth.staffRole ?? ("fan" as const),
    onboarded: user.onboardedAt !== null,
    ugcTermsVersion: user.ugcTermsVersion,
    repBalance: Number(user.repBalance),
    claimedRewardsCount: user._count.rewardClaims,
    settings: toSettings(user),
    createdAt: user.createdAt.toISOString(),
  };
}

export async function getSettings(db: DbTx, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: SETTINGS_SELECT });
  if (!user) throw notFound("User");
  return toSettings(user);
}

/**
 * PATCH /api/user/settings, under the user's row lock. A write that turns a notification setting on awards
 * notifications_enabled Rep in the same transaction, once ever (grantOnce: the earn route's grant key, so a later
 * claim there is ALREADY_EARNED).
 */
export async function updateSettings(db: Db, userId: string, patch: SettingsPatch, now = new Date()) {
  const { privateProfile, timezone, ...rest } = patch;
  if (timezone) await assertDatabaseKnowsZone(db, timezone);
  return db.$transaction(async (tx) => {
    // Going public accepts the pending follow requests (lib/core/follows); it takes the rows it needs in id order, so first.
    if (privateProfile === false) await acceptPendingRequests(tx, userId);
    await lockUserOrThrow(tx, userId);
    const zone = timezone !== undefined ? await timezoneChange(tx, userId, timezone, now) : {};
    const user = await tx.user.update({
      where: { id: userId },
      data: { ...rest, ...zone, ...(privateProfile !== undefined ? { isPrivate: privateProfile } : {}) },
      select: SETTINGS_SELECT,
    });
    if (NOTIFICATION_SETTINGS.some((s) => patch[s] === true)) {
      await grantOnce(tx, userId, "notifications_enabled");
    }
    return toSettings(user);
  }, txOptions());
}

/** PostgreSQL times the streak-at-risk notification in the zone: one it does not know is refused like one Intl does not. */
async function assertDatabaseKnowsZone(db: Db, timezone: string) {
  if (!(await databaseKnowsZone(db, timezone))) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, `Unknown time zone "${timezone}": send an IANA time zone name, e.g. Europe/London.`, [
      { path: "body.timezone", message: "An IANA time zone name, e.g. Europe/London" },
    ]);
  }
}

/**
 * The time zone write of a settings PATCH, under the user's row lock: the same value is no change (nothing written);
 * another one is refused within 24 hours of the last change (409 TIMEZONE_CHANGE_TOO_SOON, naming when it may).
 */
async function timezoneChange(tx: DbTx, userId: string, timezone: string | null, now: Date) {
  const current = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { timezone: true, timezoneChangedAt: true } });
  if (current.timezone === timezone) return {};
  const next = timezoneChangeableAt(current.timezoneChangedAt, now);
  if (next) {
    throw new DomainError(
      usersErrors.TIMEZONE_CHANGE_TOO_SOON,
      `Your time zone changed less than 24 hours ago; it may change again from ${next.toISOString()}.`,
      [{ path: "body.timezone", message: `changeable from ${next.toISOString()}` }],
    );
  }
  return { timezone, timezoneChangedAt: now };
}

export async function isUsernameAvailable(db: DbTx, username: string) {
  const key = username.toLowerCase();
  if (isReservedHandle(key)) return { available: false };
  const taken = await db.user.findUnique({ where: { handleKey: key }, select: { id: true } });
  return { available: !taken };
}

// Profile -------------------------------------------------------------------------------------------------------

/**
 * Checks a favorite-teams list against the team table: every id an existing, non-archived team (400 naming each
 * bad index), at most FAVORITE_TEAMS_CAP of them not official (409).
 */
async function checkFavoriteTeams(tx: DbTx, ids: string[]) {
  if (ids.length === 0) return;
  const teams = await tx.team.findMany({ where: { id: { in: ids } }, select: { id: true, isOfficial: true, archivedAt: true } });
  const byId = new Map(teams.map((t) => [t.id, t]));
  const bad: ErrorDetail[] = [];
  ids.forEach((id, index) => {
    const team = byId.get(id);
    if (!team) bad.push({ path: `body.favoriteTeamIds.${index}`, message: `No such team: ${id}` });
    else if (team.archivedAt) bad.push({ path: `body.favoriteTeamIds.${index}`, message: `Team ${id} is archived` });
  });
  if (bad.length) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "favoriteTeamIds names teams that do not exist or are archived.", bad);
  }
  const counted = ids.filter((id) => !byId.get(id)!.isOfficial).length;
  if (counted > FAVORITE_TEAMS_CAP) {
    throw new DomainError(usersErrors.FAVORITE_TEAMS_LIMIT, `At most ${FAVORITE_TEAMS_CAP} favorite teams, not counting official teams; ${counted} were sent.`);
  }
}

/**
 * Applies profile changes inside a transaction that has locked the user's row. The handle is taken by writing
 * handle_key and catching the unique violation, so of two users racing for one handle exactly one wins.
 */
export async function applyProfilePatch(tx: DbTx, userId: string, patch: ProfilePatch) {
  const data: { handle?: string; handleKey?: string; displayName?: string; bio?: string | null } = {};
  if (patch.handle !== undefined) {
    const key = patch.handle.toLowerCase();
    const current = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { handleKey: true } });
    // Keeping your own handle (or changing only its case) is always allowed, even if it is reserved today.
    if (current.handleKey !== key && isReservedHandle(key)) throw usernameTaken(patch.handle, true);
    data.handle = patch.handle;
    data.handleKey = key;
  }
  if (patch.displayName !== undefined) data.displayName = patch.displayName;
  if (patch.bio !== undefined) data.bio = patch.bio === null || patch.bio === "" ? null : patch.bio;

  if (patch.favoriteTeamIds !== undefined) await checkFavoriteTeams(tx, patch.favoriteTeamIds);

  if (Object.keys(data).length) {
    try {
      await tx.user.update({ where: { id: userId }, data, select: { id: true } });
    } catch (error) {
      if (isUniqueViolation(error) && patch.handle !== undefined) throw usernameTaken(patch.handle);
      throw error;
    }
  }
  if (patch.favoriteTeamIds !== undefined) {
    await tx.favoriteTeam.deleteMany({ where: { userId } });
    if (patch.favoriteTeamIds.length) {
      await tx.favoriteTeam.createMany({ data: patch.favoriteTeamIds.map((teamId, position) => ({ userId, teamId, position })) });
    }
  }
}

/**
 * PATCH /api/user/profile: all changes in one transaction, then the updated profile. A write that leaves the profile
 * complete (missingProfileFields) awards profile_completed Rep in the same transaction, once ever (grantOnce: the
 * earn route's grant key under the same row lock, so a later claim there is ALREADY_EARNED).
 */
export async function updateProfile(db: Db, userId: string, patch: ProfilePatch) {
  return db.$transaction(async (tx) => {
    await lockUserOrThrow(tx, userId);
    await applyProfilePatch(tx, userId, patch);
    const profile = await getProfile(tx, userId);
    if (missingProfileFields(profile).length === 0) await grantOnce(tx, userId, "profile_completed");
    return profile;
  }, txOptions());
}

// Onboarding and terms ------------------------------------------------------------------------------------------

export function termsMismatch(sent: string, path: string) {
  const current = currentTermsVersion();
  return new DomainError(usersErrors.TERMS_VERSION_MISMATCH, `The current Terms of Use version is "${current}"; "${sent}" cannot be accepted.`, [
    { path, message: `Expected the current version "${current}"` },
  ]);
}

/**
 * The account's side of onboarding (lib/features/onboarding completes it): the profile fields sent, the terms accepted and
 * `onboardedAt` (first time only), in one transaction under the user's lock.
 */
export async function recordOnboarding(db: Db, userId: string, input: OnboardingInput = {}) {
  const { acceptTermsVersion, ...patch } = input;
  if (acceptTermsVersion !== undefined && acceptTermsVersion !== currentTermsVersion()) {
    throw termsMismatch(acceptTermsVersion, "body.acceptTermsVersion");
  }
  await db.$transaction(async (tx) => {
    await lockUserOrThrow(tx, userId);
    await applyProfilePatch(tx, userId, patch);
    const now = new Date();
    if (acceptTermsVersion !== undefined) {
      await tx.user.updateMany({
        where: { id: userId, OR: [{ ugcTermsVersion: null }, { ugcTermsVersion: { not: acceptTermsVersion } }] },
        data: { ugcTermsVersion: acceptTermsVersion, ugcTermsAcceptedAt: now },
      });
    }
    // First time only: a repeat onboarding keeps the original timestamp.
    await tx.user.updateMany({ where: { id: userId, onboardedAt: null }, data: { onboardedAt: now } });
  }, txOptions());
}

export async function isOnboarded(db: DbTx, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { onboardedAt: true } });
  if (!user) throw notFound("User");
  return { isOnboarded: user.onboardedAt !== null };
}

/** POST /api/user/terms: records acceptance of the current version; re-accepting keeps the first acceptedAt. */
export async function acceptTerms(db: DbTx, userId: string, version: string) {
  if (version !== currentTermsVersion()) throw termsMismatch(version, "body.version");
  await db.user.updateMany({
    where: { id: userId, OR: [{ ugcTermsVersion: null }, { ugcTermsVersion: { not: version } }, { ugcTermsAcceptedAt: null }] },
    data: { ugcTermsVersion: version, ugcTermsAcceptedAt: new Date() },
  });
  const user = await db.user.findUnique({ where: { id: userId }, select: { ugcTermsVersion: true, ugcTermsAcceptedAt: true } });
  if (!user) throw notFound("User");
  return { version: user.ugcTermsVersion!, acceptedAt: user.ugcTermsAcceptedAt!.toISOString() };
}

export function getCurrentTerms() {
  const url = env().UGC_TERMS_URL;
  return { currentVersion: currentTermsVersion(), ...(url ? { url } : {}) };
}

// Blocks --------------------------------------------------------------------------------------------------------

// User blocks: one row per (blocker, blocked), held by the primary key, so blocking is idempotent and concurrent
// blocks of the same user store one row. Unblocking is idempotent too.

const noSuchUser = (path: string) => new DomainError(sharedErrors.NOT_FOUND, "No user with that id or handle.", [{ path, message: "Unknown user" }]);

/** The user the body names: by id, by handle, or both (then they must agree). */
async function resolveTarget(db: DbTx, input: BlockInput): Promise<string> {
  let byId: string | undefined;
  let byHandle: string | undefined;
  if (input.blockedUserId !== undefined) {
    const row = await db.user.findUnique({ where: { id: input.blockedUserId }, select: { id: true } });
    if (!row) throw noSuchUser("body.blockedUserId");
    byId = row.id;
  }
  if (input.handle !== undefined) {
    const row = await db.user.findUnique({ where: { handleKey: input.handle.toLowerCase() }, select: { id: true } });
    if (!row) throw noSuchUser("body.handle");
    byHandle = row.id;
  }
  if (byId && byHandle && byId !== byHandle) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "blockedUserId and handle name different users; send one of them.", [
      { path: "body.handle", message: "Names a different user than blockedUserId" },
    ]);
  }
  return (byId ?? byHandle)!;
}

export async function blockUser(db: Db, blockerId: string, input: BlockInput) {
  const blockedId = await resolveTarget(db, input);
  if (blockedId === blockerId) {
    throw new DomainError(usersErrors.CANNOT_BLOCK_SELF, "You cannot block yourself.", [
      { path: input.blockedUserId !== undefined ? "body.blockedUserId" : "body.handle", message: "This is you" },
    ]);
  }
  await db.$transaction(async (tx) => {
    // The block ends the follows and follow requests both ways, in its transaction (lib/core/follows: takes both rows first).
    await endFollowsForBlock(tx, blockerId, blockedId);
    // ON CONFLICT DO NOTHING: a repeat (or a concurrent duplicate) keeps the first row and its blockedAt.
    await tx.userBlock.createMany({ data: [{ blockerId, blockedId }], skipDuplicates: true });
  }, txOptions());
  const [row] = await blocksOf(db, blockerId, { blockedId, take: 1 });
  // Only if the blocked account was deleted between the two statements.
  if (!row) throw noSuchUser(input.blockedUserId !== undefined ? "body.blockedUserId" : "body.handle");
  return { blocked: true as const, user: toBlocked(row) };
}

export async function unblockUser(db: DbTx, blockerId: string, blockedId: string) {
  await db.userBlock.deleteMany({ where: { blockerId, blockedId } });
  return { blocked: false as const, userId: blockedId };
}

/** The caller's blocks, most recent first (blockedAt desc, blocked user id desc), keyset-paginated. */
export async function listBlocks(db: DbTx, blockerId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const rows = await blocksOf(db, blockerId, { after: cursor ? decodeUuidTimeCursor(cursor) : undefined, take: limit + 1 });
  return keysetPage("blocks", rows, limit, (r) => encodeCursor(r.blockedAt.getTime(), r.id), toBlocked);
}

// Identity provider ---------------------------------------------------------------------------------------------

// POST /api/user/sync-idp: pull the caller's record from the identity provider. Email always mirrors the provider;
// the display name is filled from first + last name only while the user has none; the avatar follows the
// provider's image only while the user has no uploaded avatar (avatar_key null). Both conditions are part of the
// UPDATE's WHERE clause, so an upload or a rename racing with the sync is never overwritten.

function nameOf(u: IdpUser): string | null {
  const name = [u.firstName, u.lastName]
    // Control characters become spaces; invisible formatting characters (as refused in display names) are dropped.
    .map((s) =>
      (s ?? "")
        .replace(/[\u0000-\u001f\u007f]|\p{Zl}|\p{Zp}/gu, " ")
        .replace(/\p{Cf}/gu, "")
        .trim(),
    )
    .filter(Boolean)
    .join(" ")
    .replace(/\s+/g, " ");
  return name ? name.slice(0, DISPLAY_NAME_MAX).trim() : null;
}

export async function syncFromIdentityProvider(db: Db, user: { id: string; externalId: string }, provider: IdentityProvider = identityProvider()) {
  let remote: IdpUser | null;
  try {
    remote = await provider.getUser(user.externalId);
  } catch (error) {
    log("warn", { msg: "identity provider lookup failed", error: error instanceof Error ? error.message : String(error) });
    throw new DomainError(sharedErrors.UPSTREAM_ERROR, "The identity provider could not be reached; try again later.");
  }
  if (!remote) throw new DomainError(sharedErrors.NOT_FOUND, "The identity provider has no record of this user.");

  const displayName = nameOf(remote);
  const now = new Date();
  await db.$transaction([
    db.user.update({ where: { id: user.id }, data: { email: remote.email, idpSyncedAt: now }, select: { id: true } }),
    ...(displayName ? [db.user.updateMany({ where: { id: user.id, displayName: null }, data: { displayName } })] : []),
    db.user.updateMany({
      where: { id: user.id, avatarKey: null },
      data: { avatarUrl: remote.imageUrl, avatarThumbhash: null },
    }),
  ]);
  return getProfile(db, user.id);
}
