import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { uuidv7 } from "../../db/ids";
import type { Db, DbTx } from "../../db/client";
import { lockUser, txOptions } from "../../db/tx";
import { DomainError, notFound, sharedErrors } from "../../kernel/errors";
import { log } from "../../kernel/log";
import { storage, type Storage } from "../../storage";
import { processImage, type ProcessedImage } from "./image";
import {
  DIRECT_UPLOAD_TTL_MS,
  INCOMING_PREFIX,
  LOCKER_MEDIA_BYTES_WINDOW_MS,
  LOCKER_MEDIA_DAILY_BYTES,
  LOCKER_MEDIA_GRACE_MS,
  LOCKER_MEDIA_PENDING_CAP,
  UPLOAD_KINDS,
  type UploadKind,
} from "./kinds";
import {
  claimDirectUpload,
  directUploadOf,
  insertDirectUpload,
  lockBinderCover,
  lockerMediaUsage,
  openDirectUploads,
  recordOf,
  releaseDirectUpload,
  resultOf,
  setDirectUploadResult,
  uploadResultById,
  type UploadResult,
} from "./queries";
import { errors as uploadsErrors } from "./errors";

// Upload rules. Each upload is stored under a fresh key (`<prefix>/<owner>/<uuid>.webp`) and recorded as a
// MediaUpload row. Replacing an image (avatar, banner, binder cover):
//   1. process and store the new file (a bad upload fails here: the old image is untouched);
//   2. one transaction locks the owning row (FOR UPDATE), reads the current key, records the new upload and
//      points the row at it; concurrent replacements of one image therefore serialise, and each sees the key
//      the previous one wrote;
//   3. after the commit, the replaced file is deleted (only ours: a non-null key), then its MediaUpload row.
//      A failed delete is logged and does not fail the request; the replaced upload's row stays, and the uploads
//      sweep (lib/core/uploads/sweep.ts) finds it later (a MediaUpload whose key no row references) and retries.
// If step 2 fails, the new file is deleted again (best effort).
//
// Locker media (images for locker-room posts) is "pending" until a post attaches it (attached_at). Pending uploads
// are capped per user, uploads per rolling day are capped in bytes, and pending uploads older than the grace
// period are deleted by the sweep. See storeLockerMedia and attachLockerMedia.

async function store(kind: UploadKind, owner: string, image: ProcessedImage, files: Storage) {
  const key = `${UPLOAD_KINDS[kind].prefix}/${owner}/${randomUUID()}.webp`;
  const { url } = await files.put(key, image.bytes, image.contentType);
  return { key, url };
}

async function discard(files: Storage, key: string) {
  await files.delete(key).catch((error) => log("warn", { msg: "could not delete an unused upload", key, error: String(error) }));
}

/** Deletes a replaced file, then its MediaUpload row. Never throws. */
async function retire(db: DbTx, files: Storage, key: string) {
  try {
    await files.delete(key);
  } catch (error) {
    log("warn", { msg: "could not delete a replaced upload; left for cleanup", key, error: String(error) });
    return;
  }
  await db.mediaUpload
    .deleteMany({ where: { key } })
    .catch((error) => log("warn", { msg: "could not delete a replaced upload's record", key, error: String(error) }));
}

/** Replaces the caller's avatar (kind "profile") or banner. */
export async function replaceUserImage(
  db: Db,
  userId: string,
  slot: "avatar" | "banner",
  input: Uint8Array,
  files: Storage = storage(),
): Promise<UploadResult> {
  const kind: UploadKind = slot === "avatar" ? "profile" : "banner";
  const image = await processImage(input, UPLOAD_KINDS[kind]);
  const { key, url } = await store(kind, userId, image, files);
  const row = recordOf(userId, kind, key, url, image);
  let result: { oldKey: string | null; id: string };
  try {
    result = await db.$transaction(async (tx) => {
      await lockUser(tx, userId);
      const current = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { avatarKey: true, bannerKey: true } });
      const { id } = await tx.mediaUpload.create({ data: row, select: { id: true } });
      await tx.user.update({
        where: { id: userId },
        data:
          slot === "avatar"
            ? { avatarUrl: url, avatarKey: key, avatarThumbhash: image.thumbhash }
            : { bannerUrl: url, bannerKey: key, bannerThumbhash: image.thumbhash },
      });
      return { oldKey: slot === "avatar" ? current.avatarKey : current.bannerKey, id };
    });
  } catch (error) {
    await discard(files, key);
    throw error;
  }
  if (result.oldKey && result.oldKey !== key) await retire(db, files, result.oldKey);
  return resultOf(result.id, row);
}

