import type { DbTx } from "../db/client";
import type { ProcessedImage } from "./image";
import type { UploadKind } from "./kinds";

// The media_uploads rows an upload writes, the answer built from them, and the reads the quotas count.

export interface UploadResult {
  id: string;
  key: string;
  url: string;
  thumbhash: string;
  width: number;
  height: number;
  contentType: string;
  bytes: number;
}

export const recordOf = (userId: string, kind: UploadKind, key: string, url: string, image: ProcessedImage) => ({
  userId,
  kind,
  key,
  url,
  contentType: image.contentType,
  bytes: image.bytes.byteLength,
  width: image.width,
  height: image.height,
  thumbhash: image.thumbhash,
});

export const resultOf = (id: string, row: ReturnType<typeof recordOf>): UploadResult => ({
  id,
  key: row.key,
  url: row.url,
  thumbhash: row.thumbhash,
  width: row.width,
  height: row.height,
  contentType: row.contentType,
  bytes: row.bytes,
});

/** The user's pending (unattached) locker media, and the bytes of locker media uploaded since `since`. */
export async function lockerMediaUsage(q: DbTx, userId: string, since: Date) {
  const [pending, recent] = await Promise.all([
    q.mediaUpload.count({ where: { userId, kind: "locker-media", attachedAt: null } }),
    q.mediaUpload.aggregate({ where: { userId, kind: "locker-media", createdAt: { gt: since } }, _sum: { bytes: true } }),
  ]);
  return { pending, recentBytes: recent._sum.bytes ?? 0 };
}
