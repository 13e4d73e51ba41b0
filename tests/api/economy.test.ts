import { describe, expect, it } from "vitest";
import { api, newUser } from "../helpers";

describe("PUT /api/packs/{id}/purchase (removed)", () => {
  it("answers 410 GONE to a signed-in fan and to anyone, for any pack, with the Deprecation header", async () => {
    for (const headers of [newUser().auth, {}]) {
      for (const id of ["pk_gameday", "no-such-pack"]) {
        const res = await api("PUT", `/api/packs/${id}/purchase`, { headers, json: { quantity: 1 } });
        expect(res.status).toBe(410);
        expect(res.body).toEqual({
          success: false,
          error: {
            code: "GONE",
            message: expect.stringContaining("removed"),
            details: [{ path: "successor", message: `POST /api/v1/packs/${id}/purchases` }],
          },
        });
        expect(res.headers.get("deprecation")).toMatch(/^@\d+$/);
        expect(res.headers.get("link")).toBe('</api/v1/packs/{id}/purchases>; rel="successor-version"');
      }
    }
  });

  it("other methods are 405 with Allow; the document marks it deprecated with only its 410 (and rate limit) answers", async () => {
    const res = await api("POST", "/api/packs/pk_gameday/purchase");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("PUT, OPTIONS");
    const op = (await api("GET", "/api/openapi.json")).body.paths["/api/packs/{id}/purchase"].put;
    expect(op.deprecated).toBe(true);
    expect(Object.keys(op.responses).filter((s) => s.startsWith("2"))).toEqual([]);
    expect(op.responses["410"].description).toMatch(/^GONE/);
  });
});
