import { randomUUID } from "node:crypto";
import { mkdirSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { api, baseUrl, db, errorOf, newUser, userIdOf } from "../helpers";
import {
  badInputs,
  expectStoredWebp,
  expectThumbhash,
  fetchStored,
  filesIn,
  jpeg,
  keyOf,
  MB,
  noise,
  png,
  raw,
  solid,
  svg,
  upload,
  uploadDir,
} from "./uploads-fixtures";

// Black-box tests of POST /api/upload/{profile,banner,binder-cover}, the images that replace the previous one, against
// the production build with the local storage driver in a temporary UPLOAD_DIR (tests/setup/server-env/uploads.ts).
// Locker media are in uploads-locker-media.test.ts; the routes' authentication and GET /files/{key} in
// uploads-access.test.ts.

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
