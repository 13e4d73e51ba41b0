import { describe, expect, it } from "vitest";
import { api, newUser } from "../helpers";

describe("platform", () => {
  it("GET /api/health answers ok with a request id", async () => {
    const res = await api("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { status: "ok" } });
    expect(res.headers.get("x-request-id")).toMatch(/.{8,}/);
  });

  it.each(["GET", "POST", "PUT", "PATCH", "DELETE"])("unknown /api path answers JSON 404 for %s", async (method) => {
    const res = await api(method, "/api/definitely/not/here", { json: method === "GET" ? undefined : {} });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
  });

  it("known path with another method answers JSON 405 with Allow", async () => {
    const res = await api("DELETE", "/api/health");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(res.body.error.code).toBe("METHOD_NOT_ALLOWED");
    const put = await api("POST", "/api/me/starred-teams/abc");
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("PUT, DELETE, OPTIONS");
  });

  it("malformed JSON, wrong content type and missing body are 400 VALIDATION_ERROR", async () => {
    const { auth } = newUser();
    const bad = await api("PATCH", "/api/user/settings", { headers: { ...auth, "content-type": "application/json" }, body: "{nope" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "body", message: "Malformed JSON" }] });
    const type = await api("PATCH", "/api/user/settings", { headers: { ...auth, "content-type": "text/plain" }, body: '{"notifyTeams":false}' });
    expect(type.status).toBe(400);
    expect(type.body.error.details[0].path).toBe("headers.content-type");
    const empty = await api("POST", "/api/v1/engage/rep/earn", { headers: auth });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("a body over the route's limit is 413 PAYLOAD_TOO_LARGE", async () => {
    const { auth } = newUser();
    const res = await api("PATCH", "/api/user/settings", { headers: { ...auth, "content-type": "application/json" }, body: `{"x":"${"a".repeat(20_000)}"}` });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("serves the OpenAPI document and a readable reference page", async () => {
    const doc = await api("GET", "/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect(doc.body.info.version).toBe("1.0.0");
    const page = await fetch(`${(await import("../helpers")).baseUrl}/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("/api/me/starred-teams/{teamId}");
  });
});
