import * as feedSignals from "@/app/api/feed/signals/route";
import * as cronSignalsRetention from "@/app/api/cron/signals-retention/route";

// Feed signals; internal: the retention cron.
export const routes = {
  "/api/feed/signals": feedSignals,
};

export const internalRoutes = {
  "/api/cron/signals-retention": cronSignalsRetention,
};
