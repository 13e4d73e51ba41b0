import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import path from "node:path";
import { assertValidKey, contentTypeOfKey, isValidKey } from "./keys";
import type { Storage, StoredObject, StoredStream } from "./types";

/**
 * Files in a local directory, served back by the app at GET /files/{key} (app/files/[...key]/route.ts).
 * For development, tests and single-node deployments; serverless deployments use Vercel Blob.
 */
export function createLocalStorage(dir: string, publicBaseUrl = "/files"): Storage {
  // The directory is run-time configuration: turbopackIgnore keeps the build from tracing the whole project.
  const root = path.resolve(/*turbopackIgnore: true*/ dir);
  const base = publicBaseUrl.replace(/\/+$/, "");

  /** The absolute path of a key, or null when the key is invalid or would leave the directory. */
  const pathOf = (key: string): string | null => {
    if (!isValidKey(key)) return null;
    const full = path.resolve(root, ...key.split("/"));
    return full.startsWith(root + path.sep) ? full : null;
  };

  return {
    driver: "local",
    async put(key, bytes, _contentType) {
      assertValidKey(key);
      const full = pathOf(key)!;
      await mkdir(/*turbopackIgnore: true*/ path.dirname(full), { recursive: true });
      // Write then rename: a reader never sees a half-written file.
      const tmp = `${full}.${randomUUID()}.tmp`;
      await writeFile(/*turbopackIgnore: true*/ tmp, bytes, { flag: "wx" });
      await rename(/*turbopackIgnore: true*/ tmp, full);
      return { url: `${base}/${key}` };
    },
    async delete(key) {
      const full = pathOf(key);
      if (!full) throw new Error(`Invalid storage key: ${JSON.stringify(key.slice(0, 100))}`);
      try {
        await unlink(/*turbopackIgnore: true*/ full);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error; // already gone is fine
      }
    },
    async get(key): Promise<StoredObject | null> {
      const full = pathOf(key);
      if (!full) return null;
      try {
        // A symlink planted inside the directory must not lead outside it.
        const real = await realpath(/*turbopackIgnore: true*/ full);
        const realRoot = await realpath(/*turbopackIgnore: true*/ root);
        if (!real.startsWith(realRoot + path.sep)) return null;
        return { bytes: await readFile(/*turbopackIgnore: true*/ real), contentType: contentTypeOfKey(key) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
        throw error;
      }
    },
    async open(key): Promise<StoredStream | null> {
      const full = pathOf(key);
      if (!full) return null;
      try {
        // As get(): a symlink planted inside the directory must not lead outside it.
        const real = await realpath(/*turbopackIgnore: true*/ full);
        const realRoot = await realpath(/*turbopackIgnore: true*/ root);
        if (!real.startsWith(realRoot + path.sep)) return null;
        const { size } = await stat(/*turbopackIgnore: true*/ real);
        const body = Readable.toWeb(createReadStream(/*turbopackIgnore: true*/ real)) as ReadableStream<Uint8Array>;
        return { body, size, contentType: contentTypeOfKey(key) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
        throw error;
      }
    },
  };
}
