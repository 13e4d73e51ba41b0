import { describe, expect, it, vi } from "vitest";
import { z } from "zod";

vi.hoisted(() => {
  process.env.VALIDATE_RESPONSES = "1";
  process.env.LOG_LEVEL = "error";
});

import { registerFeatureCheck } from "../../lib/http/features";
import { ifNoneMatches, route } from "../../lib/http/route";
import { bucketOf, flagOn, pausesFor } from "../../lib/features/config/service";

// Remote config's pure rules (lib/features/config/service.ts) and the pipeline's two options it relies on (lib/http/route.ts):
// `feature` (a kill switch, here paused for everyone: the API tests can only pause for their own users, as the
// switch is shared with every other test file) and `conditional` (ETag, 304).

const noParams = { params: Promise.resolve({}) };

describe("kill switches", () => {
  const sw = (paused: boolean, scoped = false, ids: string[] = []) => ({ paused, scoped, userIds: new Set(ids), message: null });
  it("pause for everyone, or for listed signed-in users only", () => {
    expect(pausesFor(undefined, "u1")).toBe(false);
    expect(pausesFor(sw(false), "u1")).toBe(false);
    expect(pausesFor(sw(true), "u1")).toBe(true);
    expect(pausesFor(sw(true), null)).toBe(true);
    expect(pausesFor(sw(true, true, ["u1"]), "u1")).toBe(true);
    expect(pausesFor(sw(true, true, ["u1"]), "u2")).toBe(false);
    expect(pausesFor(sw(true, true, ["u1"]), null)).toBe(false);
    expect(pausesFor(sw(false, true, ["u1"]), "u1")).toBe(false);
  });

  it("the pipeline asks the registered check before parsing, answers 409 FEATURE_DISABLED naming the feature, and never runs the handler", async () => {
    let ran = 0;
    const paused = new Set(["marketplace"]);
    registerFeatureCheck((feature) => (paused.has(feature) ? "Paused for maintenance." : null));
    const handler = route(
      {
        summary: "sell",
        tags: ["t"],
        auth: "public",
        feature: "marketplace",
        body: z.strictObject({ price: z.int() }),
        response: z.object({ ok: z.boolean() }),
      },
      async () => {
        ran++;
        return { ok: true };
      },
    );
    const req = () => new Request("http://x/api/sell", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    const res = await handler(req(), noParams);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      success: false,
      error: { code: "FEATURE_DISABLED", message: "Paused for maintenance.", details: [{ path: "feature", message: "marketplace" }] },
    });
    expect(ran).toBe(0);
    paused.clear();
    expect((await handler(req(), noParams)).status).toBe(400); // resumed: the request reaches validation
  });
});

describe("flags", () => {
  it("bucket by SHA-256 of key and user id, stable, spread evenly; signed out only at 100%", () => {
    expect(bucketOf("new_feed", "u1")).toBe(bucketOf("new_feed", "u1"));
    const users = Array.from({ length: 4000 }, (_, i) => `user-${i}`);
    const on = users.filter((u) => flagOn(2500, "new_feed", u)).length;
    expect(on / users.length).toBeGreaterThan(0.22);
    expect(on / users.length).toBeLessThan(0.28);
    expect(users.some((u) => flagOn(0, "x", u))).toBe(false);
    expect(users.every((u) => flagOn(10_000, "x", u))).toBe(true);
    // Independent per flag: the same users do not get every 50% flag.
    const a = users.filter((u) => flagOn(5000, "a", u));
    const both = a.filter((u) => flagOn(5000, "b", u)).length;
    expect(both / a.length).toBeGreaterThan(0.4);
    expect(both / a.length).toBeLessThan(0.6);
    expect(flagOn(9999, "x", null)).toBe(false);
    expect(flagOn(10_000, "x", null)).toBe(true);
  });
});

describe("conditional answers", () => {
  it("match If-None-Match by weak comparison, lists and *", () => {
    expect(ifNoneMatches(null, '"a"')).toBe(false);
    expect(ifNoneMatches('"a"', '"a"')).toBe(true);
    expect(ifNoneMatches('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatches('"b", "a"', '"a"')).toBe(true);
    expect(ifNoneMatches('"b"', '"a"')).toBe(false);
    expect(ifNoneMatches("*", '"a"')).toBe(true);
  });

  it("serialize the same data object once: the same strong tag, 304 without a body", async () => {
    const data = Object.freeze({ n: 1 });
    const handler = route({ summary: "cfg", tags: ["t"], auth: "optional", conditional: true, response: z.object({ n: z.int() }) }, async () => data);
    const first = await handler(new Request("http://x/api/cfg"), noParams);
    const body = await first.text();
    expect(body).toBe('{"success":true,"data":{"n":1}}');
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("vary")).toContain("Authorization");
    const second = await handler(new Request("http://x/api/cfg", { headers: { "if-none-match": etag } }), noParams);
    expect(second.status).toBe(304);
    expect(await second.text()).toBe("");
    expect(second.headers.get("etag")).toBe(etag);
  });
});
