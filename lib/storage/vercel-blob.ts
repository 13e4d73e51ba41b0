import { BlobNotFoundError, del, head, put } from "@vercel/blob";
import { generateClientTokenFromReadWriteToken } from "@vercel/blob/client";
import { assertValidKey } from "./keys";
import type { Storage } from "./types";

const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Vercel Blob (public store). Files are served by Vercel's CDN at the URL put() returns. */
export function createVercelBlobStorage(token: string): Storage {
  /** The blob's response (its body not yet read), size and type; null when missing. */
  async function fetchBlob(key: string) {
    assertValidKey(key);
    let meta;
    try {
      meta = await head(key, { token });
    } catch (error) {
      if (error instanceof BlobNotFoundError) return null;
      throw error;
    }
    const res = await fetch(meta.url, { cache: "no-store" });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`Vercel Blob answered ${res.status} for ${key}`);
    return { res, size: meta.size, contentType: meta.contentType };
  }

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
    async get(key) {
      const file = await fetchBlob(key);
      return file && { bytes: Buffer.from(await file.res.arrayBuffer()), contentType: file.contentType };
    },
    async open(key) {
      const file = await fetchBlob(key);
      if (!file?.res.body) return null;
      return { body: file.res.body, size: file.size, contentType: file.contentType };
    },
    clientUploadToken(pathname, { maxBytes, contentTypes, validUntil }) {
      assertValidKey(pathname);
      return generateClientTokenFromReadWriteToken({
        token,
        pathname,
        maximumSizeInBytes: maxBytes,
        allowedContentTypes: contentTypes,
        validUntil: validUntil.getTime(),
        addRandomSuffix: false,
        allowOverwrite: false,
      });
    },
  };
}
