// The console's navigation: the layout draws it and the accessibility test (tests/e2e/console-accessibility.test.ts)
// visits every entry, so a page added here is checked without touching the test.
import type { ConsoleArea } from "@/lib/auth/roles";

// Each entry: its path, its label and the area a role must open to see it (lib/auth/roles.ts; the page checks again).
export const NAV = [
  ["/admin", "Dashboard", "staff"],
  ["/admin/teams", "Teams", "admin"],
  ["/admin/leagues", "Leagues", "admin"],
  ["/admin/sync", "Sync", "admin"],
  ["/admin/live", "Live", "admin"],
  ["/admin/users", "Users", "users"],
  ["/admin/quests", "Quests", "admin"],
  ["/admin/rewards", "Rewards", "economy"],
  ["/admin/fulfilment", "Fulfilment", "economy"],
  ["/admin/moderation", "Moderation", "moderation"],
  ["/admin/economy", "Economy", "economy"],
  ["/admin/market", "Market", "economy"],
  ["/admin/drops", "Drops", "economy"],
  ["/admin/progress", "Tiers & badges", "admin"],
  ["/admin/contests", "Contests", "economy"],
  ["/admin/payments", "Payments", "economy"],
  ["/admin/deletions", "Deletions", "support"],
  ["/admin/push", "Push", "admin"],
  ["/admin/trends", "Trends", "admin"],
  ["/admin/flags", "Flags", "admin"],
  ["/admin/announcements", "Announcements", "admin"],
  ["/admin/audit", "Audit log", "admin"],
] as const satisfies readonly (readonly [string, string, ConsoleArea])[];
