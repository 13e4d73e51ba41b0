import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { LOCKER_MEDIA_DAILY_BYTES, LOCKER_MEDIA_GRACE_MS, LOCKER_MEDIA_PENDING_CAP, UPLOAD_KINDS } from "@/lib/core/uploads/kinds";
import { readMultipartUpload } from "@/lib/http/multipart";
import { multipartBody, UPLOAD_ERRORS, uploadResult } from "@/lib/core/uploads/schemas";
import { storeLockerMedia } from "@/lib/core/uploads/service";
import { errors as uploadsErrors } from "@/lib/core/uploads/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Upload an image for a locker-room post",
      description:
        "Stores the image for a later locker-room post (reference it by url). Changes nothing else. " +
        `The upload stays pending until a post uses it; pending uploads no post has used are deleted after ${LOCKER_MEDIA_GRACE_MS / 3_600_000} h. ` +
        `Quota per user: at most ${LOCKER_MEDIA_PENDING_CAP} pending uploads at once, and ${LOCKER_MEDIA_DAILY_BYTES / (1024 * 1024)} MB of stored (re-encoded) images per rolling 24 hours; ` +
        "past either, 429 UPLOAD_QUOTA_EXCEEDED and nothing is stored.",
      tags: ["Locker room"],
      auth: "bearer",
      feature: "posting",
      body: undefined, // multipart: read by the handler through a size-limited reader
      rateLimit: "write",
      status: 201,
      response: uploadResult,
      errors: [...UPLOAD_ERRORS, uploadsErrors.UPLOAD_QUOTA_EXCEEDED],
      openapi: { requestBody: multipartBody("locker-media") },
    },
    async ({ req, user }) => {
      const { file } = await readMultipartUpload(req, UPLOAD_KINDS["locker-media"].maxBytes);
      const { key: _key, ...result } = await storeLockerMedia(db, user.id, file.bytes);
      return result;
    },
  ),
});
