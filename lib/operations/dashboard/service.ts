import type { Db } from "../../db/client";
import { streakOf, todaysQuests } from "../../features/quests/service";
import { nextGamesOf } from "../../features/games/service";
import { activityCounts, homeScreen, repAndStreak } from "./queries";
import { NEXT_GAMES } from "./schemas";

// The home screen: each answer is one statement (the dashboard) or a few run side by side, never one per team or quest.

export const balanceOf = async (db: Db, userId: string) => (await repAndStreak(db, userId, new Date())).rep;

const summarized = ({ day, quests }: Awaited<ReturnType<typeof todaysQuests>>) => ({
  day,
  available: quests.length,
  completedToday: quests.filter((q) => q.completed).length,
  quests,
});

export async function questsTodayOf(db: Db, userId: string, now = new Date()) {
  const [today, streak] = await Promise.all([todaysQuests(db, userId, now), streakOf(db, userId, now)]);
  return { ...summarized(today), streak };
}

export async function statsOf(db: Db, userId: string, now = new Date()) {
  const [{ rep, streak }, activity] = await Promise.all([repAndStreak(db, userId, now), activityCounts(db, userId, now)]);
  return { rep, streak, activity };
}

export async function dashboardOf(db: Db, userId: string, now = new Date()) {
  const home = await homeScreen(db, userId, now);
  const [today, nextGames] = await Promise.all([todaysQuests(db, userId, now, home.today), nextGamesOf(db, home.teams, NEXT_GAMES)]);
  return { rep: home.rep, streak: home.streak, quests: summarized(today), nextGames };
}
