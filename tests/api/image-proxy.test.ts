import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { isPublicAddress } from "../../lib/core/uploads/ip";
import { api, baseUrl } from "../helpers";
import { awayFromWindowEdge } from "../rate-window";

// GET /api/image-proxy against the production build. The image stand-in (tests/setup/server-env/uploads.ts)
// serves HTTPS on 127.0.0.1:<port> with a certificate the server under test trusts; images.test and
// cdn.images.test reach it through IMAGE_PROXY_HOST_OVERRIDES. localhost, 127.0.0.1, ::1, ::ffff:7f00:1,
// 169.254.169.254 and 10.0.0.1 are on the test allow-list on purpose: the address check must refuse them anyway.
// The stand-in counts requests by path, so "never fetched" is checked, not assumed.

const fx = () => inject("fixtures").uploads!;
const port = () => fx().standinPort!;
const timeoutMs = () => Number(fx().timeoutMs);

// The public rate limit is 5 per minute per client address in tests: one fresh address per request.
let ipSeq = 0;
const freshIp = () => `198.51.${Math.floor(++ipSeq / 250) + 100}.${(ipSeq % 250) + 1}`;

async function proxy(url: string | null, ip = freshIp()) {
  const res = await fetch(`${baseUrl}/api/image-proxy${url === null ? "" : `?url=${encodeURIComponent(url)}`}`, { headers: { "x-forwarded-for": ip } });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: any;
  try {
    body = JSON.parse(bytes.toString("utf8"));
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, body };
}

async function hits(): Promise<Record<string, number>> {
  return (await fetch(fx().hitsUrl!)).json();
}

const probe = () => `/cat.png?probe=${randomUUID()}`;

