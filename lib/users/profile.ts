import type { Db, DbTx } from "../db/client";
import { env } from "../env";
import { DomainError, notFound, type ErrorDetail } from "../http/errors";
import { normalizeSport } from "../teams/sport";
import { FAVORITE_TEAMS_CAP, type ProfilePatch } from "./schemas";
import { grantOnce } from "../rep/grant";
import { isReservedHandle } from "./handles";

// The caller's own profile: read, patch, and the pieces onboarding reuses. Every write runs in a transaction
// that first locks the user's row, so concurrent writes of one user (two tabs, retries, parallel onboardings)
// are serialized; handle uniqueness across users is held by the unique handle_key column.

export const TX = { maxWait: 15_000, timeout: 15_000 };

export async function lockUser(tx: DbTx, userId: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw notFound("User");
}

/** Prisma's unique-constraint violation (P2002), whichever way the driver adapter reports it. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } } | null;
  return e?.code === "P2002" || e?.meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation";
}

export const currentTermsVersion = () => env().UGC_TERMS_VERSION;

/**
 * A complete profile, for the profile_completed Rep (lib/rep): a handle, a display name and an avatar (uploaded, or
 * the identity provider's image). Bio and favorite teams are optional and do not count.
 */
export const PROFILE_COMPLETE_FIELDS = ["handle", "displayName", "avatarUrl"] as const;

/** The PROFILE_COMPLETE_FIELDS a user row lacks (empty when the profile is complete). */
export function missingProfileFields(user: { handle: string | null; displayName: string | null; avatarUrl: string | null }): string[] {
  return PROFILE_COMPLETE_FIELDS.filter((f) => !user[f]?.trim());
}

const usernameTaken = (handle: string, reserved = false) =>
  new DomainError(
    "USERNAME_TAKEN",
    reserved ? `The handle "${handle}" is reserved.` : `The handle "${handle}" belongs to another user.`,
    [{ path: "body.handle", message: reserved ? "Reserved" : "Taken" }],
  );

interface TeamSummaryRow {
  id: string;
  slug: string;
  name: string;
  shortName: string | null;
  abbreviation: string | null;
  logo: string | null;
  sport: string;
  primaryColor: string | null;
  secondaryColor: string | null;
  isOfficial: boolean;
  archivedAt: Date | null;
}

const TEAM_SUMMARY_SELECT = {
  id: true,
  slug: true,
  name: true,
  shortName: true,
  abbreviation: true,
  logo: true,
  sport: true,
  primaryColor: true,
  secondaryColor: true,
  isOfficial: true,
  archivedAt: true,
} as const;

const toTeamSummary = (t: TeamSummaryRow) => ({
  id: t.id,
  slug: t.slug,
  name: t.name,
  shortName: t.shortName,
  abbreviation: t.abbreviation,
  logo: t.logo,
  sport: normalizeSport(t.sport),
  colors: { primary: t.primaryColor, secondary: t.secondaryColor },
  isOfficial: t.isOfficial,
  archived: t.archivedAt !== null,
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The caller's profile (own view: includes email and terms state). */
export async function getProfile(db: DbTx, userId: string) {
  const user = await db.user.findUnique({
    where: { id: userId },
    include: { favoriteTeams: { orderBy: [{ position: "asc" }, { createdAt: "asc" }], select: { teamId: true } } },
  });
  if (!user) throw notFound("User");
  const ids = user.favoriteTeams.map((f) => f.teamId);
  const teams = ids.length ? await db.team.findMany({ where: { id: { in: ids } }, select: TEAM_SUMMARY_SELECT }) : [];
  const byId = new Map(teams.map((t) => [t.id, t]));
  const current = currentTermsVersion();
  return {
    id: user.id,
    handle: user.handle,
    displayName: user.displayName,
    bio: user.bio,
    email: user.email,
    avatarUrl: user.avatarUrl,
    avatarThumbhash: user.avatarThumbhash,
    bannerUrl: user.bannerUrl,
    bannerThumbhash: user.bannerThumbhash,
    favoriteTeams: ids.map((id) => {
      const team = byId.get(id);
      return { id, team: team ? toTeamSummary(team) : null };
    }),
    isPrivate: user.isPrivate,
    onboarded: user.onboardedAt !== null,
    ugcTermsVersion: user.ugcTermsVersion,
    ugcTermsAcceptedAt: iso(user.ugcTermsAcceptedAt),
    currentTermsVersion: current,
    termsAccepted: user.ugcTermsVersion === current,
    idpSyncedAt: iso(user.idpSyncedAt),
    createdAt: user.createdAt.toISOString(),
  };
}

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
    throw new DomainError("VALIDATION_ERROR", "favoriteTeamIds names teams that do not exist or are archived.", bad);
  }
  const counted = ids.filter((id) => !byId.get(id)!.isOfficial).length;
  if (counted > FAVORITE_TEAMS_CAP) {
    throw new DomainError(
      "FAVORITE_TEAMS_LIMIT",
      `At most ${FAVORITE_TEAMS_CAP} favorite teams, not counting official teams; ${counted} were sent.`,
    );
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
    await lockUser(tx, userId);
    await applyProfilePatch(tx, userId, patch);
    const profile = await getProfile(tx, userId);
    if (missingProfileFields(profile).length === 0) await grantOnce(tx, userId, "profile_completed");
    return profile;
  }, TX);
}
