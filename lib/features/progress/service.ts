// Progress: the streak with freezes and the at-risk notification (streaks.ts), tiers from Rep earned in a season
// (tiers.ts), badges (badges.ts), and the console's writes (console.ts). docs/domains/progress.md.
export { applyFreezes, buyFreeze, getStreak, notifyStreaksAtRisk, runStreaksCron } from "./streaks";
export { listTiers, myTier, refreshSeasonPeaks, tierFor } from "./tiers";
export { grantBadges, listBadges, runBadgesCron, setFeatured, userBadges } from "./badges";
export { saveBadge, saveTier } from "./console";
export { badgesOf, tiersOf } from "./queries";
