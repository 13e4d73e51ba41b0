import { db } from "@/lib/db/client";
import { notFound, sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { syncRunParams, syncRunSchema } from "@/lib/features/sync/schemas";
import { getSyncRun } from "@/lib/features/sync/queries";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "One sync run",
      description: "A sync run with its summary and the list of rows it changed (`summary.changes`).",
      tags: ["Admin"],
      auth: "admin",
      params: syncRunParams,
      response: syncRunSchema,
      errors: [sharedErrors.NOT_FOUND],
    },
    async ({ params }) => {
      const run = await getSyncRun(db, params.id);
      if (!run) throw notFound("Sync run");
      return run;
    },
  ),
});
