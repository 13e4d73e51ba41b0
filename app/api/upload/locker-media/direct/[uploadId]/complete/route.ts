import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { directUploadParams, UPLOAD_ERRORS, uploadResult } from "@/lib/core/uploads/schemas";
import { completeDirectUpload } from "@/lib/core/uploads/service";
import { errors as uploadsErrors } from "@/lib/core/uploads/errors";
import { sharedErrors } from "@/lib/kernel/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Complete a direct upload",
      description:
        "Reads the file the client sent, processes it exactly like `POST /api/upload/locker-media` (type from the bytes, re-encoded as WebP, metadata stripped, the locker-media quota), deletes the original and answers the stored upload: attach it to a post by its id. " +
        "Idempotent: completing again answers the same upload. 409 UPLOAD_NOT_RECEIVED while no file has arrived (send it and complete again); another user's upload is 404. No request body.",
      tags: ["Locker room"],
      auth: "bearer",
      feature: "posting",
      params: directUploadParams,
      rateLimit: "write",
      status: 201,
      response: uploadResult,
      errors: [
        ...UPLOAD_ERRORS,
        sharedErrors.NOT_FOUND,
        uploadsErrors.UPLOAD_QUOTA_EXCEEDED,
        uploadsErrors.UPLOAD_EXPIRED,
        uploadsErrors.UPLOAD_NOT_RECEIVED,
        uploadsErrors.UPLOAD_IN_PROGRESS,
      ],
    },
    ({ user, params }) => completeDirectUpload(db, user.id, params.uploadId),
  ),
});
