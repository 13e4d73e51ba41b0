import { readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../../env";
import { readBodyBytes } from "../../http/body";
import { FeedError, type FeedInput } from "./payload";

// Where the feed comes from. The engine only sees this interface; runSync validates whatever fetchFeed answers.

export interface FeedProvider {
  /** Owner name written to League/Team.source: a sync only ever modifies or archives rows of its own source. */
  name: string;
  fetchFeed(): Promise<FeedInput>;
}

export const DEFAULT_FEED_FILE = "lib/features/sync/fixtures/feed.json";

/** A JSON feed file in the repository (relative paths resolve from the working directory). Source "feed:fixture". */
export function fixtureProvider(file = env().SYNC_FEED_FILE ?? DEFAULT_FEED_FILE): FeedProvider {
  return {
    name: "feed:fixture",
    async fetchFeed() {
      const full = path.resolve(/* turbopackIgnore: true */ process.cwd(), file);
      let text: string;
      try {
        text = await readFile(full, "utf8");
      } catch (error) {
        throw new FeedError(`Feed file ${file} could not be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      try {
        return JSON.parse(text) as FeedInput;
      } catch {
        throw new FeedError(`Feed file ${file} is not valid JSON.`);
      }
    },
  };
}

/** Largest feed the HTTP provider reads; past it the download is abandoned. */
export const MAX_FEED_BYTES = 20 * 1024 * 1024;

const tooLarge = (limit: number) => new FeedError(`Feed is larger than ${limit} bytes; the download was stopped there.`);

/**
 * The response body through the size-limited reader requests use: past `limit` bytes the download is cancelled (the
 * connection closes) and a FeedError is thrown, whatever Content-Length claimed or when there is none (chunked,
 * endless). At most `limit` bytes plus one chunk are ever held.
 */
async function readFeedBody(res: Response, limit: number, abort: AbortController): Promise<Buffer> {
  const stop = () => {
    abort.abort();
    return tooLarge(limit);
  };
  if (Number(res.headers.get("content-length") ?? "0") > limit) throw stop();
  try {
    return await readBodyBytes(res, limit, stop);
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedError(`Feed download failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The provider's HTTP feed (GET, JSON, optional Bearer token, time and size limits). Source "feed:http". */
export function httpProvider(url: string, token?: string, timeoutMs = 15_000, maxBytes = MAX_FEED_BYTES): FeedProvider {
  return {
    name: "feed:http",
    async fetchFeed() {
      const abort = new AbortController();
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          signal: AbortSignal.any([abort.signal, AbortSignal.timeout(timeoutMs)]),
          redirect: "error",
        });
      } catch (error) {
        throw new FeedError(`Feed request failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new FeedError(`Feed answered HTTP ${res.status}.`);
      }
      const bytes = await readFeedBody(res, maxBytes, abort);
      try {
        return JSON.parse(bytes.toString("utf8")) as FeedInput;
      } catch {
        throw new FeedError("Feed is not valid JSON.");
      }
    },
  };
}

/** SYNC_FEED_URL when set, else the fixture file SYNC_FEED_FILE (default lib/features/sync/fixtures/feed.json). */
export function defaultProvider(): FeedProvider {
  const e = env();
  return e.SYNC_FEED_URL ? httpProvider(e.SYNC_FEED_URL, e.SYNC_FEED_TOKEN) : fixtureProvider(e.SYNC_FEED_FILE);
}
