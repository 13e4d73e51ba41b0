import { db } from "@/lib/db/client";
import { errors as exportsErrors } from "@/lib/operations/exports/errors";
import { dataExportPage, dataExportResult, exportListQuery } from "@/lib/operations/exports/schemas";
import { listExports, requestExport } from "@/lib/operations/exports/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "My data exports",
      description: "The caller's data exports, newest first (keyset pages), each with its status and, while ready, a download link valid 15 minutes.",
      tags: ["Exports"],
      auth: "bearer",
      // A fully suspended fan keeps access to their data (GDPR art. 15): their exports stay open to them.
      allowSuspended: true,
      query: exportListQuery,
      response: dataExportPage,
    },
    ({ user, query }) => listExports(db, user.id, query),
  ),
  POST: route(
    {
      summary: "Request a data export",
      description:
        "Asks for a zip of the caller's data: one JSON file per area (profile, settings, teams, posts, comments, Rep ledger, wallet ledger, collectibles, listings, orders, notifications, reports filed, other activity), " +
        "all read from one database snapshot, so the ledgers agree with the balances in it. 202 with the export (status pending); a cron builds it within minutes (GET /api/v1/me/exports/{exportId} for its status and, once ready, a download link). " +
        "At most one export per 7 days (a failed one does not count): 429 EXPORT_TOO_SOON with Retry-After (seconds) otherwise, also when two requests arrive at once. A ready export is downloadable for 7 days, then deleted. No body. " +
        "Open to a fully suspended caller (access to one's own data), as are the export's status and download.",
      tags: ["Exports"],
      auth: "bearer",
      allowSuspended: true,
      rateLimit: "write",
      status: 202,
      response: dataExportResult,
      errors: [exportsErrors.EXPORT_TOO_SOON],
    },
    ({ user }) => requestExport(db, user.id),
  ),
});