describe("GET /api/image-proxy: fetching", () => {
  it.each([
    ["/cat.png", "image/png", "png"],
    ["/photo.jpg", "image/jpeg", "jpeg"],
    ["/pic.webp", "image/webp", "webp"],
    ["/pic.avif", "image/avif", "heif"],
    ["/anim.gif", "image/gif", "gif"],
  ])("answers %s as its bytes with the sniffed type and cache headers", async (file, type, format) => {
    const path = `${file}?t=${randomUUID()}`;
    const res = await proxy(`https://images.test${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-request-id")).toMatch(/.{8,}/);
    expect((await sharp(res.bytes).metadata()).format).toBe(format);
    expect((await hits())[path]).toBe(1);
  });

  it("trusts the bytes, not the upstream's Content-Type", async () => {
    const res = await proxy("https://images.test/mislabelled");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
  });

  it("matches *.images.test subdomains", async () => {
    const res = await proxy(`https://cdn.images.test/photo.jpg?w=${randomUUID()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
  });

  it("follows up to 3 redirects, each checked", async () => {
    const one = await proxy(`https://images.test/redirect?to=${encodeURIComponent(`/photo.jpg?r=${randomUUID()}`)}`);
    expect(one.status).toBe(200);
    expect(one.headers.get("content-type")).toBe("image/jpeg");
    const three = await proxy("https://images.test/chain/3");
    expect(three.status).toBe(200);
    const four = await proxy("https://images.test/chain/4");
    expect(four.status).toBe(502);
    expect(four.body.error.code).toBe("UPSTREAM_ERROR");
    expect(four.body.error.message).toMatch(/redirect/i);
  });

  it("a redirect to a refused URL is 502 and the target is never fetched", async () => {
    for (const target of [
      `https://localhost:${port()}${probe()}`,
      `https://127.0.0.1:${port()}${probe()}`,
      `http://images.test${probe()}`,
      `https://not-allowed.example${probe()}`,
    ]) {
      const res = await proxy(`https://images.test/redirect?to=${encodeURIComponent(target)}`);
      expect({ target, status: res.status, code: res.body?.error?.code }).toEqual({ target, status: 502, code: "UPSTREAM_ERROR" });
      expect(res.body.error.message).toMatch(/may not fetch/);
      expect((await hits())[new URL(target).pathname + new URL(target).search]).toBeUndefined();
    }
  });
});

describe("GET /api/image-proxy: refused URLs (400 URL_NOT_ALLOWED, never fetched)", () => {
  const cases: [string, () => string, RegExp][] = [
    ["http to loopback", () => `http://127.0.0.1:${port()}${probe()}`, /only https/],
    ["http to localhost", () => `http://localhost:${port()}${probe()}`, /only https/],
    ["http to [::1]", () => `http://[::1]:${port()}${probe()}`, /only https/],
    ["http to the metadata address", () => "http://169.254.169.254/latest/meta-data/", /only https/],
    ["http to a private address", () => "http://10.0.0.1/x.png", /only https/],
    ["http to an allowed host", () => `http://images.test${probe()}`, /only https/],
    ["allow-listed 127.0.0.1", () => `https://127.0.0.1:${port()}${probe()}`, /private or reserved/],
    ["allow-listed localhost (resolves to loopback)", () => `https://localhost:${port()}${probe()}`, /private or reserved/],
    ["allow-listed [::1]", () => `https://[::1]:${port()}${probe()}`, /private or reserved/],
    ["IPv4-mapped IPv6 loopback", () => `https://[::ffff:127.0.0.1]:${port()}${probe()}`, /private or reserved/],
    ["allow-listed 169.254.169.254", () => "https://169.254.169.254/latest/meta-data/", /private or reserved/],
    ["allow-listed 10.0.0.1", () => "https://10.0.0.1/x.png", /private or reserved/],
    ["a host not on the allow-list", () => `https://example.com${probe()}`, /not on the allow-list/],
    ["a look-alike suffix", () => `https://images.test.evil.example${probe()}`, /not on the allow-list/],
    ["a look-alike prefix", () => `https://evilimages.test${probe()}`, /not on the allow-list/],
    ["127.0.0.1 written as a number", () => `https://2130706433:${port()}${probe()}`, /private or reserved/],
    ["a loopback address that is not allow-listed", () => `https://127.0.0.2:${port()}${probe()}`, /not on the allow-list/],
    ["file:", () => "file:///etc/passwd", /only https/],
    ["ftp:", () => "ftp://images.test/cat.png", /only https/],
    ["data:", () => "data:image/png;base64,iVBORw0KGgo=", /only https/],
    ["credentials", () => `https://user:secret@images.test${probe()}`, /credentials/],
    ["a username only", () => `https://user@images.test${probe()}`, /credentials/],
  ];

  it.each(cases)("%s", async (_label, url, reason) => {
    const target = url();
    const res = await proxy(target);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual({
      success: false,
      error: { code: "URL_NOT_ALLOWED", message: expect.any(String), details: [{ path: "query.url", message: expect.stringMatching(reason) }] },
    });
    const parsed = new URL(target);
    if (parsed.search.includes("probe=")) expect((await hits())[parsed.pathname + parsed.search]).toBeUndefined();
  });

  it("a missing or malformed url is 400 VALIDATION_ERROR", async () => {
    const missing = await proxy(null);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("VALIDATION_ERROR");
    const relative = await proxy("/cat.png");
    expect(relative.status).toBe(400);
    expect(relative.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "query.url", message: expect.any(String) }] });
  });
});

describe("GET /api/image-proxy: upstream problems", () => {
  it("a response that is not an image by its bytes is 502 (text labelled image/png, SVG)", async () => {
    for (const path of ["/text-as-png.png", "/drawing.svg"]) {
      const res = await proxy(`https://images.test${path}`);
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 502, code: "UPSTREAM_ERROR" });
      expect(res.headers.get("content-type")).toContain("application/json");
    }
  });

  it("an upstream error status is 502", async () => {
    for (const code of [404, 500]) {
      const res = await proxy(`https://images.test/status/${code}`);
      expect(res.status).toBe(502);
      expect(res.body.error.message).toContain(String(code));
    }
  });

  it("a body past the size limit is aborted: 502, declared or streamed", async () => {
    for (const path of ["/huge-declared", "/huge-chunked"]) {
      const started = Date.now();
      const res = await proxy(`https://images.test${path}`);
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 502, code: "UPSTREAM_ERROR" });
      expect(res.body.error.message).toMatch(/larger than/);
      expect(Date.now() - started).toBeLessThan(timeoutMs());
    }
  });

  it("no answer within the time limit is 504 UPSTREAM_TIMEOUT (slow headers or slow body)", async () => {
    for (const path of ["/slow-headers", "/slow-body"]) {
      const started = Date.now();
      const res = await proxy(`https://images.test${path}?t=${randomUUID()}`);
      const took = Date.now() - started;
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({ path, status: 504, code: "UPSTREAM_TIMEOUT" });
      expect(took).toBeGreaterThanOrEqual(timeoutMs() - 50);
      expect(took).toBeLessThan(timeoutMs() + 1_500);
    }
  });

  it("an allow-listed host that does not exist is 502", async () => {
    const res = await proxy("https://nowhere.invalid.images.test/cat.png");
    expect([502, 504]).toContain(res.status);
  });
});

