import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { notFound } from "../../kernel/errors";
import { favoriteTeamsOf } from "../teams/service";
import { raw } from "../../db/raw";
import { currentTermsVersion } from "../visibility/service";

// Reads of the caller's account and their serializers: settings, the own profile with its favorite teams, blocks.

/** The time zone changes at most once per this interval (24 hours). */
export const TIMEZONE_CHANGE_INTERVAL_MS = 24 * 3_600_000;

/** When the time zone may change again after a change at `changedAt`, or null when it may now. */
export function timezoneChangeableAt(changedAt: Date | null, now: Date): Date | null {
  const at = changedAt ? new Date(changedAt.getTime() + TIMEZONE_CHANGE_INTERVAL_MS) : null;
  return at && at > now ? at : null;
}

/** Whether PostgreSQL knows the time zone (pg_timezone_names). */
export async function databaseKnowsZone(db: DbTx, timezone: string): Promise<boolean> {
  const [row] = await db.$queryRaw<{ known: boolean }[]>`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${timezone}) AS known`;
  return row?.known ?? false;
}

export const SETTINGS_SELECT = {
  isPrivate: true,
  notifyTeams: true,
  notifyMilestones: true,
  notifyCommunity: true,
  analyticsPersonalization: true,
  country: true,
  timezone: true,
  timezoneChangedAt: true,
} as const;

export function toSettings(u: {
  isPrivate: boolean;
  notifyTeams: boolean;
  notifyMilestones: boolean;
  notifyCommunity: boolean;
  analyticsPersonalization: boolean;
  country: string | null;
  timezone: string | null;
  timezoneChangedAt: Date | null;
}) {
  return {
    privateProfile: u.isPrivate,
    notifyTeams: u.notifyTeams,
    notifyMilestones: u.notifyMilestones,
    notifyCommunity: u.notifyCommunity,
    analyticsPersonalization: u.analyticsPersonalization,
    country: u.country,
    timezone: u.timezone,
    timezoneChangeableAt: timezoneChangeableAt(u.timezoneChangedAt, new Date())?.toISOString() ?? null,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The caller's profile (own view: includes email and terms state). */
export async function getProfile(db: DbTx, userId: string) {
  const user = await db.user.findUnique({
    where: { id: userId },
    include: { favoriteTeams: { orderBy: [{ position: "asc" }, { createdAt: "asc" }], select: { teamId: true } } },
  });
  if (!user) throw notFound("User");
  const favoriteTeams = await favoriteTeamsOf(
    db,
    user.favoriteTeams.map((f) => f.teamId),
  );
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
    favoriteTeams,
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

export interface BlockedRow {
  id: string;
  handle: string | null;
  displayName: string | null;
  avatarUrl: string | null;
  blockedAt: Date;
}

export const toBlocked = (r: BlockedRow) => ({
  id: r.id,
  handle: r.handle,
  displayName: r.displayName,
  avatarUrl: r.avatarUrl,
  blockedAt: r.blockedAt.toISOString(),
});

/** The blocks of `blockerId` with the blocked users, most recent first (blockedAt desc, blocked user id desc). */
export function blocksOf(db: DbTx, blockerId: string, { after, blockedId, take }: { after?: { at: Date; id: string }; blockedId?: string; take: number }) {
  const only = blockedId ? Prisma.sql`AND b.blocked_id = ${blockedId}::uuid` : Prisma.empty;
  const keyset = after ? Prisma.sql`AND (b.created_at, b.blocked_id) < (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty;
  return raw(db).$queryRaw<BlockedRow[]>`
    SELECT u.id::text AS id, u.handle, u.display_name AS "displayName", u.avatar_url AS "avatarUrl", b.created_at AS "blockedAt"
    FROM user_blocks b JOIN users u ON u.id = b.blocked_id
    WHERE b.blocker_id = ${blockerId}::uuid ${only} ${keyset}
    ORDER BY b.created_at DESC, b.blocked_id DESC LIMIT ${take}`;
}
