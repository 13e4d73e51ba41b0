import type { Db } from "../db/client";
import type { AuthUser } from "../auth/users";
import { notFound } from "../http/errors";
import { grantOnce } from "../rep/grant";
import { isReservedHandle } from "./handles";
import { lockUser, TX } from "./profile";
import type { SettingsPatch } from "./schemas";

const SETTINGS_SELECT = {
  isPrivate: true,
  notifyTeams: true,
  notifyMilestones: true,
  notifyCommunity: true,
  analyticsPersonalization: true,
} as const;

function toSettings(u: { isPrivate: boolean; notifyTeams: boolean; notifyMilestones: boolean; notifyCommunity: boolean; analyticsPersonalization: boolean }) {
  return {
    privateProfile: u.isPrivate,
    notifyTeams: u.notifyTeams,
    notifyMilestones: u.notifyMilestones,
    notifyCommunity: u.notifyCommunity,
    analyticsPersonalization: u.analyticsPersonalization,
  };
}

/** The notification settings; notifications are on when at least one of them is (the notifications_enabled Rep). */
export const NOTIFICATION_SETTINGS = ["notifyTeams", "notifyMilestones", "notifyCommunity"] as const;

export function notificationsOn(user: Record<(typeof NOTIFICATION_SETTINGS)[number], boolean>): boolean {
  return NOTIFICATION_SETTINGS.some((s) => user[s]);
}

export async function getCurrentUser(db: Db, auth: AuthUser) {
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
    role: auth.isAdmin ? ("admin" as const) : ("fan" as const),
    onboarded: user.onboardedAt !== null,
    ugcTermsVersion: user.ugcTermsVersion,
    repBalance: user.repBalance,
    claimedRewardsCount: user._count.rewardClaims,
    settings: toSettings(user),
    createdAt: user.createdAt.toISOString(),
  };
}

export async function getSettings(db: Db, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: SETTINGS_SELECT });
  if (!user) throw notFound("User");
  return toSettings(user);
}

/**
 * PATCH /api/user/settings, under the user's row lock. A write that turns a notification setting on awards
 * notifications_enabled Rep in the same transaction, once ever (grantOnce: the earn route's grant key, so a later
 * claim there is ALREADY_EARNED).
 */
export async function updateSettings(db: Db, userId: string, patch: SettingsPatch) {
  const { privateProfile, ...rest } = patch;
  return db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    const user = await tx.user.update({
      where: { id: userId },
      data: { ...rest, ...(privateProfile !== undefined ? { isPrivate: privateProfile } : {}) },
      select: SETTINGS_SELECT,
    });
    if (NOTIFICATION_SETTINGS.some((s) => patch[s] === true)) {
      await grantOnce(tx, userId, "notifications_enabled");
    }
    return toSettings(user);
  }, TX);
}

export async function isUsernameAvailable(db: Db, username: string) {
  const key = username.toLowerCase();
  if (isReservedHandle(key)) return { available: false };
  const taken = await db.user.findUnique({ where: { handleKey: key }, select: { id: true } });
  return { available: !taken };
}
