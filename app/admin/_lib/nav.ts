// The console's navigation: the layout draws it and the accessibility test (tests/e2e/console-accessibility.test.ts)
// visits every entry, so a page added here is checked without touching the test.

export const NAV = [
  ["/admin", "Dashboard"],
  ["/admin/teams", "Teams"],
  ["/admin/leagues", "Leagues"],
  ["/admin/sync", "Sync"],
  ["/admin/live", "Live"],
  ["/admin/users", "Users"],
  ["/admin/quests", "Quests"],
  ["/admin/rewards", "Rewards"],
  ["/admin/fulfilment", "Fulfilment"],
  ["/admin/moderation", "Moderation"],
  ["/admin/economy", "Economy"],
  ["/admin/market", "Market"],
  ["/admin/drops", "Drops"],
  ["/admin/progress", "Tiers & badges"],
  ["/admin/contests", "Contests"],
  ["/admin/payments", "Payments"],
  ["/admin/deletions", "Deletions"],
  ["/admin/push", "Push"],
  ["/admin/trends", "Trends"],
  ["/admin/flags", "Flags"],
  ["/admin/announcements", "Announcements"],
] as const;
