import { defineErrors } from "../../kernel/errors";

// Error codes of uploads and the image proxy (thrown by its services, listed on its routes; the shared codes are sharedErrors in lib/kernel/errors.ts).
export const errors = defineErrors({
  URL_NOT_ALLOWED: {
    status: 400,
    description: "The image proxy may not fetch this URL (not https, credentials, host not allow-listed, or a private/reserved address).",
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: "The uploaded file is not an accepted image type (checked from its bytes)." },
  INVALID_IMAGE: { status: 422, description: "The uploaded file could not be decoded as an image (truncated or corrupt)." },
  UPLOAD_QUOTA_EXCEEDED: {
    status: 429,
    description: "An upload quota is used up: too many uploads not yet attached to a post, or too many bytes uploaded in the last 24 hours.",
  },
  UPLOAD_EXPIRED: { status: 410, description: "The direct upload's window closed (or its unused image was deleted); start a new one." },
  UPLOAD_NOT_RECEIVED: { status: 409, description: "Completing a direct upload whose file has not arrived in storage: send the file, then complete again." },
  UPLOAD_IN_PROGRESS: { status: 409, description: "Another request is completing this direct upload right now; retry in a moment." },
  UPLOAD_ALREADY_COMPLETED: { status: 409, description: "The direct upload was completed; start a new one to send another file." },
});