/** The binder if it belongs to the caller; 404 otherwise (another user's binder is not revealed). */
export async function assertOwnBinder(db: DbTx, userId: string, binderId: string): Promise<void> {
  const binder = await db.binder.findFirst({ where: { id: binderId, userId }, select: { id: true } });
  if (!binder) throw notFound("Binder");
}

/** Replaces the cover of one of the caller's binders. */
export async function replaceBinderCover(
  db: Db,
  userId: string,
  binderId: string,
  input: Uint8Array,
  files: Storage = storage(),
): Promise<UploadResult & { binderId: string }> {
  await assertOwnBinder(db, userId, binderId);
  const image = await processImage(input, UPLOAD_KINDS["binder-cover"]);
  const { key, url } = await store("binder-cover", userId, image, files);
  const row = recordOf(userId, "binder-cover", key, url, image);
  let result: { oldKey: string | null; id: string };
  try {
    result = await db.$transaction(async (tx) => {
      const locked = await lockBinderCover(tx, userId, binderId);
      if (!locked) throw notFound("Binder"); // deleted meanwhile
      const { id } = await tx.mediaUpload.create({ data: row, select: { id: true } });
      await tx.binder.update({ where: { id: binderId }, data: { coverUrl: url, coverKey: key, coverThumbhash: image.thumbhash } });
      return { oldKey: locked.cover_key, id };
    });
  } catch (error) {
    await discard(files, key);
    throw error;
  }
  if (result.oldKey && result.oldKey !== key) await retire(db, files, result.oldKey);
  return { ...resultOf(result.id, row), binderId };
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * Refuses (429 UPLOAD_QUOTA_EXCEEDED) when the user already holds LOCKER_MEDIA_PENDING_CAP pending locker-media
 * uploads, or when `incoming` more bytes would pass LOCKER_MEDIA_DAILY_BYTES over the last 24 hours.
 */
async function assertLockerQuota(q: DbTx, userId: string, incoming: number, now: Date) {
  const { pending, recentBytes } = await lockerMediaUsage(q, userId, new Date(now.getTime() - LOCKER_MEDIA_BYTES_WINDOW_MS));
  if (pending >= LOCKER_MEDIA_PENDING_CAP) {
    throw new DomainError(
      uploadsErrors.UPLOAD_QUOTA_EXCEEDED,
      `You already have ${LOCKER_MEDIA_PENDING_CAP} locker-room uploads that no post uses yet. Post them, or wait: unused uploads are deleted after ${LOCKER_MEDIA_GRACE_MS / 3_600_000} h.`,
    );
  }
  if (recentBytes + incoming > LOCKER_MEDIA_DAILY_BYTES) {
    throw new DomainError(
      uploadsErrors.UPLOAD_QUOTA_EXCEEDED,
      `Locker-room uploads are limited to ${mb(LOCKER_MEDIA_DAILY_BYTES)} per 24 hours; try again later.`,
    );
  }
}

/**
 * Stores an image for a later locker-room post; no other row changes. The quota is checked before anything is
 * decoded or stored (a cheap refusal), then again, with the stored size, in the transaction that records the
 * upload under a lock of the user's row: concurrent uploads of one user serialise there, so the cap holds. If that
 * final check refuses, the file just stored is deleted again.
 */
export async function storeLockerMedia(db: Db, userId: string, input: Uint8Array, files: Storage = storage()): Promise<UploadResult> {
  await assertLockerQuota(db, userId, 1, new Date());
  const image = await processImage(input, UPLOAD_KINDS["locker-media"]);
  const { key, url } = await store("locker-media", userId, image, files);
  const row = recordOf(userId, "locker-media", key, url, image);
  let id: string;
  try {
    ({ id } = await db.$transaction(async (tx) => {
      await lockUser(tx, userId);
      await assertLockerQuota(tx, userId, row.bytes, new Date());
      return tx.mediaUpload.create({ data: row, select: { id: true } });
    }, txOptions()));
  } catch (error) {
    await discard(files, key);
    throw error;
  }
  return resultOf(id, row);
}

/**
 * For locker-room posts (not built yet): inside the post's transaction, marks the author's pending locker-media
 * uploads as used (attached_at), so they leave the pending quota and the sweep never deletes them. Answers the ids
 * attached; an id that is not the author's, not locker media, already attached, or older than the grace period
 * (expired: the sweep deletes it) is left out, and the caller decides whether that refuses the post. Ids must be
 * UUIDs (validate them first). The sweep holds row locks (FOR UPDATE) on what it deletes, so an attach either
 * commits first (and the sweep skips the row) or waits and finds the row gone.
 */
export async function attachLockerMedia(tx: DbTx, userId: string, ids: string[], now = new Date()): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.mediaUpload.updateManyAndReturn({
    where: {
      id: { in: ids },
      userId,
      kind: "locker-media",
      attachedAt: null,
      createdAt: { gt: new Date(now.getTime() - LOCKER_MEDIA_GRACE_MS) },
    },
    data: { attachedAt: now },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

// Direct uploads (locker media larger than a function's 4.5 MB request body on Vercel, or any size, from clients
// that prefer it): 1. start: the server records a grant for one file at `incoming/locker-media/<user>/<id>` and
// answers how to send it: Vercel Blob's client token (the client calls @vercel/blob/client's put(pathname, file,
// { access: "public", token })), or, with the local driver, a PUT to this app with a one-time token; 2. the client
// sends the file straight to storage; 3. complete: the server reads the original back, processes it exactly like a
// multipart upload (type check, re-encode, strip metadata, quota), records the MediaUpload and deletes the original.
// Completing twice answers the same upload. Grants nobody completed are deleted by the uploads sweep.

/** Open (neither completed nor expired) direct uploads one user may hold at once. */
export const DIRECT_UPLOAD_OPEN_CAP = 5;
/** A grant may be completed until this long after its upload window closed (a slow network finishing). */
export const DIRECT_UPLOAD_COMPLETE_GRACE_MS = 60 * 60 * 1000;
export const DIRECT_UPLOAD_TOKEN_HEADER = "X-Upload-Token";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

export interface DirectUploadGrant {
  id: string;
  driver: Storage["driver"];
  pathname: string;
  maxBytes: number;
  expiresAt: string;
  /** Vercel Blob: the client token for put(); local: the token the PUT must carry in X-Upload-Token. */
  clientToken: string;
  /** Local driver: how to send the file; null under Vercel Blob (its SDK knows). */
  upload: { method: "PUT"; url: string; headers: Record<string, string> } | null;
  completeUrl: string;
}

export async function startDirectUpload(
  db: DbTx,
  userId: string,
  { contentType, bytes }: { contentType: string; bytes: number },
  origin: string,
  files: Storage = storage(),
  now = new Date(),
): Promise<DirectUploadGrant> {
  await assertLockerQuota(db, userId, 1, now);
  if ((await openDirectUploads(db, userId, now)) >= DIRECT_UPLOAD_OPEN_CAP) {
    throw new DomainError(
      uploadsErrors.UPLOAD_QUOTA_EXCEEDED,
      `At most ${DIRECT_UPLOAD_OPEN_CAP} direct uploads may be open at once: complete one, or wait until it expires.`,
    );
  }
  const id = uuidv7(now.getTime());
  const pathname = `${INCOMING_PREFIX}/locker-media/${userId}/${id}`;
  const expiresAt = new Date(now.getTime() + DIRECT_UPLOAD_TTL_MS);
  const localToken = files.clientUploadToken ? null : randomBytes(32).toString("base64url");
  const clientToken = files.clientUploadToken
    ? await files.clientUploadToken(pathname, { maxBytes: bytes, contentTypes: [contentType], validUntil: expiresAt })
    : localToken!;
  await insertDirectUpload(db, { id, userId, kind: "locker-media", pathname, maxBytes: bytes, tokenHash: localToken && sha256(localToken), expiresAt });
  const url = `${origin}/api/upload/locker-media/direct/${id}`;
  return {
    id,
    driver: files.driver,
    pathname,
    maxBytes: bytes,
    expiresAt: expiresAt.toISOString(),
    clientToken,
    upload: localToken ? { method: "PUT", url, headers: { [DIRECT_UPLOAD_TOKEN_HEADER]: localToken, "Content-Type": contentType } } : null,
    completeUrl: `${url}/complete`,
  };
}

/**
 * The local driver's upload step, before the body is read: the grant the token opens (404 for a wrong id or token,
 * and under Vercel Blob, where files never come through the app), still in its window (410) and not completed (409).
 */
export async function openDirectUpload(db: DbTx, id: string, token: string | null, files: Storage = storage(), now = new Date()) {
  const grant = await directUploadOf(db, id);
  const expected = grant?.tokenHash ? Buffer.from(grant.tokenHash, "hex") : null;
  const given = Buffer.from(sha256(token ?? ""), "hex");
  if (!grant || !expected || !token || files.clientUploadToken || !timingSafeEqual(expected, given)) throw notFound("Direct upload");
  if (grant.completedAt)
    throw new DomainError(uploadsErrors.UPLOAD_ALREADY_COMPLETED, "This direct upload was completed; start a new one to send another file.");
  if (grant.expiresAt <= now) throw new DomainError(uploadsErrors.UPLOAD_EXPIRED, "The upload window closed; start a new direct upload.");
  return grant;
}

/** Stores the original a local-driver client sent (a retry before completion replaces it). */
export async function storeDirectOriginal(grant: { pathname: string }, bytes: Uint8Array, files: Storage = storage()) {
  if (bytes.byteLength === 0)
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "The body is empty: send the file's bytes.", [{ path: "body", message: "Empty" }]);
  await files.put(grant.pathname, bytes, "application/octet-stream");
  return { received: bytes.byteLength };
}

/**
 * Completes the caller's direct upload: claims it (one completion at a time), reads the original, stores it as a
 * locker-media upload like the multipart route does, and deletes the original. Idempotent: a completed grant answers
 * its upload again. A failure releases the claim, so the client can fix the cause (send the file) and retry.
 */
export async function completeDirectUpload(db: Db, userId: string, id: string, files: Storage = storage(), now = new Date()): Promise<UploadResult> {
  const claimed = await claimDirectUpload(db, userId, id, new Date(now.getTime() - DIRECT_UPLOAD_COMPLETE_GRACE_MS));
  if (!claimed) {
    const grant = await directUploadOf(db, id);
    if (!grant || grant.userId !== userId) throw notFound("Direct upload");
    if (grant.uploadId) {
      const done = await uploadResultById(db, grant.uploadId);
      if (done) return done;
      throw new DomainError(uploadsErrors.UPLOAD_EXPIRED, "This direct upload was completed, but its image has since been deleted (never used by a post).");
    }
    if (grant.completedAt)
      throw new DomainError(uploadsErrors.UPLOAD_IN_PROGRESS, "This direct upload is being completed by another request; retry in a moment.");
    throw new DomainError(uploadsErrors.UPLOAD_EXPIRED, "The upload window closed; start a new direct upload.");
  }
  let result: UploadResult;
  try {
    const original = await files.get(claimed.pathname);
    if (!original) throw new DomainError(uploadsErrors.UPLOAD_NOT_RECEIVED, "No file has arrived for this direct upload yet: send it, then complete again.");
    if (original.bytes.byteLength > claimed.maxBytes) {
      throw new DomainError(sharedErrors.PAYLOAD_TOO_LARGE, `The file is larger than the ${claimed.maxBytes} bytes declared when the upload started.`);
    }
    result = await storeLockerMedia(db, userId, original.bytes, files);
  } catch (error) {
    await releaseDirectUpload(db, id);
    throw error;
  }
  await setDirectUploadResult(db, id, result.id);
  await discard(files, claimed.pathname);
  return result;
}
