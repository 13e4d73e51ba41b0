import { db } from "@/lib/db/client";
import { readBodyBytes } from "@/lib/http/body";
import { DomainError, sharedErrors } from "@/lib/kernel/errors";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { directUploadParams, directUploadReceived } from "@/lib/core/uploads/schemas";
import { DIRECT_UPLOAD_TOKEN_HEADER, openDirectUpload, storeDirectOriginal } from "@/lib/core/uploads/service";
import { errors as uploadsErrors } from "@/lib/core/uploads/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  PUT: route(
    {
      summary: "Send a direct upload's file (local storage)",
      description:
        `The local storage driver's equivalent of Vercel Blob's client upload: the file's bytes as the body, the one-time token from the start in \`${DIRECT_UPLOAD_TOKEN_HEADER}\`. ` +
        "Sending again before completing replaces the file. A wrong id or token, and every call under Vercel Blob, is 404; after the window 410 UPLOAD_EXPIRED; after completion 409; more bytes than declared 413.",
      tags: ["Locker room"],
      auth: "public",
      params: directUploadParams,
      body: undefined, // raw bytes, read by the handler through the grant's size limit
      rateLimit: "anonymous",
      response: directUploadReceived,
      errors: [sharedErrors.NOT_FOUND, uploadsErrors.UPLOAD_EXPIRED, uploadsErrors.UPLOAD_ALREADY_COMPLETED, sharedErrors.PAYLOAD_TOO_LARGE],
      openapi: {
        requestBody: {
          required: true,
          description: "The file's bytes.",
          content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
        },
      },
    },
    async ({ req, params }) => {
      const grant = await openDirectUpload(db, params.uploadId, req.headers.get(DIRECT_UPLOAD_TOKEN_HEADER));
      const tooLarge = () =>
        new DomainError(sharedErrors.PAYLOAD_TOO_LARGE, `The file is larger than the ${grant.maxBytes} bytes declared when the upload started.`);
      const declared = Number(req.headers.get("content-length") ?? 0);
      if (declared > grant.maxBytes) throw tooLarge();
      return storeDirectOriginal(grant, await readBodyBytes(req, grant.maxBytes, tooLarge));
    },
  ),
});
