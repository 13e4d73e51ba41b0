// Progress: the streak with freezes and the at-risk notification (streaks.ts), tiers from Rep earned in a season
// (tiers.ts), badges (badges.ts), their statements (queries.ts, writes.ts), and the console's writes (console.ts).
// docs/domains/progress.md.
export { applyFreezes, buyFreeze, getStreak, runStreaksCron } from "./streaks";
export { listTiers, myTier, tierFor } from "./tiers";
export { listBadges, runBadgesCron, setFeatured, userBadges } from "./badges";
export { grantBadges, notifyStreaksAtRisk, refreshSeasonPeaks } from "./writes";
export { saveBadge, saveTier } from "./console";
export { badgesOf, tiersOf } from "./queries";
