import * as health from "@/app/api/health/route";
import * as user from "@/app/api/user/route";
import * as userSettings from "@/app/api/user/settings/route";
import * as checkUsername from "@/app/api/user/check-username/route";
import * as teams from "@/app/api/teams/route";
import * as team from "@/app/api/teams/[id]/route";
import * as starredTeams from "@/app/api/me/starred-teams/route";
import * as starredTeam from "@/app/api/me/starred-teams/[teamId]/route";
import * as repLedger from "@/app/api/v1/engage/rep/ledger/route";
import * as repEarn from "@/app/api/v1/engage/rep/earn/route";

export default {
  "/api/health": health,
  "/api/user": user,
  "/api/user/settings": userSettings,
  "/api/user/check-username": checkUsername,
  "/api/teams": teams,
  "/api/teams/{id}": team,
  "/api/me/starred-teams": starredTeams,
  "/api/me/starred-teams/{teamId}": starredTeam,
  "/api/v1/engage/rep/ledger": repLedger,
  "/api/v1/engage/rep/earn": repEarn,
};
