import * as webhookLeaguesSync from "@/app/api/webhooks/leagues-sync/route";
import * as adminTeamsSync from "@/app/api/admin/teams/sync/route";
import * as adminLeaguesSync from "@/app/api/admin/leagues/sync/route";
import * as syncRuns from "@/app/api/admin/sync-runs/route";
import * as syncRun from "@/app/api/admin/sync-runs/[id]/route";
import * as cronLeaguesSync from "@/app/api/cron/leagues-sync/route";

// League/team sync: the provider webhook is public contract; the staff triggers, run history and cron are internal.
export const routes = {
  "/api/webhooks/leagues-sync": webhookLeaguesSync,
};

export const internalRoutes = {
  "/api/admin/teams/sync": adminTeamsSync,
  "/api/admin/leagues/sync": adminLeaguesSync,
  "/api/admin/sync-runs": syncRuns,
  "/api/admin/sync-runs/{id}": syncRun,
  "/api/cron/leagues-sync": cronLeaguesSync,
};
