import { describe, expect, it } from "vitest";
import { poster } from "../helpers";
import { newUser, on } from "./helpers";

// Routes marked anonymousCache (the feed, listings browsing) share one answer per query among callers without a
// session for ANONYMOUS_CACHE_TTL_MS (1 s by default, as here), per instance. A new post must reach a signed-in
// reader at once on every instance, and an anonymous reader of an instance that had cached the query within the TTL.

const TTL_MS = 1_000;
/** Slack for one answer in flight on a loaded 2-core machine. */
const MARGIN_MS = 3_000;

describe("anonymous answers shared per instance", () => {
  it("a new post: signed-in readers see it at once, an anonymous reader of a cached query within the TTL", async () => {
    const author = await poster();
    const feed = `/api/locker-room?authorId=${author.id}&limit=5`;
    const ids = (res: { body: { data: { posts: { id: string }[] } } }) => res.body.data.posts.map((p) => p.id);

    const sentB = Date.now();
    const warm = await on(1).api("GET", feed);
    const loadedB = Date.now();
    expect(warm.status).toBe(200);
    expect(ids(warm)).toEqual([]);

    const created = await on(0).api("POST", "/api/locker-room", { headers: author.auth, json: { content: "Shared answers, fresh for fans" } });
    expect(created.status).toBe(201);
    const postId = created.body.data.id as string;

    const reader = newUser();
    expect(ids(await on(1).api("GET", feed, { headers: reader.auth }))).toEqual([postId]);
    expect(ids(await on(0).api("GET", feed))).toEqual([postId]);

    const stale: number[] = [];
    for (;;) {
      const sent = Date.now();
      const res = await on(1).api("GET", feed);
      expect(res.status).toBe(200);
      if (ids(res).includes(postId)) break;
      stale.push(sent);
      expect(sent - sentB).toBeLessThan(TTL_MS + MARGIN_MS);
      await new Promise((r) => setTimeout(r, 50));
    }
    // The cached answer is served only until its entry expires: no stale answer was asked for after loadedB + TTL.
    for (const sent of stale) expect(sent).toBeLessThanOrEqual(loadedB + TTL_MS);
  });
});
