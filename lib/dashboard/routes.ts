import * as dashboard from "@/app/api/dashboard/route";
import * as balance from "@/app/api/dashboard/balance/route";
import * as quests from "@/app/api/dashboard/quests/route";
import * as stats from "@/app/api/dashboard/stats/route";

// The home screen in one call each.
export const routes = {
  "/api/dashboard": dashboard,
  "/api/dashboard/balance": balance,
  "/api/dashboard/quests": quests,
  "/api/dashboard/stats": stats,
};

export const internalRoutes = {};
