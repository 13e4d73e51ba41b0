import { apiActor } from "@/lib/core/audit/service";
import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { syncRunSchema, syncTriggerBody } from "@/lib/features/sync/schemas";
import { runSync } from "@/lib/features/sync/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Sync teams from the provider",
      description:
        "Runs a sync of the teams, their players and the games of the provider feed now (scope `teams`), in one transaction: all or nothing. Runs never interleave: one started while another is in progress waits for it. Only rows owned by the feed's provider (League/Team `source`) are created, updated or archived. Answers the run record (201) whatever its outcome: `status` is `succeeded` with a summary of what changed, or `failed` with `error` (nothing changed). Optional body `{ dryRun: true }` computes the summary and writes nothing.",
      tags: ["Admin"],
      auth: "admin",
      body: syncTriggerBody,
      bodyRequired: false,
      status: 201,
      response: syncRunSchema,
    },
    ({ body, user, requestId }) => runSync(db, { scope: "teams", trigger: "admin", actor: apiActor(user, requestId), dryRun: body?.dryRun === true }),
  ),
});
