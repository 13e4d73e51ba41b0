// For other modules (their public face is this file, its schemas and its errors: decision 0070).
export { todaysQuestsColumns, todaysQuestsFrom } from "./queries";
export type { TodaysQuestsAt, TodaysQuestsRow } from "./queries";
// The quests module's service: the route handlers' and other modules' one entry point, re-exporting the feature
// files that hold the rules: engine.ts (periods, awards, eligibility, completion), views.ts (quests with progress,
// today's quests, the daily summary and streak, history), quiz-sessions.ts, check-in.ts, steps.ts, points.ts, and the
// statement parts of a completion (writes.ts).
export { awardOf, completeQuest, periodKeyOf } from "./engine";
export { questCompletionCtes, questCompletionRowsCtes } from "./writes";
export { dailySummary, forgetQuests, getQuest, listCompletedQuests, streakOf, todaysQuests, toStreak, type QuestView } from "./views";
export { forfeitQuiz, getQuizSession, startQuiz, submitAnswer } from "./quiz-sessions";
export { arenaCheckIn } from "./check-in";
export { checkProgress, completeStep, dailyVisit, startQuest } from "./steps";
export { syncQuestPoints } from "./points";
