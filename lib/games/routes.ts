import * as events from "@/app/api/events/route";
import * as event from "@/app/api/events/[gameId]/route";
import * as ratings from "@/app/api/events/[gameId]/ratings/route";
import * as guessStart from "@/app/api/games/guess-player/session/start/route";
import * as guessSession from "@/app/api/games/guess-player/session/[sessionId]/route";
import * as guess from "@/app/api/games/guess-player/session/[sessionId]/guess/route";
import * as dailySpin from "@/app/api/games/daily-spin/reward/route";

// Games as events (lineups, ratings), guess the player, the daily spin.
export const routes = {
  "/api/events": events,
  "/api/events/{gameId}": event,
  "/api/events/{gameId}/ratings": ratings,
  "/api/games/guess-player/session/start": guessStart,
  "/api/games/guess-player/session/{sessionId}": guessSession,
  "/api/games/guess-player/session/{sessionId}/guess": guess,
  "/api/games/daily-spin/reward": dailySpin,
};

export const internalRoutes = {};
