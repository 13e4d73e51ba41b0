import { db } from "@/lib/db/client";
import { dataExportResult, exportParams } from "@/lib/operations/exports/schemas";
import { getExport } from "@/lib/operations/exports/service";
import { sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "A data export's status",
      description:
        "pending, building, ready, failed or expired. While ready: `downloadUrl`, a signed link to the zip valid 15 minutes (`downloadUrlExpiresAt`) that needs no session, so a mobile app can open it in a browser; ask again for a fresh one. 404 when the export is not the caller's. Open to a fully suspended caller.",
      tags: ["Exports"],
      auth: "bearer",
      allowSuspended: true,
      params: exportParams,
      response: dataExportResult,
      errors: [sharedErrors.NOT_FOUND],
    },
    ({ user, params }) => getExport(db, user.id, params.exportId),
  ),
});
