import * as leagues from "@/app/api/leagues/route";
import * as standings from "@/app/api/leagues/[leagueId]/standings/route";
import * as sports from "@/app/api/config/sports/route";
import * as accessibility from "@/app/api/accessibility/route";

export default {
  "/api/leagues": leagues,
  "/api/leagues/{leagueId}/standings": standings,
  "/api/config/sports": sports,
  "/api/accessibility": accessibility,
};
