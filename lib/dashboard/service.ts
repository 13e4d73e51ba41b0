import type { Db } from "../db/client";
import { utcDay } from "../time";
import { toEvent, upcomingEventsOf } from "../games/queries";
import { QUIZ_GRACE_MS } from "../quests/quiz";
import { streakOf, todaysQuests, toViews } from "../quests/service";
import { activityCounts, dashboardRead, repAndStreak } from "./queries";
import { NEXT_GAMES } from "./schemas";

// The home screen: each answer is a few statements run side by side, never one per team or quest.

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

/** One statement; only when a quiz whose time ran out must be finalized first does it read its parts again, settled. */
export async function dashboardOf(db: Db, userId: string, now = new Date()) {
  const read = await dashboardRead(db, userId, now, QUIZ_GRACE_MS, NEXT_GAMES);
  if (read.state.expiredSession) {
    const [{ rep, streak }, today, nextGames] = await Promise.all([
      repAndStreak(db, userId, now),
      todaysQuests(db, userId, now),
      upcomingEventsOf(db, userId, NEXT_GAMES),
    ]);
    return { rep, streak, quests: summarized(today), nextGames };
  }
  const quests = summarized({ day: utcDay(now), quests: toViews(read.quests, read.state, now) });
  return { rep: read.rep, streak: read.streak, quests, nextGames: read.nextGames.map(toEvent) };
}
