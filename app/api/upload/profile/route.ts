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
      summary: "Upload a profile photo",
      description:
        "Replaces the caller's avatar (avatarUrl, avatarThumbhash) and then deletes the previously uploaded file. A refused upload leaves the current photo in place.",
      tags: ["Users"],
      auth: "bearer",
      body: undefined, // multipart: read by the handler through a size-limited reader
      rateLimit: "write",
      response: uploadResult,
      errors: [...UPLOAD_ERRORS],
      openapi: { requestBody: multipartBody("profile") },
    },
    async ({ req, user }) => {
      const { file } = await readMultipartUpload(req, UPLOAD_KINDS.profile.maxBytes);
      const { key: _key, ...result } = await replaceUserImage(db, user.id, "avatar", file.bytes);
      return result;
    },
  ),
});
