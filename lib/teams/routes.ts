import * as teams from "@/app/api/teams/route";
import * as team from "@/app/api/teams/[id]/route";
import * as search from "@/app/api/teams/search/route";
import * as followed from "@/app/api/teams/followed/route";
import * as follow from "@/app/api/teams/[id]/follow/route";
import * as join from "@/app/api/teams/[id]/join/route";
import * as roster from "@/app/api/teams/[id]/roster/route";
import * as headToHead from "@/app/api/teams/[id]/head-to-head/route";
import * as userTeams from "@/app/api/user/teams/route";
import * as achievements from "@/app/api/teams/[id]/achievements/route";

// Teams: lists, search, detail, follow and join, roster, head-to-head, achievements.
export const routes = {
  "/api/teams": teams,
  "/api/teams/{id}": team,
  "/api/teams/search": search,
  "/api/teams/followed": followed,
  "/api/teams/{id}/follow": follow,
  "/api/teams/{id}/join": join,
  "/api/teams/{id}/roster": roster,
  "/api/teams/{id}/head-to-head": headToHead,
  "/api/teams/{id}/achievements": achievements,
  "/api/user/teams": userTeams,
};

export const internalRoutes = {};
