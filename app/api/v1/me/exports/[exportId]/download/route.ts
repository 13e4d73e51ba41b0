import { z } from "zod";
import { db } from "@/lib/db/client";
import { errors as exportsErrors } from "@/lib/operations/exports/errors";
import { downloadQuery, exportParams } from "@/lib/operations/exports/schemas";
import { openDownload } from "@/lib/operations/exports/service";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

// Answers the zip itself, streamed from storage (the handler returns a Response, which the pipeline passes through);
// errors are JSON.
// The signed link is the credential (no session): lib/operations/exports/link.ts.

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Download a data export",
      description:
        "The zip of a ready export, through the signed link its status answered (`downloadUrl`): `expires` and `signature` as given. The link is the credential, so no session is needed (open it in a browser); it names one export and lasts 15 minutes. " +
        "403 EXPORT_LINK_INVALID for a changed or forged link, 410 EXPORT_LINK_EXPIRED past its 15 minutes, 410 EXPORT_EXPIRED when the export's 7 days are over.",
      tags: ["Exports"],
      auth: "public",
      params: exportParams,
      query: downloadQuery,
      response: z.instanceof(Response),
      envelope: false,
      errors: [exportsErrors.EXPORT_LINK_INVALID, exportsErrors.EXPORT_LINK_EXPIRED, exportsErrors.EXPORT_EXPIRED],
      openapi: {
        successResponses: {
          "200": {
            description: "The export's zip file.",
            headers: { "Content-Disposition": { schema: { type: "string", example: 'attachment; filename="fan-data-export-2026-11-27-0193a1b2.zip"' } } },
            content: { "application/zip": { schema: { type: "string", format: "binary", contentMediaType: "application/zip" } } },
          },
        },
      },
    },
    async ({ params, query }) => {
      const file = await openDownload(db, params.exportId, query);
      return new Response(file.body, {
        status: 200,
        headers: {
          "Content-Type": "application/zip",
          "Content-Length": String(file.size),
          "Content-Disposition": `attachment; filename="${file.filename}"`,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
          "Referrer-Policy": "no-referrer",
        },
      });
    },
  ),
});
