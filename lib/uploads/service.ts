import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { notFound } from "../http/errors";
import { log } from "../http/log";
import { storage, type Storage } from "../storage";
import { processImage, type ProcessedImage } from "./image";
import { UPLOAD_KINDS, type UploadKind } from "./kinds";

// Upload rules. Each upload is stored under a fresh key (`<prefix>/<owner>/<uuid>.webp`) and recorded as a
// MediaUpload row. Replacing an image (avatar, banner, binder cover):
//   1. process and store the new file (a bad upload fails here: the old image is untouched);
//   2. one transaction locks the owning row (FOR UPDATE), reads the current key, records the new upload and
//      points the row at it; concurrent replacements of one image therefore serialise, and each sees the key
//      the previous one wrote;
//   3. after the commit, the replaced file is deleted (only ours: a non-null key), then its MediaUpload row.
//      A failed delete is logged and does not fail the request; the replaced upload's row stays, so a cleanup
//      job can find it (a MediaUpload whose key no row references) and retry.
// If step 2 fails, the new file is deleted again (best effort).

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

async function store(kind: UploadKind, owner: string, image: ProcessedImage, files: Storage) {
  const key = `${UPLOAD_KINDS[kind].prefix}/${owner}/${randomUUID()}.webp`;
  const { url } = await files.put(key, image.bytes, image.contentType);
  return { key, url };
}

const recordOf = (userId: string, kind: UploadKind, key: string, url: string, image: ProcessedImage) => ({
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

const resultOf = (id: string, row: ReturnType<typeof recordOf>): UploadResult => ({
  id,
  key: row.key,
  url: row.url,
  thumbhash: row.thumbhash,
  width: row.width,
  height: row.height,
  contentType: row.contentType,
  bytes: row.bytes,
});

async function discard(files: Storage, key: string) {
  await files.delete(key).catch((error) => log("warn", { msg: "could not delete an unused upload", key, error: String(error) }));
}

/** Deletes a replaced file, then its MediaUpload row. Never throws. */
async function retire(db: Db, files: Storage, key: string) {
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
      await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
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
export async function assertOwnBinder(db: Db, userId: string, binderId: string): Promise<void> {
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
      const locked = await tx.$queryRaw<{ cover_key: string | null }[]>`
        SELECT cover_key FROM binders WHERE id = ${binderId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
      if (locked.length === 0) throw notFound("Binder"); // deleted meanwhile
      const { id } = await tx.mediaUpload.create({ data: row, select: { id: true } });
      await tx.binder.update({ where: { id: binderId }, data: { coverUrl: url, coverKey: key, coverThumbhash: image.thumbhash } });
      return { oldKey: locked[0]!.cover_key, id };
    });
  } catch (error) {
    await discard(files, key);
    throw error;
  }
  if (result.oldKey && result.oldKey !== key) await retire(db, files, result.oldKey);
  return { ...resultOf(result.id, row), binderId };
}

/** Stores an image for a later locker-room post; no other row changes. */
export async function storeLockerMedia(db: Db, userId: string, input: Uint8Array, files: Storage = storage()): Promise<UploadResult> {
  const image = await processImage(input, UPLOAD_KINDS["locker-media"]);
  const { key, url } = await store("locker-media", userId, image, files);
  const row = recordOf(userId, "locker-media", key, url, image);
  let id: string;
  try {
    ({ id } = await db.mediaUpload.create({ data: row, select: { id: true } }));
  } catch (error) {
    await discard(files, key);
    throw error;
  }
  return resultOf(id, row);
}
