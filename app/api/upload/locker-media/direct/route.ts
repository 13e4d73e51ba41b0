import { db } from "@/lib/db/client";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { DIRECT_UPLOAD_MAX_BYTES, DIRECT_UPLOAD_TTL_MS } from "@/lib/core/uploads/kinds";
import { directUploadGrant, directUploadStart } from "@/lib/core/uploads/schemas";
import { DIRECT_UPLOAD_OPEN_CAP, startDirectUpload } from "@/lib/core/uploads/service";
import { errors as uploadsErrors } from "@/lib/core/uploads/errors";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(
    {
      summary: "Start a direct upload of locker media",
      description:
        `For images too large for a request to this API (Vercel accepts 4.5 MB), up to ${DIRECT_UPLOAD_MAX_BYTES / (1024 * 1024)} MB: ` +
        "the file goes straight to storage, then POST completeUrl processes it like `POST /api/upload/locker-media` (same checks, re-encoding and quota) and answers the same upload. " +
        "Under Vercel Blob, send it with `@vercel/blob/client`: `put(pathname, file, { access: 'public', token: clientToken })`. With local storage, send the bytes as `upload` says (a PUT with the one-time token header). " +
        `The file must arrive within ${DIRECT_UPLOAD_TTL_MS / 60_000} minutes; at most ${DIRECT_UPLOAD_OPEN_CAP} direct uploads may be open at once, and the locker-media quota applies (429 UPLOAD_QUOTA_EXCEEDED).`,
      tags: ["Locker room"],
      auth: "bearer",
      feature: "posting",
      body: directUploadStart,
      rateLimit: "write",
      status: 201,
      response: directUploadGrant,
      errors: [uploadsErrors.UPLOAD_QUOTA_EXCEEDED],
    },
    ({ req, user, body }) => {
      // The URLs point back at the host the client called (Next's req.url names the host it listens on).
      const url = new URL(req.url);
      return startDirectUpload(db, user.id, body, `${url.protocol}//${req.headers.get("host") ?? url.host}`);
    },
  ),
});
