import { z } from "zod";
import { DIRECT_UPLOAD_MAX_BYTES, DIRECT_UPLOAD_TTL_MS, DIRECT_UPLOAD_TYPES, UPLOAD_KINDS, type UploadKind } from "./kinds";
import { sharedErrors } from "../../kernel/errors";
import { errors as uploadsErrors } from "./errors";

export const uploadResult = z.object({
  id: z.string().meta({ description: "MediaUpload id of the stored image." }),
  url: z.string().meta({ description: "Where the stored image is served (Vercel Blob URL, or /files/{key} for local storage)." }),
  thumbhash: z.string().meta({ description: "ThumbHash of the image, base64: a blurred placeholder while it loads." }),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  contentType: z.string().meta({ description: "Always image/webp: every upload is re-encoded." }),
  bytes: z.number().int().positive().meta({ description: "Size of the stored (re-encoded) file." }),
});

export const binderCoverResult = uploadResult.extend({ binderId: z.string() });

export const binderIdField = z.uuid("binderId must be a binder id (UUID)");

const mb = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

export function describeKind(kind: UploadKind): string {
  const k = UPLOAD_KINDS[kind];
  const shape =
    k.fit === "cover" ? `centre-cropped to a square of at most ${k.width}×${k.height}` : `resized to fit within ${k.width}×${k.height} (never enlarged)`;
  return (
    `multipart/form-data with the image in \`file\` (at most ${mb(k.maxBytes)}). The type is read from the bytes: ` +
    "JPEG, PNG, WebP, GIF (first frame) or AVIF; SVG and everything else is 415 UNSUPPORTED_MEDIA_TYPE; a truncated or corrupt " +
    `image is 422 INVALID_IMAGE. The image is auto-rotated, stripped of metadata, ${shape} and re-encoded as WebP.`
  );
}

/** OpenAPI request body of an upload route (the pipeline only documents JSON bodies). */
export function multipartBody(kind: UploadKind, extra: Record<string, unknown> = {}) {
  const required = ["file", ...Object.keys(extra)];
  return {
    required: true,
    description: describeKind(kind),
    content: {
      "multipart/form-data": {
        schema: {
          type: "object",
          required,
          properties: {
            file: {
              type: "string",
              format: "binary",
              contentMediaType: "application/octet-stream",
              description: `The image, at most ${UPLOAD_KINDS[kind].maxBytes} bytes.`,
            },
            ...extra,
          },
        },
        encoding: { file: { contentType: "image/jpeg, image/png, image/webp, image/gif, image/avif" } },
      },
    },
  };
}

export const sweepResult = z
  .object({
    deleted: z.number().int().nonnegative().meta({ description: "Uploads deleted (file, then record)." }),
    failed: z.number().int().nonnegative().meta({ description: "Uploads whose file could not be deleted; their records stay for the next sweep." }),
  })
  .meta({ id: "UploadsSweepResult" });

export const UPLOAD_ERRORS = [sharedErrors.VALIDATION_ERROR, sharedErrors.PAYLOAD_TOO_LARGE, uploadsErrors.UNSUPPORTED_MEDIA_TYPE, uploadsErrors.INVALID_IMAGE];

export const directUploadStart = z.strictObject({
  contentType: z.enum(DIRECT_UPLOAD_TYPES).meta({ description: "The file's type. The bytes are checked again when the upload completes." }),
  bytes: z
    .number()
    .int()
    .positive()
    .max(DIRECT_UPLOAD_MAX_BYTES, `bytes must be at most ${DIRECT_UPLOAD_MAX_BYTES} (${DIRECT_UPLOAD_MAX_BYTES / (1024 * 1024)} MB)`)
    .meta({ description: `The file's exact size; the upload accepts at most this many bytes (at most ${DIRECT_UPLOAD_MAX_BYTES}).` }),
});

export const directUploadGrant = z.object({
  id: z.uuid().meta({ description: "The direct upload; complete it at completeUrl once the file is sent." }),
  driver: z.enum(["local", "vercel-blob"]).meta({ description: "Where the file goes: Vercel Blob, or this server's local storage." }),
  pathname: z.string().meta({ description: "Vercel Blob: the pathname to pass to @vercel/blob/client's put()." }),
  maxBytes: z.number().int().positive(),
  expiresAt: z.iso.datetime().meta({ description: `The file must be sent before this (${DIRECT_UPLOAD_TTL_MS / 60_000} minutes).` }),
  clientToken: z.string().meta({
    description:
      "Vercel Blob: the client token for put(pathname, file, { access: 'public', token }). Local: the one-time token the PUT carries (already in upload.headers).",
  }),
  upload: z
    .object({
      method: z.literal("PUT"),
      url: z.string(),
      headers: z.record(z.string(), z.string()),
    })
    .nullable()
    .meta({ description: "Local driver: send the file's bytes as the body of this request. Null under Vercel Blob (its SDK sends the file)." }),
  completeUrl: z.string().meta({ description: "POST here (signed in) once the file is sent." }),
});

export const directUploadParams = z.object({ uploadId: z.uuid("uploadId must be a direct upload id (UUID)") });

export const directUploadReceived = z.object({ received: z.number().int().positive().meta({ description: "Bytes stored." }) });
