import { Prisma } from "../../generated/prisma/client";
import type { DbTx } from "../../db/client";
import { raw, type RawDb } from "../../db/raw";
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

export const resultOf = (id: string, row: Omit<ReturnType<typeof recordOf>, "kind" | "contentType"> & { contentType: string }): UploadResult => ({
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

export interface DirectUploadRow {
  id: string;
  userId: string;
  pathname: string;
  maxBytes: number;
  tokenHash: string | null;
  expiresAt: Date;
  completedAt: Date | null;
  uploadId: string | null;
}

const DIRECT_COLUMNS = Prisma.sql`id::text AS id, user_id::text AS "userId", pathname, max_bytes AS "maxBytes", token_hash AS "tokenHash",
  expires_at AS "expiresAt", completed_at AS "completedAt", upload_id::text AS "uploadId"`;

export const insertDirectUpload = (
  q: RawDb | DbTx,
  r: { id: string; userId: string; kind: string; pathname: string; maxBytes: number; tokenHash: string | null; expiresAt: Date },
) =>
  raw(q).$executeRaw`
    INSERT INTO direct_uploads (id, user_id, kind, pathname, max_bytes, token_hash, expires_at)
    VALUES (${r.id}::uuid, ${r.userId}::uuid, ${r.kind}, ${r.pathname}, ${r.maxBytes}, ${r.tokenHash}, ${r.expiresAt})`;

/** The user's direct uploads neither completed nor expired. */
export async function openDirectUploads(q: RawDb | DbTx, userId: string, now: Date): Promise<number> {
  const [row] = await raw(q).$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM direct_uploads
    WHERE user_id = ${userId}::uuid AND completed_at IS NULL AND expires_at > ${now}`;
  return row!.n;
}

export async function directUploadOf(q: RawDb | DbTx, id: string): Promise<DirectUploadRow | null> {
  const rows = await raw(q).$queryRaw<DirectUploadRow[]>`SELECT ${DIRECT_COLUMNS} FROM direct_uploads WHERE id = ${id}::uuid`;
  return rows[0] ?? null;
}

/** Marks the user's grant as being completed, unless it is already or its window (plus grace) closed before `openSince`. */
export async function claimDirectUpload(q: RawDb | DbTx, userId: string, id: string, openSince: Date): Promise<DirectUploadRow | null> {
  const rows = await raw(q).$queryRaw<DirectUploadRow[]>`
    UPDATE direct_uploads SET completed_at = now()
    WHERE id = ${id}::uuid AND user_id = ${userId}::uuid AND completed_at IS NULL AND expires_at > ${openSince}
    RETURNING ${DIRECT_COLUMNS}`;
  return rows[0] ?? null;
}

export const releaseDirectUpload = (q: RawDb | DbTx, id: string) =>
  raw(q).$executeRaw`UPDATE direct_uploads SET completed_at = NULL WHERE id = ${id}::uuid AND upload_id IS NULL`;

export const setDirectUploadResult = (q: RawDb | DbTx, id: string, uploadId: string) =>
  raw(q).$executeRaw`UPDATE direct_uploads SET upload_id = ${uploadId}::uuid WHERE id = ${id}::uuid`;

/** A stored upload's answer, by id (a completed direct upload asked again). */
export async function uploadResultById(q: DbTx, id: string): Promise<UploadResult | null> {
  const row = await q.mediaUpload.findUnique({ where: { id } });
  return row ? resultOf(row.id, row) : null;
}
