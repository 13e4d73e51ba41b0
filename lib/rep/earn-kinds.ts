import type { RepSource } from "../generated/prisma/enums";

// What a client may claim through POST /api/v1/engage/rep/earn, and how often. Amounts and sources are
// chosen here, never by the client. "scope" says what a grant counts against:
//   once      — once per user, ever
//   daily     — once per user per UTC day
//   perTarget — once per user per targetId, at most dailyCap such grants per UTC day
// "requires" is a condition the server checks on the user's row at claim time (409 EARN_CONDITION_NOT_MET):
//   profileComplete — handle, display name and avatar set (missingProfileFields in lib/users/profile.ts)
//   notificationsOn — at least one notification setting on (notificationsOn in lib/users/service.ts)
// Those two are also awarded by the server itself, once, from the write that meets them: PATCH /api/user/profile
// leaving the profile complete, PATCH /api/user/settings turning a notification setting on (grantOnce in ./grant.ts).
export interface EarnKind {
  amount: number;
  source: RepSource;
  reason: string;
  scope: "once" | "daily" | "perTarget";
  dailyCap?: number;
  requires?: "profileComplete" | "notificationsOn";
}

export const CLIENT_EARN_KINDS = {
  daily_visit: { amount: 5, source: "serviceDirect", reason: "Daily visit", scope: "daily" },
  profile_completed: { amount: 50, source: "serviceDirect", reason: "Completed your profile", scope: "once", requires: "profileComplete" },
  notifications_enabled: { amount: 20, source: "serviceDirect", reason: "Turned on notifications", scope: "once", requires: "notificationsOn" },
  article_read: { amount: 2, source: "fanAmp", reason: "Read an article", scope: "perTarget", dailyCap: 10 },
  post_shared: { amount: 10, source: "fanAmp", reason: "Shared a post", scope: "perTarget", dailyCap: 5 },
} as const satisfies Record<string, EarnKind>;

/** Awarded by the server itself (amount and Rep type chosen server-side); refused on the earn route. */
export const SERVER_AWARDED_KINDS = ["arena_check_in", "daily_quest_completion", "game_rating"] as const;

export type ClientEarnKind = keyof typeof CLIENT_EARN_KINDS;
export const CLIENT_EARN_KIND_NAMES = Object.keys(CLIENT_EARN_KINDS) as ClientEarnKind[];
