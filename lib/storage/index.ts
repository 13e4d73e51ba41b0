import { env } from "../env";
import { createLocalStorage } from "./local";
import type { Storage } from "./types";
import { createVercelBlobStorage } from "./vercel-blob";

export type { Storage, StoredObject, StoredStream } from "./types";
export { contentTypeOfKey, isValidKey } from "./keys";

let cached: Storage | undefined;

/** The process's storage driver: Vercel Blob when BLOB_READ_WRITE_TOKEN is set, else the local directory. */
export function storage(): Storage {
  if (cached) return cached;
  const e = env();
  cached = e.BLOB_READ_WRITE_TOKEN ? createVercelBlobStorage(e.BLOB_READ_WRITE_TOKEN) : createLocalStorage(e.UPLOAD_DIR, e.UPLOAD_PUBLIC_BASE_URL ?? "/files");
  return cached;
}
