import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { thumbHashToRGBA } from "thumbhash";
import { describe, expect, inject, it } from "vitest";
import { LOCKER_MEDIA_DAILY_BYTES, LOCKER_MEDIA_GRACE_MS, LOCKER_MEDIA_PENDING_CAP } from "../../lib/core/uploads/kinds";
import { attachLockerMedia } from "../../lib/core/uploads/service";
import { api, baseUrl, db, errorOf, newUser, userIdOf } from "../helpers";

// Black-box tests of POST /api/upload/{profile,banner,binder-cover,locker-media} and GET /files/{key}, against
// the production build with the local storage driver in a temporary UPLOAD_DIR (tests/setup/server-env/uploads.ts).

const fx = () => inject("fixtures").uploads!;
const uploadDir = () => fx().uploadDir!;
const MB = 1024 * 1024;

// ---------- images, generated here ----------

/** Deterministic noise, so encoders cannot shrink it to nothing. */
function noise(width: number, height: number, channels = 3, seed = 1): Buffer {
  const buf = Buffer.alloc(width * height * channels);
  let x = seed * 2654435761;
  for (let i = 0; i < buf.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    buf[i] = x >>> 24;
  }
  return buf;
}
const raw = (w: number, h: number, seed = 1) => sharp(noise(w, h, 3, seed), { raw: { width: w, height: h, channels: 3 } });
const solid = (w: number, h: number, r: number, g: number, b: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r, g, b } } });

const jpeg = (w = 800, h = 600, seed = 1) => raw(w, h, seed).jpeg({ quality: 90 }).toBuffer();
const png = (w = 800, h = 600, seed = 1) => raw(w, h, seed).png().toBuffer();

