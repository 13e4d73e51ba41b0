import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { parseFeed } from "../../lib/features/sync/payload";
import { fixtureProvider, httpProvider } from "../../lib/features/sync/provider";
import { runSync } from "../../lib/features/sync/service";
import { baseFeed, counts, db, diff, expectAllUnchanged, scratchDatabase, snapshot } from "./sync-fixtures";

// The sync engine's feeds on a scratch database: the repository's fixture feeds, and the HTTP feed's size limit while
// streaming.

scratchDatabase();

describe("fixture feeds", () => {
  it("the repository's feed files are valid; the black-box feed only has archived rows of its own league", async () => {
    parseFeed(await fixtureProvider("lib/features/sync/fixtures/feed.json").fetchFeed());
    const bb = parseFeed(await fixtureProvider("lib/features/sync/fixtures/blackbox.json").fetchFeed());
    expect(bb.leagues.every((l) => l.status === "inactive")).toBe(true);
    expect(bb.teams.every((t) => t.status === "inactive")).toBe(true);
    expect(bb.games).toEqual([]);
  });

  it("the dev feed syncs and re-syncs cleanly", async () => {
    const p = fixtureProvider("lib/features/sync/fixtures/feed.json");
    const first = await runSync(db, { scope: "all", trigger: "admin", provider: p });
    expect(first.status).toBe("succeeded");
    expect(counts(first.summary).teams.created).toBe(4);
    expectAllUnchanged((await runSync(db, { scope: "all", trigger: "admin", provider: p })).summary);
    const missing = await runSync(db, { scope: "all", trigger: "admin", provider: fixtureProvider("lib/features/sync/fixtures/nope.json") });
    expect(missing).toMatchObject({ status: "failed", error: expect.stringMatching(/could not be read: ENOENT/) });
  });
});

describe("HTTP feed: size limit while streaming", () => {
  const LIMIT = 1024 * 1024;
  const CHUNK = Buffer.alloc(64 * 1024, 0x20); // whitespace: valid JSON padding, were it ever parsed
  const SERVER_CAP = 64 * 1024 * 1024; // a stand-in for "endless": the server stops here if nobody hangs up

  /** A feed server: "/endless" streams chunked whitespace without Content-Length; "/small" a chunked feed. */
  async function feedServer(small: unknown) {
    const seen = { sent: 0, closedEarly: false, finished: false };
    const server = http.createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" }); // no Content-Length: chunked
      if (req.url === "/small") {
        const text = JSON.stringify(small);
        res.write(text.slice(0, 10));
        return res.end(text.slice(10));
      }
      res.on("close", () => {
        if (!res.writableFinished) seen.closedEarly = true;
      });
      const pump = () => {
        while (!res.destroyed && seen.sent < SERVER_CAP) {
          seen.sent += CHUNK.byteLength;
          if (!res.write(CHUNK)) return void res.once("drain", pump);
        }
        if (!res.destroyed) {
          seen.finished = true;
          res.end();
        }
      };
      res.write("{");
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    };
    return { base, seen, close };
  }

  it("an endless chunked feed is abandoned just past the limit: clear size error, the connection is closed, nothing written", async () => {
    const srv = await feedServer(null);
    try {
      const feed = httpProvider(`${srv.base}/endless`, undefined, 20_000, LIMIT);
      await expect(feed.fetchFeed()).rejects.toThrow(`Feed is larger than ${LIMIT} bytes`);
      await expect.poll(() => srv.seen.closedEarly, { timeout: 5_000 }).toBe(true);
      expect(srv.seen.finished).toBe(false);
      // The client stopped reading right after the limit: what the server got out is the limit plus socket buffers.
      expect(srv.seen.sent).toBeGreaterThan(LIMIT);
      expect(srv.seen.sent).toBeLessThan(16 * LIMIT);

      const before = await snapshot();
      const run = await runSync(db, { scope: "all", trigger: "cron", provider: feed });
      expect(run).toMatchObject({ status: "failed", error: expect.stringMatching(/Feed is larger than 1048576 bytes/) });
      expect(diff(before, await snapshot())).toEqual([]);
    } finally {
      await srv.close();
    }
  });

  it("a chunked feed under the limit is read whole", async () => {
    const srv = await feedServer(baseFeed());
    try {
      expect(await httpProvider(`${srv.base}/small`, undefined, 5_000, LIMIT).fetchFeed()).toEqual(baseFeed());
    } finally {
      await srv.close();
    }
  });
});
