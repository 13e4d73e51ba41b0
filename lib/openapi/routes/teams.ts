import * as search from "@/app/api/teams/search/route";
import * as followed from "@/app/api/teams/followed/route";
import * as follow from "@/app/api/teams/[id]/follow/route";
import * as join from "@/app/api/teams/[id]/join/route";
import * as roster from "@/app/api/teams/[id]/roster/route";
import * as headToHead from "@/app/api/teams/[id]/head-to-head/route";
import * as achievements from "@/app/api/teams/[id]/achievements/route";

// GET /api/teams and /api/teams/{id} are listed in ./foundation.ts.
export default {
  "/api/teams/search": search,
  "/api/teams/followed": followed,
  "/api/teams/{id}/follow": follow,
  "/api/teams/{id}/join": join,
  "/api/teams/{id}/roster": roster,
  "/api/teams/{id}/head-to-head": headToHead,
  "/api/teams/{id}/achievements": achievements,
};
