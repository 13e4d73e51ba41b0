import { request, type IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { api, baseUrl, token } from "../helpers";

// Nothing a client sends may cause a 5xx. Every documented operation (public and internal) gets hostile path
// parameters, query values and bodies, signed in as a staff user so auth does not stop the request early.

type Param = { name: string; in: string };
type Operation = { "x-auth": string; parameters?: Param[]; requestBody?: unknown; responses?: Record<string, unknown> };

const staff = { authorization: `Bearer ${token("user_fuzz_staff", { admin: true })}` };
let ip = 0;
const freshIp = () => `203.0.113.${(ip++ % 250) + 1}, 10.0.0.${ip % 250}`;

const HOSTILE_STRINGS = ["%00", "a".repeat(600), "..%2F..%2Fetc%2Fpasswd", "%F0%9F%92%A5", "'%20OR%201%3D1%20--", "-1", "1e309", "%E2%80%AE", "null"];
const HOSTILE_BODIES: string[] = [
  "{}",
  "[]",
  '"text"',
  "null",
  "123",
  "{nope",
  '{"a":'.repeat(200) + "1" + "}".repeat(200),
  // Deep nesting within the 16 KiB body limit: once a stack overflow (500) after blocking the event loop.
  `{"token":${"[".repeat(8_000)}${"]".repeat(8_000)}}`,
  `${'{"a":'.repeat(3_000)}1${"}".repeat(3_000)}`,
  JSON.stringify({ id: 1, token: ["x"], teams: "x", earnKind: {}, idempotencyKey: 5, username: null, handle: 1, status: [], scope: 7 }),
  JSON.stringify({ teams: [null, 1, "x", { id: {} }], blockedUserId: "", handle: "", version: {}, subject: "\u0000", message: "\u0000", body: "\u0000" }),
  JSON.stringify({ favoriteTeamIds: Array.from({ length: 1000 }, (_, i) => `t${i}`), bio: "\u0000", displayName: "x".repeat(10_000) }),
];

async function operations() {
  const pub = await api("GET", "/api/openapi.json");
  const internal = await api("GET", "/api/admin/openapi.json", { headers: staff });
  const ops: { method: string; path: string; op: Operation }[] = [];
  for (const doc of [pub.body, internal.body]) {
    for (const [path, byMethod] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(byMethod)) ops.push({ method: method.toUpperCase(), path, op });
    }
  }
  return ops;
}

async function send(method: string, url: string, body?: string, contentType = "application/json") {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    redirect: "manual",
    headers: { ...staff, "x-forwarded-for": freshIp(), ...(body !== undefined ? { "content-type": contentType } : {}) },
    body,
  });
  const text = await res.text();
  return { status: res.status, text };
}

describe("hostile input never causes a 5xx", () => {
  it("path parameters, query values and bodies of every operation", { timeout: 120_000 }, async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const { method, path, op } of ops) {
      if (path === "/api/image-proxy") continue; // fetches only allow-listed hosts; its own suite covers hostile URLs
      const queryNames = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      for (const s of HOSTILE_STRINGS) {
        let url = path.replace(/\{[^}]+\}/g, s);
        if (queryNames.length) url += `?${queryNames.map((n) => `${n}=${s}`).join("&")}`;
        const res = await send(method, url);
        if (res.status >= 500) failures.push(`${method} ${url.slice(0, 80)} → ${res.status} ${res.text.slice(0, 100)}`);
      }
      if (method === "GET") continue;
      const url = path.replace(/\{[^}]+\}/g, "x");
      for (const body of HOSTILE_BODIES) {
        const res = await send(method, url, body);
        if (res.status >= 500) failures.push(`${method} ${url} body ${body.slice(0, 40)} → ${res.status} ${res.text.slice(0, 100)}`);
      }
      const wrongType = await send(method, url, "a=b", "application/x-www-form-urlencoded");
      if (wrongType.status >= 500) failures.push(`${method} ${url} form body → ${wrongType.status}`);
    }
    expect(failures).toEqual([]);
  });
});

// A raw request: fetch (undici) would send the path as given too, but node:http shows exactly what goes on the wire.
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/`, { method: "GET", path, headers: { ...headers, "x-forwarded-for": freshIp() } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a path with a malformed percent escape", () => {
  // Next decodes dynamic segments before any route runs; it used to answer these 500 text/plain, no headers.
  const MALFORMED = ["%ZZ", "%", "%E", "%FF", "%C0%AF", "%E2%82", "a%2", "%%41"];

  it("is a JSON 400 VALIDATION_ERROR with the API's headers under /api and /files", async () => {
    for (const segment of MALFORMED) {
      for (const path of [
        `/api/teams/${segment}`,
        `/api/v1/search/${segment}`,
        `/api/${segment}`,
        `/api/teams/${segment}/fans`,
        `/files/${segment}`,
        `/files/a/${segment}`,
      ]) {
        const res = await rawGet(path, { "x-request-id": "req-malformed-1" });
        expect([path, res.status, res.headers["content-type"]]).toEqual([path, 400, "application/json"]);
        expect(JSON.parse(res.text)).toEqual({
          success: false,
          error: {
            code: "VALIDATION_ERROR",
            message: expect.stringMatching(/malformed percent escape/),
            details: [{ path: "path", message: "Malformed percent-encoding" }],
          },
        });
        expect(res.headers).toMatchObject({
          "x-content-type-options": "nosniff",
          "x-frame-options": "DENY",
          "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
          "referrer-policy": "no-referrer",
          "cache-control": "no-store",
          "x-request-id": "req-malformed-1",
        });
      }
    }
  });

  it("is a 400 page that may not be framed elsewhere (the console, any page)", async () => {
    for (const segment of MALFORMED) {
      for (const path of [`/admin/users/${segment}`, `/admin/quests/${segment}`, `/admin/sync/${segment}/x`]) {
        const res = await rawGet(path);
        expect([path, res.status, res.headers["content-type"]]).toEqual([path, 400, expect.stringMatching(/^text\/html/)]);
        expect(res.headers["x-frame-options"], path).toBe("DENY");
        expect(res.headers["content-security-policy"], path).toMatch(/frame-ancestors 'none'/);
        expect(res.headers["x-content-type-options"], path).toBe("nosniff");
      }
    }
    // Any other path too (the home page, /docs), dynamic route or not.
    for (const path of ["/%ZZ", "/docs/%FF", "/account/%"]) expect((await rawGet(path)).status, path).toBe(400);
  });

  it("well-formed escapes still reach their routes", async () => {
    expect((await rawGet("/api/teams/%41%42")).status).toBe(404);
    const health = await rawGet("/api/health?x=%ZZ");
    expect(health.status).toBe(200);
    expect((await rawGet("/files/%41")).status).toBe(404);
  });
});
