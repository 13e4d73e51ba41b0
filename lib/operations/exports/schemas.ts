import { z } from "zod";
import { cursorQuery, intQuery, isoDateTime, uuidString } from "../../kernel/schemas";
import { pageSchema } from "../../kernel/page";

/** One export per user per this many days (failed ones do not count). */
export const EXPORT_INTERVAL_DAYS = 7;
/** A ready export's file is kept this long, then deleted (status expired). */
export const EXPORT_RETENTION_DAYS = 7;
/** The metadata row of an expired or failed export is deleted this long after it was requested. */
export const EXPORT_ROW_RETENTION_DAYS = 30;
/** A download link is valid this long. */
export const EXPORT_LINK_TTL_S = 15 * 60;
export const EXPORT_STATUSES = ["pending", "building", "ready", "failed", "expired"] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const exportParams = z.strictObject({ exportId: uuidString("Export id (UUID).") });

export const exportListQuery = z.strictObject({ cursor: cursorQuery, limit: intQuery(1, 50, 20) });

export const downloadQuery = z.strictObject({
  expires: z
    .string()
    .regex(/^\d{1,12}$/, "Unix seconds")
    .meta({ description: "When the link stops working (Unix seconds), as the status answer gave it." }),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/, "The link's signature")
    .meta({ description: "The link's signature, as the status answer gave it." }),
});

export const dataExport = z
  .object({
    id: z.string(),
    status: z.enum(EXPORT_STATUSES).meta({
      description:
        "pending (waiting for the exports cron), building, ready (downloadable until expiresAt), failed (the build failed for good; a new export may be requested at once), expired (its file was deleted).",
    }),
    createdAt: isoDateTime,
    readyAt: isoDateTime.nullable(),
    expiresAt: isoDateTime.nullable().meta({ description: "When a ready export's file is deleted (7 days after it was ready)." }),
    sizeBytes: z.number().int().nullable(),
    downloadUrl: z.string().nullable().meta({
      description:
        "While ready: a link to the zip, valid 15 minutes (downloadUrlExpiresAt) and working without a session (a signed link: open it in a browser). Null otherwise.",
    }),
    downloadUrlExpiresAt: isoDateTime.nullable(),
  })
  .meta({ id: "DataExport", description: "A data export: a zip of the caller's data, one JSON file per area, read from one snapshot." });

export const dataExportResult = z.object({ export: dataExport }).meta({ id: "DataExportResult" });
export const dataExportPage = pageSchema("exports", dataExport, { id: "DataExportPage" });

export const exportRun = z
  .object({
    built: z.number().int().meta({ description: "Exports built and stored (now ready)." }),
    failed: z.number().int().meta({ description: "Builds that failed this run (retried by a later run, failed for good after 3 attempts)." }),
    expired: z.number().int().meta({ description: "Ready exports past their 7 days whose files were deleted (status expired)." }),
    pruned: z.number().int().meta({ description: "Rows of expired and failed exports older than 30 days deleted." }),
  })
  .meta({ id: "ExportRun" });
