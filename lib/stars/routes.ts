import * as starredTeams from "@/app/api/me/starred-teams/route";
import * as starredTeam from "@/app/api/me/starred-teams/[teamId]/route";

// Starred teams (HQ bookmarks).
export const routes = {
  "/api/me/starred-teams": starredTeams,
  "/api/me/starred-teams/{teamId}": starredTeam,
};

export const internalRoutes = {};
