import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { parse, route } from "@/lib/http/route";
import { z } from "zod";
import { UPLOAD_KINDS } from "@/lib/core/uploads/kinds";
import { readMultipartUpload } from "@/lib/http/multipart";
import { binderCoverResult, binderIdField, multipartBody, UPLOAD_ERRORS } from "@/lib/core/uploads/schemas";
import { replaceBinderCover } from "@/lib/core/uploads/service";
import { sharedErrors } from "@/lib/kernel/errors";

const fields = z.object({ binderId: binderIdField });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Upload a binder cover",
      description:
        "Multipart with `file` and `binderId`. Replaces the cover of one of the caller's binders and then deletes the previously uploaded file. Another user's binder answers 404 NOT_FOUND, like a missing one.",
      tags: ["Users"],
      auth: "bearer",
      body: undefined, // multipart: read by the handler through a size-limited reader
      rateLimit: "write",
      response: binderCoverResult,
      errors: [...UPLOAD_ERRORS, sharedErrors.NOT_FOUND],
      openapi: {
        requestBody: multipartBody("binder-cover", { binderId: { type: "string", format: "uuid", description: "One of the caller's binders." } }),
      },
    },
    async ({ req, user }) => {
      const { file, fields: raw } = await readMultipartUpload(req, UPLOAD_KINDS["binder-cover"].maxBytes);
      const { binderId } = parse(fields, raw, "body");
      const { key: _key, ...result } = await replaceBinderCover(db, user.id, binderId, file.bytes);
      return result;
    },
  ),
});
