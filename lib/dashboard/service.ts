import type { Db } from "../db/client";
import { upcomingEventsOf } from "../games/queries";
import { streakOf, todaysQuests } from "../quests/service";
import { activityCounts, repTotals } from "./queries";
import { NEXT_GAMES } from "./schemas";

// The home screen: each answer is a few statements run side by side, never one per team or quest.

export const balanceOf = (db: Db, userId: string) => repTotals(db, userId);

export async function questsTodayOf(db: Db, userId: string, now = new Date()) {
  const [{ day, quests }, streak] = await Promise.all([todaysQuests(db, userId, now), streakOf(db, userId, now)]);
  return { day, available: quests.length, completedToday: quests.filter((q) => q.completed).length, streak, quests };
}

export async function statsOf(db: Db, userId: string, now = new Date()) {
  const [rep, streak, activity] = await Promise.all([repTotals(db, userId), streakOf(db, userId, now), activityCounts(db, userId, now)]);
  return { rep, streak, activity };
}

export async function dashboardOf(db: Db, userId: string, now = new Date()) {
  const [rep, { streak, ...quests }, nextGames] = await Promise.all([
    repTotals(db, userId),
    questsTodayOf(db, userId, now),
    upcomingEventsOf(db, userId, NEXT_GAMES),
  ]);
  return { rep, streak, quests, nextGames };
}
