// Staff roles and what each may open: the whole capability map of the console and the staff API. A role lives in
// the identity provider (Clerk public metadata `role`, copied into the session token's `metadata.role` claim), so
// checking it costs no call per request. `admin` means what it always meant: every area.

export const STAFF_ROLES = ["admin", "moderator", "support", "economy"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * The console's areas, each a set of pages, server actions and staff API routes:
 * - `staff`: what every staff member opens (the dashboard, search)
 * - `users`: user look-up and a fan's page
 * - `moderation`: reports, hidden content, sanctions, appeals, deletions
 * - `support`: tickets, deletion requests, Rep reversals
 * - `wallets`: wallet adjustments (every role but admin up to SUPPORT_WALLET_ADJUSTMENT_LIMIT per adjustment)
 * - `economy`: packs, drops, challenges, contests, products, market, payments and refunds, rewards, fulfilment
 * - `admin`: roles, flags, announcements, trends, teams, syncs, the audit log, and everything else
 */
export const CONSOLE_AREAS = ["staff", "users", "moderation", "support", "wallets", "economy", "admin"] as const;
export type ConsoleArea = (typeof CONSOLE_AREAS)[number];

export const ROLE_AREAS: Record<StaffRole, readonly ConsoleArea[]> = {
  admin: CONSOLE_AREAS,
  moderator: ["staff", "users", "moderation"],
  support: ["staff", "users", "support", "wallets"],
  economy: ["staff", "users", "wallets", "economy"],
};

/** The most coins (minor units) a staff member other than an admin may add or take in one wallet adjustment. */
export const SUPPORT_WALLET_ADJUSTMENT_LIMIT = 5_000;

/** The staff role a claim names, or null (a fan, or a value that is no role). */
export const staffRoleOf = (claim: unknown): StaffRole | null => ((STAFF_ROLES as readonly unknown[]).includes(claim) ? (claim as StaffRole) : null);

/** Whether a role may open an area (null: not staff, never). */
export const mayOpen = (role: StaffRole | null | undefined, area: ConsoleArea): boolean => !!role && ROLE_AREAS[role].includes(area);

/** The largest wallet adjustment a role may make in one action: null for no limit. */
export const walletAdjustmentLimit = (role: StaffRole): number | null => (role === "admin" ? null : SUPPORT_WALLET_ADJUSTMENT_LIMIT);
