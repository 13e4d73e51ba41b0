import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { UPLOAD_KINDS } from "@/lib/core/uploads/kinds";
import { readMultipartUpload } from "@/lib/http/multipart";
import { multipartBody, UPLOAD_ERRORS, uploadResult } from "@/lib/core/uploads/schemas";
import { replaceUserImage } from "@/lib/core/uploads/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Upload a profile banner",
      description:
        "Replaces the caller's banner (bannerUrl, bannerThumbhash) and then deletes the previously uploaded file. A refused upload leaves the current banner in place.",
      tags: ["Users"],
      auth: "bearer",
      body: undefined, // multipart: read by the handler through a size-limited reader
      rateLimit: "write",
      response: uploadResult,
      errors: [...UPLOAD_ERRORS],
      openapi: { requestBody: multipartBody("banner") },
    },
    async ({ req, user }) => {
      const { file } = await readMultipartUpload(req, UPLOAD_KINDS.banner.maxBytes);
      const { key: _key, ...result } = await replaceUserImage(db, user.id, "banner", file.bytes);
      return result;
    },
  ),
});
