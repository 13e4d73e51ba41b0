import { describe, expect, it } from "vitest";
import { poster } from "../helpers";
import { db, on } from "./helpers";

// Each instance keeps a fan's compiled keyword filters (lib/core/mutes/matcher.ts) and trusts them only while the feed's
// own statement reads the same users.filters_version: a filter added, changed or removed through one instance
// applies on every other one from the next request, with no TTL to wait out.

const FILTERS = "/api/v1/me/filters";

describe("keyword filters across instances", () => {
  it("a filter changed through one instance applies on the other at once", async () => {
    const [viewer, author] = await Promise.all([poster(), poster()]);
    const post = async (content: string, secondsAgo: number) =>
      (await db().post.create({ data: { authorId: author.id, content, publishAt: new Date(Date.now() - secondsAgo * 1000) } })).id;
    const [spoiler, derby] = [await post("Spoiler: the derby ends 2-1", 20), await post("Derby day tomorrow", 10)];
    const authored = async (instance: number) => {
      const res = await on(instance).api("GET", `/api/locker-room?authorId=${author.id}&limit=50`, { headers: viewer.auth });
      expect(res.status, res.text).toBe(200);
      return (res.body.data.posts as { id: string }[]).map((p) => p.id);
    };
    const both = [derby, spoiler];
    expect(await authored(1)).toEqual(both);

    // Instance 1 compiles the filter on its next read; instance 0 changes and removes it.
    const created = await on(0).api("POST", FILTERS, { headers: viewer.auth, json: { keywords: [{ keyword: "spoiler" }], contexts: ["feed"] } });
    expect(created.status, created.text).toBe(201);
    expect(await authored(1)).toEqual([derby]);
    const id = created.body.data.filter.id as string;
    expect((await on(0).api("PATCH", `${FILTERS}/${id}`, { headers: viewer.auth, json: { keywords: [{ keyword: "derby" }] } })).status).toBe(200);
    expect(await authored(1)).toEqual([]);
    expect((await on(0).api("PATCH", `${FILTERS}/${id}`, { headers: viewer.auth, json: { contexts: ["comments"] } })).status).toBe(200);
    expect(await authored(1)).toEqual(both);
    expect((await on(0).api("PATCH", `${FILTERS}/${id}`, { headers: viewer.auth, json: { contexts: ["feed"] } })).status).toBe(200);
    expect(await authored(1)).toEqual([]);
    expect((await on(0).api("DELETE", `${FILTERS}/${id}`, { headers: viewer.auth })).status).toBe(200);
    expect(await authored(1)).toEqual(both);
  });
});
