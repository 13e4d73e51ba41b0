import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DomainError } from "../../lib/http/errors";
import { route } from "../../lib/http/route";

const noParams = { params: Promise.resolve({}) };

describe("request pipeline", () => {
  it("answers 500 INTERNAL_ERROR for an unexpected failure, with no internals in the body and a request id header", async () => {
    const handler = route({ summary: "boom", tags: ["t"], auth: "public", response: z.object({}) }, async () => {
      throw new Error('relation "secret_table" does not exist at /srv/app/lib/x.ts:42');
    });
    const res = await handler(new Request("http://x/api/boom"), noParams);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ success: false, error: { code: "INTERNAL_ERROR", message: expect.any(String) } });
    expect(text).not.toMatch(/secret_table|\/srv\/app|at /);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("maps a domain error to its status, code, details and headers", async () => {
    const handler = route({ summary: "limit", tags: ["t"], auth: "public", response: z.object({}) }, async () => {
      throw new DomainError("STARRED_TEAMS_LIMIT", "full", [{ path: "x", message: "y" }], { "X-Extra": "1" });
    });
    const res = await handler(new Request("http://x/api/limit", { headers: { "x-request-id": "req-12345678" } }), noParams);
    expect(res.status).toBe(409);
    expect(res.headers.get("x-extra")).toBe("1");
    expect(res.headers.get("x-request-id")).toBe("req-12345678");
    expect(await res.json()).toEqual({ success: false, error: { code: "STARRED_TEAMS_LIMIT", message: "full", details: [{ path: "x", message: "y" }] } });
  });

  it("envelopes by default and answers the bare object when the route says so", async () => {
    const data = route({ summary: "e", tags: ["t"], auth: "public", response: z.object({ a: z.number() }) }, async () => ({ a: 1 }));
    expect(await (await data(new Request("http://x/api/e"), noParams)).json()).toEqual({ success: true, data: { a: 1 } });
    const bare = route({ summary: "b", tags: ["t"], auth: "public", envelope: false, response: z.object({ a: z.number() }) }, async () => ({ a: 1 }));
    expect(await (await bare(new Request("http://x/api/b"), noParams)).json()).toEqual({ a: 1 });
  });

  it("names every offending field in a validation error", async () => {
    const handler = route(
      {
        summary: "v",
        tags: ["t"],
        auth: "public",
        query: z.strictObject({ n: z.string().regex(/^\d+$/) }),
        body: z.strictObject({ a: z.string(), b: z.number() }),
        response: z.object({}),
      },
      async () => ({}),
    );
    const q = await handler(new Request("http://x/api/v?n=abc", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }), noParams);
    expect(q.status).toBe(400);
    expect((await q.json()).error.details.map((d: { path: string }) => d.path)).toEqual(["query.n"]);
    const b = await handler(new Request("http://x/api/v?n=1", { method: "POST", headers: { "content-type": "application/json" }, body: '{"b":"x","c":1}' }), noParams);
    expect(b.status).toBe(400);
    expect((await b.json()).error.details.map((d: { path: string }) => d.path).sort()).toEqual(["body.a", "body.b", "body.c"]);
  });
});
