// Per-kind limits. Input limits are on the uploaded file; every image is re-encoded to WebP within the bounds.

export type UploadKind = "profile" | "banner" | "binder-cover" | "locker-media";

export interface KindSpec {
  /** Largest accepted file, bytes. */
  maxBytes: number;
  /** "cover": centre-cropped square of at most `width` (never enlarged); "inside": fits within width×height. */
  fit: "cover" | "inside";
  width: number;
  height: number;
  /** First segment of the storage key. */
  prefix: string;
  quality: number;
}

const MB = 1024 * 1024;

export const UPLOAD_KINDS: Record<UploadKind, KindSpec> = {
  profile: { maxBytes: 5 * MB, fit: "cover", width: 512, height: 512, prefix: "avatars", quality: 82 },
  banner: { maxBytes: 8 * MB, fit: "inside", width: 1500, height: 500, prefix: "banners", quality: 82 },
  "binder-cover": { maxBytes: 8 * MB, fit: "inside", width: 1200, height: 1200, prefix: "binder-covers", quality: 82 },
  "locker-media": { maxBytes: 10 * MB, fit: "inside", width: 2048, height: 2048, prefix: "locker-media", quality: 82 },
};

/** Decoding bombs: more pixels than this are refused before decoding (a 48 MP phone photo still fits). */
export const MAX_INPUT_PIXELS = 50_000_000;

// Locker-media quota and lifetime. An upload is "pending" until a post attaches it (media_uploads.attached_at).
/** Pending (not yet attached) locker-media uploads one user may hold at once. */
export const LOCKER_MEDIA_PENDING_CAP = 20;
/** Stored (re-encoded) locker-media bytes one user may upload per rolling 24 hours, attached or not. */
export const LOCKER_MEDIA_DAILY_BYTES = 100 * MB;
export const LOCKER_MEDIA_BYTES_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Pending locker-media older than this is deleted by the uploads sweep (GET /api/cron/uploads-sweep). */
export const LOCKER_MEDIA_GRACE_MS = 24 * 60 * 60 * 1000;

// Direct uploads of locker media (straight to storage, then completed: lib/core/uploads/service.ts).
/** Largest original a direct upload accepts (a function's request body is capped at 4.5 MB on Vercel). */
export const DIRECT_UPLOAD_MAX_BYTES = 25 * MB;
/** How long a client has to send the file once it got its token. */
export const DIRECT_UPLOAD_TTL_MS = 15 * 60 * 1000;
/** The types a direct upload may declare (the bytes are checked again when it completes). */
export const DIRECT_UPLOAD_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"] as const;
/** Where originals wait to be processed: first segment of their storage key; never served by /files. */
export const INCOMING_PREFIX = "incoming";
