import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { syncRunsQuery, syncRunsResult } from "@/lib/features/sync/schemas";
import { listSyncRuns } from "@/lib/features/sync/queries";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "League/team sync runs",
      description: "History of sync runs (admin, webhook, cron), newest first, with their summaries. Keyset-paginated: pass `nextCursor` back as `cursor`.",
      tags: ["Admin"],
      auth: "admin",
      query: syncRunsQuery,
      response: syncRunsResult,
    },
    ({ query }) => listSyncRuns(db, { limit: query.limit, cursor: query.cursor }),
  ),
});
