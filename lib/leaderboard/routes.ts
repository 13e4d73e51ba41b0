import * as leaderboard from "@/app/api/leaderboard/route";
import * as search from "@/app/api/leaderboard/search/route";
import * as seasons from "@/app/api/leaderboard/seasons/route";
import * as winners from "@/app/api/leaderboard/winners/route";
import * as stats from "@/app/api/leaderboard/stats/route";
import * as stream from "@/app/api/leaderboard/stream/route";
import * as rebuild from "@/app/api/admin/leaderboard/rebuild/route";
import * as check from "@/app/api/admin/leaderboard/check/route";
import * as cronSeasons from "@/app/api/cron/leaderboard-seasons/route";

// Leaderboards: boards, search, seasons, winners, stats; staff rebuild and drift check; the seasons cron.
export const routes = {
  "/api/leaderboard": leaderboard,
  "/api/leaderboard/search": search,
  "/api/leaderboard/seasons": seasons,
  "/api/leaderboard/winners": winners,
  "/api/leaderboard/stats": stats,
  "/api/leaderboard/stream": stream,
};

export const internalRoutes = {
  "/api/admin/leaderboard/rebuild": rebuild,
  "/api/admin/leaderboard/check": check,
  "/api/cron/leaderboard-seasons": cronSeasons,
};
