import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { api, baseUrl, db, newUser } from "../helpers";
import { fx, png, upload } from "./uploads-fixtures";

// The upload routes' authentication and methods, and GET /files/{key}: never anything outside the upload directory.

describe("upload routes: authentication and methods", () => {
  it.each(["profile", "banner", "binder-cover", "locker-media"])("POST /api/upload/%s answers 401 without a valid token and stores nothing", async (route) => {
    // Other files upload at the same time: look for this image only (a size no other test uses; the avatar is its
    // centre square).
    const started = new Date(Date.now() - 1000);
    const image = { bytes: await png(53, 47), type: "image/png" };
    const none = await upload(route, {}, image);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ success: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    const bad = await upload(route, { authorization: "Bearer nope" }, image);
    expect(bad.status).toBe(401);
    const size = route === "profile" ? { width: 47, height: 47 } : { width: 53, height: 47 };
    expect(await db().mediaUpload.count({ where: { kind: route, createdAt: { gte: started }, ...size } })).toBe(0);
  });

  it("other methods are a JSON 405", async () => {
    const { auth } = newUser();
    const res = await api("GET", "/api/upload/profile", { headers: auth });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("GET /files/{key}", () => {
  /** A raw request, so the client does not normalise "..", "%2e" or "//" away. */
  function rawGet(p: string): Promise<{ status: number; body: string; type: string | undefined }> {
    return new Promise((resolve, reject) => {
      const url = new URL(baseUrl);
      const req = http.request({ host: url.hostname, port: url.port, path: p, method: "GET" }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, type: res.headers["content-type"] }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("a missing file is a JSON 404", async () => {
    const res = await api("GET", `/files/avatars/${randomUUID()}/${randomUUID()}.webp`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
  });

  it("never serves anything outside the upload directory", async () => {
    expect(existsSync(path.join(fx().outsideDir!, "secret.txt"))).toBe(true);
    const attempts = [
      "/files/../secret.txt",
      "/files/%2e%2e/secret.txt",
      "/files/%2E%2E%2Fsecret.txt",
      "/files/..%2fsecret.txt",
      "/files/avatars/%2e%2e/%2e%2e/secret.txt",
      "/files/avatars/..%5c..%5csecret.txt",
      `/files/${encodeURIComponent(path.join(fx().outsideDir!, "secret.txt"))}`,
      `/files//${path.join(fx().outsideDir!, "secret.txt").replace(/^\//, "")}`,
      "/files/%2fetc%2fpasswd",
      "/files/.hidden",
      "/files/avatars/%00.webp",
    ];
    for (const p of attempts) {
      const res = await rawGet(p);
      expect({ p, ok: res.status === 200 || res.body.includes("top secret") || res.body.includes("root:") }).toEqual({ p, ok: false });
    }
  });
});
