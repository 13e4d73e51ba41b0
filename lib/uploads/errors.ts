// Error codes of uploads and the image proxy (merged into the one catalogue in lib/http/errors.ts).
export const errors = {
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
} as const;
