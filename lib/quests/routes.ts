import * as completedQuests from "@/app/api/user/completed-quests/route";

// Quests: the caller's completed quests.
export const routes = {
  "/api/user/completed-quests": completedQuests,
};

export const internalRoutes = {};