describe("GET /api/image-proxy: limits and contract", () => {
  it("is rate-limited per client address with the public policy", async () => {
    const ip = freshIp();
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await proxy("https://example.com/x.png", ip)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it("is documented: public, image/* 200, the URL_NOT_ALLOWED and upstream errors", async () => {
    const doc = await api("GET", "/api/openapi.json");
    const op = doc.body.paths["/api/image-proxy"].get;
    expect(op["x-auth"]).toBe("public");
    expect(op["x-rate-limit-policy"]).toBe("public");
    expect(Object.keys(op.responses["200"].content)).toEqual(["image/*"]);
    expect(op.responses["400"].description).toContain("URL_NOT_ALLOWED");
    expect(op.responses["502"].description).toContain("UPSTREAM_ERROR");
    expect(op.responses["504"].description).toContain("UPSTREAM_TIMEOUT");
    expect(op.parameters).toEqual([expect.objectContaining({ name: "url", in: "query", required: true })]);
  });

  it("upload routes are documented as multipart with a binary file field", async () => {
    const doc = await api("GET", "/api/openapi.json");
    for (const route of ["profile", "banner", "binder-cover", "locker-media"]) {
      const op = doc.body.paths[`/api/upload/${route}`].post;
      expect(op["x-auth"]).toBe("bearer");
      expect(op["x-rate-limit-policy"]).toBe("write");
      const schema = op.requestBody.content["multipart/form-data"].schema;
      expect(schema.required).toContain("file");
      expect(schema.properties.file).toMatchObject({ type: "string", format: "binary" });
      for (const code of ["VALIDATION_ERROR", "UNAUTHORIZED"]) expect(JSON.stringify(op.responses)).toContain(code);
      expect(op.responses["413"].description).toContain("PAYLOAD_TOO_LARGE");
      expect(op.responses["415"].description).toContain("UNSUPPORTED_MEDIA_TYPE");
      expect(op.responses["422"].description).toContain("INVALID_IMAGE");
    }
    expect(doc.body.paths["/api/upload/binder-cover"].post.requestBody.content["multipart/form-data"].schema.required).toEqual(["file", "binderId"]);
    expect(doc.body.paths["/api/upload/binder-cover"].post.responses["404"].description).toContain("NOT_FOUND");
  });
});

describe("address classification (lib/core/uploads/ip.ts)", () => {
  it.each([
    ["8.8.8.8", true],
    ["1.1.1.1", true],
    ["172.32.0.1", true],
    ["100.128.0.1", true],
    ["127.0.0.1", false],
    ["127.255.1.2", false],
    ["10.0.0.1", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["100.127.255.255", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["239.255.255.255", false],
    ["255.255.255.255", false],
    ["240.0.0.1", false],
    ["198.18.0.1", false],
    ["192.0.2.5", false],
    ["198.51.100.7", false],
    ["203.0.113.9", false],
    ["192.0.0.8", false],
    ["::1", false],
    ["::", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["0:0:0:0:0:ffff:7f00:1", false],
    ["::ffff:a9fe:a9fe", false],
    ["::ffff:10.1.2.3", false],
    ["::127.0.0.1", false],
    ["::ffff:8.8.8.8", true],
    ["::ffff:808:808", true],
    ["fe80::1", false],
    ["fe80::1%eth0", false],
    ["fc00::1", false],
    ["fd12:3456::1", false],
    ["ff02::1", false],
    ["64:ff9b::7f00:1", false],
    ["2001:db8::1", false],
    ["2002:7f00:1::1", false],
    ["2001::1", false],
    ["3fff::1", false],
    ["100::1", false],
    ["2606:4700:4700::1111", true],
    ["2001:4860:4860::8888", true],
    ["2a00:1450:4001:81b::200e", true],
    ["localhost", false],
    ["", false],
    ["1:2:3:4:5:6:7:8:9", false],
    ["1::2::3", false],
  ] as [string, boolean][])("%s → public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
