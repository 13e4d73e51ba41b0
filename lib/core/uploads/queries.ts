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

/** Locks the user's binder for its cover's replacement, answering the cover's current key; undefined when there is no such binder. */
export async function lockBinderCover(tx: DbTx, userId: string, binderId: string): Promise<{ cover_key: string | null } | undefined> {
  const locked = await tx.$queryRaw<{ cover_key: string | null }[]>`
        SELECT cover_key FROM binders WHERE id = ${binderId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
  return locked[0];
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

// The uploads sweep's candidates (sweep.ts), each a batch of `take` walking (created_at, id) forward from `after`.

export interface SweepCandidate {
  id: string;
  key: string;
  createdAt: Date;
}

/** Pending locker media (never attached) created before `cutoff`, locked for the batch's transaction (SKIP LOCKED). */
export function lockPendingLockerMedia(tx: DbTx, cutoff: Date, after: { createdAt: Date; id: string }, take: number) {
  return tx.$queryRaw<SweepCandidate[]>`
          SELECT id::text AS id, key, created_at AS "createdAt" FROM media_uploads
          WHERE kind = 'locker-media' AND attached_at IS NULL AND created_at < ${cutoff}
            AND (created_at, id) > (${after.createdAt}, ${after.id}::uuid)
          ORDER BY created_at, id
          LIMIT ${take}
          FOR UPDATE SKIP LOCKED`;
}

/**
 * Replaced images (avatar, banner, binder cover) created before `cutoff` that no user or binder row references, locked
 * for the caller's transaction (SKIP LOCKED: a concurrent sweep takes other rows).
 */
export function lockUnreferencedImages(db: RawDb | DbTx, cutoff: Date, after: { createdAt: Date; id: string }, take: number) {
  return raw(db).$queryRaw<SweepCandidate[]>`
      SELECT m.id::text AS id, m.key, m.created_at AS "createdAt" FROM media_uploads m
      WHERE m.kind IN ('profile', 'banner', 'binder-cover') AND m.created_at < ${cutoff}
        AND (m.created_at, m.id) > (${after.createdAt}, ${after.id}::uuid)
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = m.user_id AND (u.avatar_key = m.key OR u.banner_key = m.key))
        AND NOT EXISTS (SELECT 1 FROM binders b WHERE b.user_id = m.user_id AND b.cover_key = m.key)
      ORDER BY m.created_at, m.id
      LIMIT ${take}
      FOR UPDATE OF m SKIP LOCKED`;
}

/**
 * Direct-upload grants whose window closed before `cutoff`, walked by expiry (their `createdAt` is the expiry), locked
 * for the caller's transaction (SKIP LOCKED: a concurrent sweep takes other rows).
 */
export function lockExpiredDirectUploads(db: RawDb | DbTx, cutoff: Date, after: { createdAt: Date; id: string }, take: number) {
  return raw(db).$queryRaw<SweepCandidate[]>`
      SELECT id::text AS id, pathname AS key, expires_at AS "createdAt" FROM direct_uploads -- walked by expiry (its index)
      WHERE expires_at < ${cutoff} AND (expires_at, id) > (${after.createdAt}, ${after.id}::uuid)
      ORDER BY expires_at, id
      LIMIT ${take}
      FOR UPDATE SKIP LOCKED`;
}
