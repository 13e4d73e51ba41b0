import { BlobNotFoundError, del, put } from "@vercel/blob";
import { assertValidKey } from "./keys";
import type { Storage } from "./types";

const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Vercel Blob (public store). Files are served by Vercel's CDN at the URL put() returns. */
export function createVercelBlobStorage(token: string): Storage {
  return {
    driver: "vercel-blob",
    async put(key, bytes, contentType) {
      assertValidKey(key);
      const result = await put(key, Buffer.from(bytes), {
        access: "public",
        token,
        contentType,
        // Keys are already unique; never overwrite (a collision is a bug, not an update).
        addRandomSuffix: false,
        allowOverwrite: false,
        cacheControlMaxAge: ONE_YEAR_S,
      });
      return { url: result.url };
    },
    async delete(key) {
      assertValidKey(key);
      try {
        await del(key, { token });
      } catch (error) {
        if (!(error instanceof BlobNotFoundError)) throw error;
      }
    },
  };
}
