import * as completedQuests from "@/app/api/user/completed-quests/route";
import * as quests from "@/app/api/v1/engage/quests/route";
import * as quest from "@/app/api/v1/engage/quests/[questId]/route";
import * as startSession from "@/app/api/v1/engage/quests/[questId]/session/route";
import * as session from "@/app/api/v1/engage/quests/session/[sessionId]/route";
import * as submit from "@/app/api/v1/engage/quests/session/[sessionId]/submit/route";
import * as forfeit from "@/app/api/v1/engage/quests/session/[sessionId]/forfeit/route";
import * as dailySummary from "@/app/api/v1/engage/quests/daily-summary/route";
import * as arenaCheckIn from "@/app/api/v1/engage/quests/arena-check-in/route";
import * as legacyQuests from "@/app/api/quests/route";
import * as legacyStart from "@/app/api/quests/start/route";
import * as legacyCompleteStep from "@/app/api/quests/complete-step/route";
import * as legacyDailyVisit from "@/app/api/quests/daily-visit/route";
import * as legacyCheckProgress from "@/app/api/quests/check-progress/route";
import * as syncQuestPoints from "@/app/api/sync-quest-points/route";

// Quests: the engine (today's quests, the daily quiz, arena check-ins, the daily summary), the legacy routes over
// the same engine, quest points, and the caller's completed quests.
export const routes = {
  "/api/v1/engage/quests": quests,
  "/api/v1/engage/quests/daily-summary": dailySummary,
  "/api/v1/engage/quests/arena-check-in": arenaCheckIn,
  "/api/v1/engage/quests/{questId}": quest,
  "/api/v1/engage/quests/{questId}/session": startSession,
  "/api/v1/engage/quests/session/{sessionId}": session,
  "/api/v1/engage/quests/session/{sessionId}/submit": submit,
  "/api/v1/engage/quests/session/{sessionId}/forfeit": forfeit,
  "/api/quests": legacyQuests,
  "/api/quests/start": legacyStart,
  "/api/quests/complete-step": legacyCompleteStep,
  "/api/quests/daily-visit": legacyDailyVisit,
  "/api/quests/check-progress": legacyCheckProgress,
  "/api/sync-quest-points": syncQuestPoints,
  "/api/user/completed-quests": completedQuests,
};

export const internalRoutes = {};
