// What the Rep awards that need a state of the fan's account check (`requires` in lib/core/rep/grants.ts): the earn route
// (lib/core/rep/service.ts) refuses a claim while it does not hold, and lib/core/users awards the Rep when a write makes it hold.

/**
 * A complete profile, for the profile_completed Rep (lib/core/rep): a handle, a display name and an avatar (uploaded, or
 * the identity provider's image). Bio and favorite teams are optional and do not count.
 */
export const PROFILE_COMPLETE_FIELDS = ["handle", "displayName", "avatarUrl"] as const;

/** The PROFILE_COMPLETE_FIELDS a user row lacks (empty when the profile is complete). */
export function missingProfileFields(user: { handle: string | null; displayName: string | null; avatarUrl: string | null }): string[] {
  return PROFILE_COMPLETE_FIELDS.filter((f) => !user[f]?.trim());
}

/** The notification settings; notifications are on when at least one of them is (the notifications_enabled Rep). */
export const NOTIFICATION_SETTINGS = ["notifyTeams", "notifyMilestones", "notifyCommunity"] as const;

export function notificationsOn(user: Record<(typeof NOTIFICATION_SETTINGS)[number], boolean>): boolean {
  return NOTIFICATION_SETTINGS.some((s) => user[s]);
}
