import * as leagues from "@/app/api/leagues/route";
import * as standings from "@/app/api/leagues/[leagueId]/standings/route";
import * as sports from "@/app/api/config/sports/route";

// Leagues, standings and the sports catalogue.
export const routes = {
  "/api/leagues": leagues,
  "/api/leagues/{leagueId}/standings": standings,
  "/api/config/sports": sports,
};

export const internalRoutes = {};
