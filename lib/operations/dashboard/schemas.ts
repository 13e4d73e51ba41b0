import { z } from "zod";
import { event } from "../../features/games/schemas";
import { quest, streak } from "../../features/quests/schemas";

export const repSummary = z
  .object({
    balance: z.number().int().meta({ description: "Spendable Rep (never negative): earned − spent." }),
    earned: z.number().int().meta({ description: "Rep credited by the ledger, net of staff reversals." }),
    spent: z.number().int().meta({ description: "Rep spent on rewards." }),
    bySource: z
      .object({ fanAmp: z.number().int(), club: z.number().int(), playerAmp: z.number().int(), serviceDirect: z.number().int() })
      .meta({ description: "Earned Rep per source (the ledger's four Rep types); sums to `earned`." }),
  })
  .meta({ id: "RepSummary" });

export const questsToday = z
  .object({
    day: z.string().meta({ description: "The caller's UTC day (YYYY-MM-DD)." }),
    available: z.number().int().meta({ description: "Quests offered to the caller now (daily and one-time)." }),
    completedToday: z.number().int().meta({ description: "Of those, completed in their current period (today for daily quests)." }),
    streak,
    quests: z.array(quest),
  })
  .meta({ id: "DashboardQuests" });

export const activity = z
  .object({
    questsCompleted: z.number().int().meta({ description: "Quest completions ever (a daily quest counts once per day)." }),
    questsCompletedToday: z.number().int(),
    checkIns: z.number().int().meta({ description: "Arena check-ins ever." }),
    gamesRated: z.number().int(),
    rewardsClaimed: z.number().int().meta({ description: "Rewards claimed or redeemed." }),
  })
  .meta({ id: "DashboardActivity" });

export const dashboardStats = z.object({ rep: repSummary, streak, activity }).meta({ id: "DashboardStats" });

export const NEXT_GAMES = 5;

export const dashboard = z
  .object({
    rep: repSummary,
    streak,
    quests: questsToday.omit({ streak: true }),
    nextGames: z.array(event).meta({
      description: `The next ${NEXT_GAMES} games of teams the caller follows or joined that are not decided yet, soonest first: GET /api/events?status=upcoming's first ${NEXT_GAMES}, with myRating null (a game is rated once final). A team's games are kept per server process for a few seconds (TEAM_CACHE_TTL_MS), so a sync shows here within that.`,
    }),
  })
  .meta({ id: "Dashboard" });