type Part = { bytes: Uint8Array; name?: string; type?: string };
interface Upload {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function upload(route: string, auth: Record<string, string>, file?: Part | string, fields: Record<string, string> = {}): Promise<Upload> {
  const form = new FormData();
  if (typeof file === "string") form.append("file", file);
  else if (file) form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }), file.name ?? "upload.bin");
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${baseUrl}/api/upload/${route}`, { method: "POST", headers: auth, body: form });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

const fileUrl = (url: string) => (url.startsWith("/") ? `${baseUrl}${url}` : url);

async function fetchStored(url: string) {
  const res = await fetch(fileUrl(url));
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The stored file is a WebP of the given size, carrying no metadata. */
async function expectStoredWebp(url: string, width: number, height: number) {
  const { res, bytes } = await fetchStored(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/webp");
  expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe("webp");
  expect([meta.width, meta.height]).toEqual([width, height]);
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  return { bytes, meta };
}

function expectThumbhash(hash: string) {
  expect(hash).toMatch(/^[A-Za-z0-9+/]+=*$/);
  const decoded = thumbHashToRGBA(Buffer.from(hash, "base64"));
  expect(decoded.w).toBeGreaterThan(0);
  expect(decoded.h).toBeGreaterThan(0);
  expect(decoded.rgba.length).toBe(decoded.w * decoded.h * 4);
  return decoded;
}

const keyOf = (url: string) => url.replace(/^.*\/files\//, "");
const filesIn = (dir: string) => (existsSync(path.join(uploadDir(), dir)) ? readdirSync(path.join(uploadDir(), dir)).sort() : []);

const notImage = { bytes: Buffer.from("hello, I am a text file pretending to be a PNG\n"), name: "photo.png", type: "image/png" };
const svg = {
  bytes: Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64" fill="red"/></svg>',
  ),
  name: "logo.svg",
  type: "image/svg+xml",
};

async function badInputs(maxBytes: number) {
  const j = await jpeg(800, 600, 7);
  const p = await png(400, 300, 7);
  return [
    { label: "text renamed .png", file: notImage as Part, status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
    { label: "SVG", file: svg as Part, status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
    { label: "SVG labelled image/png", file: { ...svg, name: "logo.png", type: "image/png" }, status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
    {
      label: "TIFF (decodable, not accepted)",
      file: { bytes: await raw(64, 64).tiff().toBuffer(), name: "a.jpg", type: "image/jpeg" },
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
    },
    {
      label: "PDF",
      file: { bytes: Buffer.from("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), name: "a.png", type: "image/png" },
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
    },
    {
      label: "truncated JPEG",
      file: { bytes: j.subarray(0, Math.floor(j.length * 0.6)), name: "a.jpg", type: "image/jpeg" },
      status: 422,
      code: "INVALID_IMAGE",
    },
    {
      label: "JPEG missing only its last bytes",
      file: { bytes: j.subarray(0, j.length - 200), name: "a.jpg", type: "image/jpeg" },
      status: 422,
      code: "INVALID_IMAGE",
    },
    {
      label: "truncated PNG",
      file: { bytes: p.subarray(0, Math.floor(p.length * 0.6)), name: "a.png", type: "image/png" },
      status: 422,
      code: "INVALID_IMAGE",
    },
    {
      label: "JPEG magic then garbage",
      file: { bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), noise(2000, 1, 1)]), name: "a.jpg", type: "image/jpeg" },
      status: 422,
      code: "INVALID_IMAGE",
    },
    {
      label: "too large",
      file: { bytes: Buffer.concat([j, noise(maxBytes, 1, 1, 3)]), name: "big.jpg", type: "image/jpeg" },
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
    },
    { label: "no file field", file: undefined, status: 400, code: "VALIDATION_ERROR" },
    { label: "file sent as a text field", file: "not a file", status: 400, code: "VALIDATION_ERROR" },
  ] as { label: string; file: Part | string | undefined; status: number; code: string }[];
}

// ---------- tests ----------

describe("POST /api/upload/profile", () => {
  it("stores a re-encoded 512×512 WebP avatar, records it and sets the user's avatar", async () => {
    const { sub, auth } = newUser();
    const res = await upload("profile", auth, { bytes: await jpeg(1000, 800), name: "me.jpg", type: "image/jpeg" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.any(String),
        url: expect.any(String),
        thumbhash: expect.any(String),
        width: 512,
        height: 512,
        contentType: "image/webp",
        bytes: expect.any(Number),
      },
    });
    const userId = await userIdOf(sub);
    const data = res.body.data;
    expect(data.url).toMatch(new RegExp(`^/files/avatars/${userId}/[0-9a-f-]{36}\\.webp$`));
    const { bytes } = await expectStoredWebp(data.url, 512, 512);
    expect(data.bytes).toBe(bytes.length);
    expectThumbhash(data.thumbhash);

    const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
    expect(user).toMatchObject({ avatarUrl: data.url, avatarKey: keyOf(data.url), avatarThumbhash: data.thumbhash });
    const rows = await db().mediaUpload.findMany({ where: { userId } });
    expect(rows).toEqual([
      expect.objectContaining({
        id: data.id,
        kind: "profile",
        key: keyOf(data.url),
        url: data.url,
        contentType: "image/webp",
        bytes: data.bytes,
        width: 512,
        height: 512,
        thumbhash: data.thumbhash,
      }),
    ]);
  });

  it("takes the type from the bytes, not the name or the declared content type", async () => {
    const { auth } = newUser();
    const res = await upload("profile", auth, { bytes: await png(300, 300), name: "notes.txt", type: "text/plain" });
    expect(res.status).toBe(200);
    await expectStoredWebp(res.body.data.url, 300, 300);
  });

  it("crops to a square without enlarging a small photo", async () => {
    const { auth } = newUser();
    const res = await upload("profile", auth, { bytes: await png(120, 80), type: "image/png" });
    expect(res.status).toBe(200);
    expect([res.body.data.width, res.body.data.height]).toEqual([80, 80]);
    await expectStoredWebp(res.body.data.url, 80, 80);
  });

  it("accepts a file just under the 5 MB limit", async () => {
    const { auth } = newUser();
    const big = await raw(1270, 1280, 5).png({ compressionLevel: 0 }).toBuffer();
    expect(big.length).toBeGreaterThan(4.6 * MB);
    expect(big.length).toBeLessThan(5 * MB);
    const res = await upload("profile", auth, { bytes: big, type: "image/png" });
    expect(res.status).toBe(200);
    expect(res.body.data.width).toBe(512);
  });

  it("replacing the avatar deletes the previous file and its record", async () => {
    const { sub, auth } = newUser();
    const first = await upload("profile", auth, { bytes: await jpeg(600, 600, 1), type: "image/jpeg" });
    const second = await upload("profile", auth, { bytes: await jpeg(600, 600, 2), type: "image/jpeg" });
    expect([first.status, second.status]).toEqual([200, 200]);
    const gone = await api("GET", first.body.data.url);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    expect((await fetchStored(second.body.data.url)).res.status).toBe(200);

    const userId = await userIdOf(sub);
    const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.avatarKey).toBe(keyOf(second.body.data.url));
    expect(filesIn(`avatars/${userId}`)).toEqual([path.basename(second.body.data.url)]);
    const rows = await db().mediaUpload.findMany({ where: { userId, kind: "profile" } });
    expect(rows.map((r) => r.key)).toEqual([keyOf(second.body.data.url)]);
  });

  it("every refused upload answers its 4xx and leaves the current photo in place", async () => {
    const { sub, auth } = newUser();
    const ok = await upload("profile", auth, { bytes: await jpeg(400, 400), type: "image/jpeg" });
    expect(ok.status).toBe(200);
    const userId = await userIdOf(sub);
    const before = await db().user.findUniqueOrThrow({ where: { id: userId } });

    for (const bad of await badInputs(5 * MB)) {
      const res = await upload("profile", auth, bad.file);
      expect({ label: bad.label, status: res.status, code: res.body?.error?.code }).toEqual({ label: bad.label, status: bad.status, code: bad.code });
      expect(res.headers.get("content-type")).toContain("application/json");
    }
    const after = await db().user.findUniqueOrThrow({ where: { id: userId } });
    expect({ url: after.avatarUrl, key: after.avatarKey, hash: after.avatarThumbhash }).toEqual({
      url: before.avatarUrl,
      key: before.avatarKey,
      hash: before.avatarThumbhash,
    });
    expect((await fetchStored(ok.body.data.url)).res.status).toBe(200);
    expect(filesIn(`avatars/${userId}`)).toEqual([path.basename(ok.body.data.url)]);
    expect(await db().mediaUpload.count({ where: { userId } })).toBe(1);
  });

  it("error bodies name the problem", async () => {
    const { auth } = newUser();
    const missing = await upload("profile", auth, undefined, { caption: "no file" });
    expect(missing.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path: "body.file", message: "Required" }] },
    });
    const svgRes = await upload("profile", auth, svg);
    expect(svgRes.body.error.message).toMatch(/SVG/);
    const json = await api("POST", "/api/upload/profile", { headers: auth, json: { file: "data:image/png;base64,AAAA" } });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "headers.content-type", message: expect.stringContaining("multipart/form-data") }],
    });
    const none = await api("POST", "/api/upload/profile", { headers: auth });
    expect(none.status).toBe(400);
    expect(errorOf(none).code).toBe("VALIDATION_ERROR");
    const malformed = await api("POST", "/api/upload/profile", {
      headers: { ...auth, "content-type": "multipart/form-data; boundary=abc" },
      body: "this is not multipart",
    });
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed).code).toBe("VALIDATION_ERROR");
    const empty = await upload("profile", auth, { bytes: new Uint8Array(), name: "empty.png", type: "image/png" });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([{ path: "body.file", message: "Empty file" }]);
  });

  it("a declared Content-Length over the limit is refused before the body is read", async () => {
    const { auth } = newUser();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${baseUrl}/api/upload/profile`, {
        method: "POST",
        headers: { ...auth, "content-type": "multipart/form-data; boundary=xyz", "content-length": String(50 * MB) },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", reject);
      req.write("--xyz\r\n"); // the rest never comes
    });
    expect(status).toBe(413);
  });

  it("a chunked body (no Content-Length) is cut off past the limit with 413", async () => {
    const { sub, auth } = newUser();
    const boundary = "----chunked" + randomUUID();
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
    const chunk = noise(256 * 1024, 1, 1, 9);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent > 40 * MB) return controller.close(); // far past the limit; the server must stop reading long before
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${baseUrl}/api/upload/profile`, {
      method: "POST",
      headers: { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(sent).toBeLessThan(40 * MB);
    expect(filesIn(`avatars/${await userIdOf(sub)}`)).toEqual([]);
  });

  it("strips metadata (EXIF, ICC) and applies the EXIF orientation", async () => {
    const { auth } = newUser();
    // Stored landscape 400×200 with orientation 6 (rotate 90°): displayed portrait 200×400.
    const tagged = await raw(400, 200)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: "GPS 48.85,2.35 secret" } })
      .keepIccProfile()
      .toBuffer();
    const meta = await sharp(tagged).metadata();
    expect(meta.orientation).toBe(6);
    expect(meta.exif).toBeDefined();
    const res = await upload("locker-media", auth, { bytes: tagged, type: "image/jpeg" });
    expect(res.status).toBe(201);
    expect([res.body.data.width, res.body.data.height]).toEqual([200, 400]);
    const { bytes, meta: out } = await expectStoredWebp(res.body.data.url, 200, 400);
    expect(out.orientation).toBeUndefined();
    expect(bytes.includes(Buffer.from("secret"))).toBe(false);
  });

  it("concurrent uploads by one user leave exactly one avatar; every replaced file is deleted", async () => {
    const { sub, auth } = newUser();
    const first = await upload("profile", auth, { bytes: await png(64, 64, 99), type: "image/png" });
    expect(first.status).toBe(200);
    const images = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        solid(64, 64, 40 * i, 100, 200)
          .png()
          .toBuffer(),
      ),
    );
    const results = await Promise.all(images.map((bytes) => upload("profile", auth, { bytes, type: "image/png" })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));

    const userId = await userIdOf(sub);
    const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
    const finalUrl = results.find((r) => keyOf(r.body.data.url) === user.avatarKey)?.body.data.url as string;
    expect(finalUrl).toBeDefined();
    expect(user.avatarUrl).toBe(finalUrl);
    expect((await fetchStored(finalUrl)).res.status).toBe(200);
    for (const url of [first.body.data.url, ...results.map((r) => r.body.data.url)].filter((u) => u !== finalUrl)) {
      expect((await fetchStored(url)).res.status).toBe(404);
    }
    expect(filesIn(`avatars/${userId}`)).toEqual([path.basename(finalUrl)]);
    const rows = await db().mediaUpload.findMany({ where: { userId, kind: "profile" } });
    expect(rows.map((r) => r.key)).toEqual([user.avatarKey]);
  });

  it("a failed delete of the replaced file does not fail the upload; its record stays for cleanup", async () => {
    const { sub, auth } = newUser();
    await upload("profile", auth, { bytes: await png(64, 64), type: "image/png" }); // creates the user row
    const userId = await userIdOf(sub);
    // The "old avatar" is a directory: unlink fails (EISDIR), which the route must log and survive.
    const stuckKey = `avatars/${userId}/stuck-${randomUUID()}.webp`;
    mkdirSync(path.join(uploadDir(), stuckKey), { recursive: true });
    const current = await db().user.findUniqueOrThrow({ where: { id: userId } });
    await db().mediaUpload.deleteMany({ where: { key: current.avatarKey! } });
    await db().user.update({ where: { id: userId }, data: { avatarKey: stuckKey, avatarUrl: `/files/${stuckKey}` } });
    await db().mediaUpload.create({
      data: { userId, kind: "profile", key: stuckKey, url: `/files/${stuckKey}`, contentType: "image/webp", bytes: 1, width: 1, height: 1, thumbhash: "AAAA" },
    });

    const res = await upload("profile", auth, { bytes: await png(100, 100, 3), type: "image/png" });
    expect(res.status).toBe(200);
    const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.avatarKey).toBe(keyOf(res.body.data.url));
    expect(statSync(path.join(uploadDir(), stuckKey)).isDirectory()).toBe(true);
    expect(await db().mediaUpload.count({ where: { key: stuckKey } })).toBe(1);
  });

  it("an avatar that is not ours (external URL, no key) is replaced without deleting anything", async () => {
    const { sub, auth } = newUser();
    await api("GET", "/api/user", { headers: auth });
    const userId = await userIdOf(sub);
    await db().user.update({ where: { id: userId }, data: { avatarUrl: "https://img.clerk.com/abc.png", avatarKey: null } });
    const res = await upload("profile", auth, { bytes: await png(64, 64), type: "image/png" });
    expect(res.status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: userId } })).avatarUrl).toBe(res.body.data.url);
  });
});

describe("POST /api/upload/banner", () => {
  it("fits the banner within 1500×500 and replaces the previous one", async () => {
    const { sub, auth } = newUser();
    const first = await upload("banner", auth, { bytes: await jpeg(3000, 2000), type: "image/jpeg" });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ width: 750, height: 500, contentType: "image/webp" });
    const userId = await userIdOf(sub);
    expect(first.body.data.url).toMatch(new RegExp(`^/files/banners/${userId}/[0-9a-f-]{36}\.webp$`));
    await expectStoredWebp(first.body.data.url, 750, 500);
    expectThumbhash(first.body.data.thumbhash);

    const wide = await upload("banner", auth, { bytes: await png(3000, 600), type: "image/png" });
    expect(wide.body.data).toMatchObject({ width: 1500, height: 300 });
    const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
    expect(user).toMatchObject({ bannerUrl: wide.body.data.url, bannerKey: keyOf(wide.body.data.url), bannerThumbhash: wide.body.data.thumbhash });
    expect(user.avatarKey).toBeNull(); // the avatar is a different slot
    expect((await fetchStored(first.body.data.url)).res.status).toBe(404);
    expect(await db().mediaUpload.count({ where: { userId, kind: "banner" } })).toBe(1);
  });

  it("never enlarges a small banner", async () => {
    const { auth } = newUser();
    const res = await upload("banner", auth, { bytes: await png(300, 100), type: "image/png" });
    expect(res.body.data).toMatchObject({ width: 300, height: 100 });
  });

  it("refused uploads keep the banner; 8 MB limit", async () => {
    const { sub, auth } = newUser();
    const ok = await upload("banner", auth, { bytes: await jpeg(900, 300), type: "image/jpeg" });
    expect(ok.status).toBe(200);
    for (const bad of await badInputs(8 * MB)) {
      const res = await upload("banner", auth, bad.file);
      expect({ label: bad.label, status: res.status, code: res.body?.error?.code }).toEqual({ label: bad.label, status: bad.status, code: bad.code });
    }
    const user = await db().user.findUniqueOrThrow({ where: { id: await userIdOf(sub) } });
    expect(user.bannerUrl).toBe(ok.body.data.url);
    expect((await fetchStored(ok.body.data.url)).res.status).toBe(200);
  });
});

describe("POST /api/upload/binder-cover", () => {
  async function binderOf(sub: string, auth: Record<string, string>) {
    await api("GET", "/api/user", { headers: auth });
    return db().binder.create({ data: { userId: await userIdOf(sub), name: "Rookies" } });
  }

  it("sets the cover of the caller's binder within 1200×1200 and replaces the previous one", async () => {
    const { sub, auth } = newUser();
    const binder = await binderOf(sub, auth);
    const first = await upload("binder-cover", auth, { bytes: await jpeg(2000, 3000), type: "image/jpeg" }, { binderId: binder.id });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ binderId: binder.id, width: 800, height: 1200, contentType: "image/webp" });
    await expectStoredWebp(first.body.data.url, 800, 1200);
    expectThumbhash(first.body.data.thumbhash);
    expect(await db().binder.findUniqueOrThrow({ where: { id: binder.id } })).toMatchObject({
      coverUrl: first.body.data.url,
      coverKey: keyOf(first.body.data.url),
      coverThumbhash: first.body.data.thumbhash,
    });

    const second = await upload("binder-cover", auth, { bytes: await png(500, 500), type: "image/png" }, { binderId: binder.id });
    expect(second.status).toBe(200);
    expect((await fetchStored(first.body.data.url)).res.status).toBe(404);
    expect((await fetchStored(second.body.data.url)).res.status).toBe(200);
    expect((await db().binder.findUniqueOrThrow({ where: { id: binder.id } })).coverKey).toBe(keyOf(second.body.data.url));
    expect((await db().mediaUpload.findMany({ where: { kind: "binder-cover", userId: binder.userId } })).map((r) => r.key)).toEqual([
      keyOf(second.body.data.url),
    ]);
  });

  it("another user's binder is 404 NOT_FOUND and stays untouched; nothing is stored", async () => {
    const owner = newUser();
    const binder = await binderOf(owner.sub, owner.auth);
    const ownCover = await upload("binder-cover", owner.auth, { bytes: await png(200, 200), type: "image/png" }, { binderId: binder.id });
    expect(ownCover.status).toBe(200);

    const other = newUser();
    const res = await upload("binder-cover", other.auth, { bytes: await png(200, 200, 4), type: "image/png" }, { binderId: binder.id });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    const missing = await upload("binder-cover", other.auth, { bytes: await png(200, 200, 4), type: "image/png" }, { binderId: randomUUID() });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(res.body);

    expect((await db().binder.findUniqueOrThrow({ where: { id: binder.id } })).coverUrl).toBe(ownCover.body.data.url);
    expect((await fetchStored(ownCover.body.data.url)).res.status).toBe(200);
    const otherId = await userIdOf(other.sub);
    expect(await db().mediaUpload.count({ where: { userId: otherId } })).toBe(0);
    expect(filesIn(`binder-covers/${otherId}`)).toEqual([]);
  });

  it("binderId is required and must be a binder id; refused images keep the cover", async () => {
    const { sub, auth } = newUser();
    const binder = await binderOf(sub, auth);
    const image = { bytes: await png(100, 100), type: "image/png" };
    const none = await upload("binder-cover", auth, image);
    expect(none.status).toBe(400);
    expect(none.body.error.details).toEqual([{ path: "body.binderId", message: expect.any(String) }]);
    const bad = await upload("binder-cover", auth, image, { binderId: "not-a-uuid" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("body.binderId");

    const ok = await upload("binder-cover", auth, image, { binderId: binder.id });
    expect(ok.status).toBe(200);
    for (const b of await badInputs(8 * MB)) {
      const res = await upload("binder-cover", auth, b.file, { binderId: binder.id });
      expect({ label: b.label, status: res.status, code: res.body?.error?.code }).toEqual({ label: b.label, status: b.status, code: b.code });
    }
    expect((await db().binder.findUniqueOrThrow({ where: { id: binder.id } })).coverUrl).toBe(ok.body.data.url);
    expect((await fetchStored(ok.body.data.url)).res.status).toBe(200);
  });
});

describe("POST /api/upload/locker-media", () => {
  it("stores the image (2048 px on the long side at most), records it and changes no user field", async () => {
    const { sub, auth } = newUser();
    await api("GET", "/api/user", { headers: auth });
    const userId = await userIdOf(sub);
    const before = await db().user.findUniqueOrThrow({ where: { id: userId } });
    const res = await upload("locker-media", auth, { bytes: await jpeg(4000, 1000), type: "image/jpeg" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ width: 2048, height: 512, contentType: "image/webp" });
    expect(res.body.data.url).toMatch(new RegExp(`^/files/locker-media/${userId}/[0-9a-f-]{36}\.webp$`));
    await expectStoredWebp(res.body.data.url, 2048, 512);
    expectThumbhash(res.body.data.thumbhash);
    const after = await db().user.findUniqueOrThrow({ where: { id: userId } });
    expect({ ...after, updatedAt: null }).toEqual({ ...before, updatedAt: null });
    expect(await db().mediaUpload.findUniqueOrThrow({ where: { id: res.body.data.id } })).toMatchObject({
      kind: "locker-media",
      userId,
      key: keyOf(res.body.data.url),
    });

    // A second one does not replace the first.
    const again = await upload("locker-media", auth, { bytes: await png(300, 200), type: "image/png" });
    expect(again.status).toBe(201);
    expect((await fetchStored(res.body.data.url)).res.status).toBe(200);
  });

  it("accepts JPEG, PNG, WebP, GIF (first frame) and AVIF; refuses the rest", async () => {
    const { auth } = newUser();
    const red = await solid(60, 40, 230, 20, 20).png().toBuffer();
    const blue = await solid(60, 40, 20, 20, 230).png().toBuffer();
    const gif = await sharp([red, blue], { join: { animated: true } })
      .gif({ loop: 0, delay: [100, 100] })
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const inputs: [string, Buffer][] = [
      ["jpeg", await raw(60, 40).jpeg().toBuffer()],
      ["png", await raw(60, 40).png().toBuffer()],
      ["webp", await raw(60, 40).webp().toBuffer()],
      ["avif", await raw(60, 40).avif().toBuffer()],
      ["gif", gif],
    ];
    for (const [label, bytes] of inputs) {
      const res = await upload("locker-media", auth, { bytes, name: "x.bin", type: "application/octet-stream" });
      expect({ label, status: res.status }).toEqual({ label, status: 201 });
      const { bytes: stored, meta } = await expectStoredWebp(res.body.data.url, 60, 40);
      if (label === "gif") {
        expect(meta.pages ?? 1).toBe(1);
        const { data } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
        expect(data[0]).toBeGreaterThan(150); // red: the first frame
        expect(data[2]).toBeLessThan(100);
      }
    }
    for (const bad of await badInputs(10 * MB)) {
      const res = await upload("locker-media", auth, bad.file);
      expect({ label: bad.label, status: res.status, code: res.body?.error?.code }).toEqual({ label: bad.label, status: bad.status, code: bad.code });
    }
  });
});

describe("POST /api/upload/locker-media: quota", () => {
  const HOUR = 3_600_000;
  const tiny = (seed: number) => png(16, 12, seed);

  /** A MediaUpload row of the user's, planted directly (no file unless the test writes one). */
  function plantRow(userId: string, extra: { kind?: string; bytes?: number; attachedAt?: Date | null; createdAt?: Date; key?: string } = {}) {
    const kind = extra.kind ?? "locker-media";
    const key = extra.key ?? `${kind}/${userId}/${randomUUID()}.webp`;
    return db().mediaUpload.create({
      data: {
        userId,
        kind,
        key,
        url: `/files/${key}`,
        contentType: "image/webp",
        bytes: extra.bytes ?? 100,
        width: 1,
        height: 1,
        thumbhash: "AAAA",
        attachedAt: extra.attachedAt ?? null,
        ...(extra.createdAt ? { createdAt: extra.createdAt } : {}),
      },
    });
  }

  async function signedUp() {
    const user = newUser();
    await api("GET", "/api/user", { headers: user.auth });
    return { ...user, userId: await userIdOf(user.sub) };
  }

  const pendingOf = (userId: string) => db().mediaUpload.count({ where: { userId, kind: "locker-media", attachedAt: null } });

  it(`at ${LOCKER_MEDIA_PENDING_CAP} pending uploads the next is 429 UPLOAD_QUOTA_EXCEEDED and stores nothing; attached uploads do not count`, async () => {
    const { auth, userId } = await signedUp();
    const planted = [];
    for (let i = 0; i < LOCKER_MEDIA_PENDING_CAP - 1; i++) planted.push(await plantRow(userId));
    await plantRow(userId, { attachedAt: new Date() }); // used by a post: not pending
    const last = await upload("locker-media", auth, { bytes: await tiny(1), type: "image/png" });
    expect(last.status).toBe(201);
    expect(await pendingOf(userId)).toBe(LOCKER_MEDIA_PENDING_CAP);

    const refused = await upload("locker-media", auth, { bytes: await tiny(2), type: "image/png" });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: { code: "UPLOAD_QUOTA_EXCEEDED", message: expect.stringMatching(/20 locker-room uploads/) } });
    expect(await pendingOf(userId)).toBe(LOCKER_MEDIA_PENDING_CAP);
    expect(filesIn(`locker-media/${userId}`)).toEqual([path.basename(last.body.data.url)]);

    // A post using one of them frees a slot.
    expect(await attachLockerMedia(db(), userId, [planted[0]!.id])).toEqual([planted[0]!.id]);
    const again = await upload("locker-media", auth, { bytes: await tiny(3), type: "image/png" });
    expect(again.status).toBe(201);
    expect(filesIn(`locker-media/${userId}`)).toHaveLength(2);
  });

  it("past the bytes per rolling 24 hours the upload is 429; older uploads do not count", async () => {
    const { auth, userId } = await signedUp();
    await plantRow(userId, { attachedAt: new Date(), bytes: LOCKER_MEDIA_DAILY_BYTES - 10 });
    const refused = await upload("locker-media", auth, { bytes: await tiny(4), type: "image/png" });
    expect(refused.status).toBe(429);
    expect(errorOf(refused)).toEqual({ code: "UPLOAD_QUOTA_EXCEEDED", message: expect.stringMatching(/per 24 hours/) });
    expect(filesIn(`locker-media/${userId}`)).toEqual([]);

    const other = await signedUp();
    await plantRow(other.userId, { attachedAt: new Date(), bytes: LOCKER_MEDIA_DAILY_BYTES, createdAt: new Date(Date.now() - 25 * HOUR) });
    expect((await upload("locker-media", other.auth, { bytes: await tiny(5), type: "image/png" })).status).toBe(201);
  });

  it(`${LOCKER_MEDIA_PENDING_CAP + 5} concurrent uploads of one user store exactly ${LOCKER_MEDIA_PENDING_CAP}`, async () => {
    const { auth, userId } = await signedUp();
    const images = await Promise.all(Array.from({ length: LOCKER_MEDIA_PENDING_CAP + 5 }, (_, i) => tiny(100 + i)));
    const results = await Promise.all(images.map((bytes) => upload("locker-media", auth, { bytes, type: "image/png" })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(LOCKER_MEDIA_PENDING_CAP);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body?.error?.code])).toEqual(Array(5).fill([429, "UPLOAD_QUOTA_EXCEEDED"]));
    expect(await pendingOf(userId)).toBe(LOCKER_MEDIA_PENDING_CAP);
    // The refused uploads' files were deleted again: exactly the recorded ones remain.
    const rows = await db().mediaUpload.findMany({ where: { userId }, select: { key: true } });
    expect(filesIn(`locker-media/${userId}`)).toEqual(rows.map((r) => path.basename(r.key)).sort());
  });
});

describe("GET /api/cron/uploads-sweep", () => {
  const HOUR = 3_600_000;
  const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;
  const sweep = (authorization?: string) => api("GET", "/api/cron/uploads-sweep", { headers: authorization === undefined ? {} : { authorization } });
  const exists = (url: string) => existsSync(path.join(uploadDir(), keyOf(url)));
  const age = (id: string, hours: number) => db().mediaUpload.update({ where: { id }, data: { createdAt: new Date(Date.now() - hours * HOUR) } });

  it(`deletes pending locker media older than ${LOCKER_MEDIA_GRACE_MS / HOUR} h (file, then row); keeps fresh and attached uploads`, async () => {
    const { sub, auth } = newUser();
    const ups = [];
    for (let i = 0; i < 4; i++) ups.push((await upload("locker-media", auth, { bytes: await png(20, 20, 40 + i), type: "image/png" })).body.data);
    const userId = await userIdOf(sub);
    const [stale, stale2, fresh, attached] = ups;
    await age(stale.id, 25);
    await age(stale2.id, 24 * 7);
    await age(fresh.id, 23); // within the grace period
    await db().mediaUpload.update({
      where: { id: attached.id },
      data: { createdAt: new Date(Date.now() - 48 * HOUR), attachedAt: new Date(Date.now() - 47 * HOUR) },
    });

    // A replaced avatar whose delete had failed: no user row references it any more.
    const avatar = await upload("profile", auth, { bytes: await png(40, 40), type: "image/png" });
    const replacedKey = `avatars/${userId}/${randomUUID()}.webp`;
    mkdirSync(path.join(uploadDir(), path.dirname(replacedKey)), { recursive: true });
    writeFileSync(path.join(uploadDir(), replacedKey), "old avatar");
    await db().mediaUpload.create({
      data: {
        userId,
        kind: "profile",
        key: replacedKey,
        url: `/files/${replacedKey}`,
        contentType: "image/webp",
        bytes: 10,
        width: 1,
        height: 1,
        thumbhash: "AAAA",
        createdAt: new Date(Date.now() - 30 * HOUR),
      },
    });
    const avatarRow = await db().mediaUpload.findFirstOrThrow({ where: { key: keyOf(avatar.body.data.url) } });
    await age(avatarRow.id, 30); // old, but the user's current avatar: kept

    const res = await sweep(`Bearer ${cronSecret()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { deleted: expect.any(Number), failed: expect.any(Number) } });
    expect(res.body.data.deleted).toBeGreaterThanOrEqual(3);

    for (const gone of [stale, stale2]) {
      expect(exists(gone.url)).toBe(false);
      expect((await fetchStored(gone.url)).res.status).toBe(404);
      expect(await db().mediaUpload.findUnique({ where: { id: gone.id } })).toBeNull();
    }
    for (const kept of [fresh, attached]) {
      expect(exists(kept.url)).toBe(true);
      expect(await db().mediaUpload.findUnique({ where: { id: kept.id } })).not.toBeNull();
    }
    expect(existsSync(path.join(uploadDir(), replacedKey))).toBe(false);
    expect(await db().mediaUpload.count({ where: { key: replacedKey } })).toBe(0);
    expect(exists(avatar.body.data.url)).toBe(true);
    expect(await db().mediaUpload.count({ where: { id: avatarRow.id } })).toBe(1);

    // An expired upload can no longer be attached; a fresh one can.
    expect(await attachLockerMedia(db(), userId, [stale.id, fresh.id])).toEqual([fresh.id]);
  });

  it("a file that cannot be deleted keeps its row and counts as failed", async () => {
    const { sub, auth } = newUser();
    await api("GET", "/api/user", { headers: auth });
    const userId = await userIdOf(sub);
    // The "file" is a directory: unlink fails (EISDIR).
    const stuckKey = `locker-media/${userId}/stuck-${randomUUID()}.webp`;
    mkdirSync(path.join(uploadDir(), stuckKey), { recursive: true });
    const row = await db().mediaUpload.create({
      data: {
        userId,
        kind: "locker-media",
        key: stuckKey,
        url: `/files/${stuckKey}`,
        contentType: "image/webp",
        bytes: 1,
        width: 1,
        height: 1,
        thumbhash: "AAAA",
        createdAt: new Date(Date.now() - 25 * HOUR),
      },
    });
    const res = await sweep(`Bearer ${cronSecret()}`);
    expect(res.status).toBe(200);
    expect(res.body.data.failed).toBeGreaterThanOrEqual(1);
    expect(await db().mediaUpload.count({ where: { id: row.id } })).toBe(1);
    // Cleaned up here, so later sweeps do not keep failing on it.
    rmSync(path.join(uploadDir(), stuckKey), { recursive: true });
    const next = await sweep(`Bearer ${cronSecret()}`);
    expect(next.status).toBe(200);
    expect(await db().mediaUpload.count({ where: { id: row.id } })).toBe(0);
  });

  it.each([
    ["no header", undefined],
    ["another secret", "Bearer not-the-cron-secret-000"],
    ["the secret with a suffix", () => `Bearer ${cronSecret()}x`],
    ["the bare secret", () => cronSecret()],
    ["a session token", () => newUser({ admin: true }).auth.authorization],
  ] as [string, string | undefined | (() => string)][])("401 UNAUTHORIZED with %s, and nothing is deleted", async (_label, authorization) => {
    const { auth } = newUser();
    const up = (await upload("locker-media", auth, { bytes: await png(20, 20, 9), type: "image/png" })).body.data;
    await age(up.id, 48);
    const res = await sweep(typeof authorization === "function" ? authorization() : authorization);
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe("UNAUTHORIZED");
    expect(exists(up.url)).toBe(true);
    expect(await db().mediaUpload.count({ where: { id: up.id } })).toBe(1);
    await db().mediaUpload.delete({ where: { id: up.id } }); // not left for a later sweep to count
  });

  it("is in the internal OpenAPI document only; POST is 405", async () => {
    expect((await api("GET", "/api/openapi.json")).body.paths["/api/cron/uploads-sweep"]).toBeUndefined();
    const internal = await api("GET", "/api/admin/openapi.json", { headers: newUser({ admin: true }).auth });
    expect(internal.body.paths["/api/cron/uploads-sweep"].get.description).toMatch(/Bearer <CRON_SECRET>/);
    expect((await api("POST", "/api/cron/uploads-sweep", { headers: { authorization: `Bearer ${cronSecret()}` } })).status).toBe(405);
  });
});

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
