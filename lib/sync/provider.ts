import { readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";
import { FeedError, type FeedInput } from "./feed";

// Where the feed comes from. The engine only sees this interface; runSync validates whatever fetchFeed answers.

export interface FeedProvider {
  /** Owner name written to League/Team.source: a sync only ever modifies or archives rows of its own source. */
  name: string;
  fetchFeed(): Promise<FeedInput>;
}

export const DEFAULT_FEED_FILE = "lib/sync/fixtures/feed.json";

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

const MAX_FEED_BYTES = 20 * 1024 * 1024;

/** The provider's HTTP feed (GET, JSON, optional Bearer token, time and size limits). Source "feed:http". */
export function httpProvider(url: string, token?: string, timeoutMs = 15_000): FeedProvider {
  return {
    name: "feed:http",
    async fetchFeed() {
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          signal: AbortSignal.timeout(timeoutMs),
          redirect: "error",
        });
      } catch (error) {
        throw new FeedError(`Feed request failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!res.ok) throw new FeedError(`Feed answered HTTP ${res.status}.`);
      const declared = Number(res.headers.get("content-length") ?? "0");
      if (declared > MAX_FEED_BYTES) throw new FeedError(`Feed is larger than ${MAX_FEED_BYTES} bytes.`);
      const text = await res.text();
      if (Buffer.byteLength(text) > MAX_FEED_BYTES) throw new FeedError(`Feed is larger than ${MAX_FEED_BYTES} bytes.`);
      try {
        return JSON.parse(text) as FeedInput;
      } catch {
        throw new FeedError("Feed is not valid JSON.");
      }
    },
  };
}

/** SYNC_FEED_URL when set, else the fixture file SYNC_FEED_FILE (default lib/sync/fixtures/feed.json). */
export function defaultProvider(): FeedProvider {
  const e = env();
  return e.SYNC_FEED_URL ? httpProvider(e.SYNC_FEED_URL, e.SYNC_FEED_TOKEN) : fixtureProvider(e.SYNC_FEED_FILE);
}
