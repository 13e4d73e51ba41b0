import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { directUploadParams, UPLOAD_ERRORS, uploadResult } from "@/lib/uploads/schemas";
import { completeDirectUpload } from "@/lib/uploads/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Complete a direct upload",
      description:
        "Reads the file the client sent, processes it exactly like `POST /api/upload/locker-media` (type from the bytes, re-encoded as WebP, metadata stripped, the locker-media quota), deletes the original and answers the stored upload: attach it to a post by its id. " +
        "Idempotent: completing again answers the same upload. 409 UPLOAD_NOT_RECEIVED while no file has arrived (send it and complete again); another user's upload is 404. No request body.",
      tags: ["Locker room"],
      auth: "bearer",
      params: directUploadParams,
      rateLimit: "write",
      status: 201,
      response: uploadResult,
      errors: [...UPLOAD_ERRORS, "NOT_FOUND", "UPLOAD_QUOTA_EXCEEDED", "UPLOAD_EXPIRED", "UPLOAD_NOT_RECEIVED", "UPLOAD_IN_PROGRESS"],
    },
    ({ user, params }) => completeDirectUpload(db, user.id, params.uploadId),
  ),
});
