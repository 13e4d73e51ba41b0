import { existsSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { getPayloadFromClientToken } from "@vercel/blob/client";
import { describe, expect, inject, it } from "vitest";
import { createVercelBlobStorage } from "../../lib/storage/vercel-blob";
import { DIRECT_UPLOAD_MAX_BYTES } from "../../lib/core/uploads/kinds";
import { DIRECT_UPLOAD_OPEN_CAP } from "../../lib/core/uploads/service";
import { api, baseUrl, db, errorOf, newUser, userIdOf } from "../helpers";

// Direct uploads of locker media (POST /api/upload/locker-media/direct, then the file straight to storage, then
// .../complete), with the local storage driver the test server runs; the Vercel Blob client token is checked
// with the SDK's own decoder.

const START = "/api/upload/locker-media/direct";
const uploadDir = () => inject("fixtures").uploads!.uploadDir!;
const cronSecret = () => (inject("fixtures").sync as { cronSecret: string }).cronSecret;

const jpeg = (w = 1200, h = 900) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 30, b: 60 } } })
    .withMetadata({ exif: { IFD0: { Copyright: "secret-gps-owner" } } })
    .jpeg({ quality: 90 })
    .toBuffer();

async function start(auth: Record<string, string>, bytes: number, contentType = "image/jpeg") {
  const res = await api("POST", START, { headers: auth, json: { contentType, bytes } });
  expect(res.status, res.text).toBe(201);
  return res.body.data as {
    id: string;
    driver: string;
    pathname: string;
    clientToken: string;
    upload: { method: string; url: string; headers: Record<string, string> };
    completeUrl: string;
  };
}

const send = (grant: { upload: { url: string; headers: Record<string, string> } }, bytes: Uint8Array, headers = grant.upload.headers) =>
  fetch(grant.upload.url, { method: "PUT", headers, body: new Uint8Array(bytes) }).then(async (r) => ({
    status: r.status,
    body: await r.json().catch(() => null),
  }));

const complete = (auth: Record<string, string>, id: string) => api("POST", `${START}/${id}/complete`, { headers: auth });

describe("direct uploads (local driver)", () => {
  it("start → PUT the bytes → complete answers a processed upload; completing again answers the same one; the original is gone", async () => {
    const { auth } = newUser();
    const file = await jpeg();
    const grant = await start(auth, file.byteLength);
    expect(grant.driver).toBe("local");
    expect(grant.upload.method).toBe("PUT");
    expect(grant.upload.url).toBe(`${baseUrl}${START}/${grant.id}`);
    expect(grant.completeUrl).toBe(`${grant.upload.url}/complete`);

    expect(await send(grant, file)).toMatchObject({ status: 200, body: { data: { received: file.byteLength } } });
    const original = path.join(uploadDir(), ...grant.pathname.split("/"));
    expect(existsSync(original)).toBe(true);
    // Originals still carry their metadata: never served.
    expect((await fetch(`${baseUrl}/files/${grant.pathname}`)).status).toBe(404);

    const done = await complete(auth, grant.id);
    expect(done.status, done.text).toBe(201);
    expect(done.body.data).toMatchObject({ contentType: "image/webp", width: 1200, height: 900 });
    const served = Buffer.from(await (await fetch(`${baseUrl}${done.body.data.url}`)).arrayBuffer());
    expect(served.includes(Buffer.from("secret-gps-owner"))).toBe(false);
    expect(existsSync(original)).toBe(false);
    const row = await db().mediaUpload.findUniqueOrThrow({ where: { id: done.body.data.id } });
    expect(row).toMatchObject({ kind: "locker-media", attachedAt: null });

    const again = await complete(auth, grant.id);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(done.body.data.id);
    expect(await send(grant, file)).toMatchObject({ status: 409, body: { error: { code: "UPLOAD_ALREADY_COMPLETED" } } });
  });

  it("refuses a wrong token, another user's completion, a body larger than declared, and completing before the file arrived", async () => {
    const owner = newUser();
    const file = await jpeg(300, 200);
    const grant = await start(owner.auth, file.byteLength);

    expect((await send(grant, file, { ...grant.upload.headers, "X-Upload-Token": "x".repeat(43) })).status).toBe(404);
    expect((await send(grant, file, { "Content-Type": "image/jpeg" })).status).toBe(404);
    expect((await send({ upload: { ...grant.upload, url: `${baseUrl}${START}/0190a000-0000-7000-8000-000000000000` } }, file)).status).toBe(404);

    const notYet = await complete(owner.auth, grant.id);
    expect(notYet.status).toBe(409);
    expect(errorOf(notYet).code).toBe("UPLOAD_NOT_RECEIVED");

    const bigger = Buffer.concat([file, Buffer.alloc(10)]);
    expect(await send(grant, bigger)).toMatchObject({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } });

    expect((await send(grant, file)).status).toBe(200);
    const stranger = newUser();
    expect((await complete(stranger.auth, grant.id)).status).toBe(404);
    expect((await complete(owner.auth, grant.id)).status).toBe(201);
  });

  it("a file that is not an image is refused at completion (415) and the grant can be retried with a real one", async () => {
    const { auth } = newUser();
    const text = Buffer.from("not an image at all, just text pretending".repeat(20));
    const file = await jpeg(64, 64);
    const grant = await start(auth, Math.max(text.byteLength, file.byteLength));
    expect((await send(grant, text)).status).toBe(200);
    const refused = await complete(auth, grant.id);
    expect(refused.status).toBe(415);
    expect((await send(grant, file)).status).toBe(200);
    expect((await complete(auth, grant.id)).status).toBe(201);
  });

  it("validates the start: type, size bounds, unknown fields", async () => {
    const { auth } = newUser();
    for (const [json, field] of [
      [{ contentType: "image/svg+xml", bytes: 10 }, "contentType"],
      [{ contentType: "image/jpeg", bytes: 0 }, "bytes"],
      [{ contentType: "image/jpeg", bytes: DIRECT_UPLOAD_MAX_BYTES + 1 }, "bytes"],
      [{ contentType: "image/jpeg", bytes: 1.5 }, "bytes"],
      [{ contentType: "image/jpeg" }, "bytes"],
    ] as const) {
      const res = await api("POST", START, { headers: auth, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(
        errorOf(res)
          .details!.map((d) => d.path)
          .join(" "),
      ).toContain(field);
    }
    expect((await api("POST", START, { json: { contentType: "image/jpeg", bytes: 10 } })).status).toBe(401);
  });

  it(`holds at most ${DIRECT_UPLOAD_OPEN_CAP} open direct uploads per user`, async () => {
    const { auth } = newUser();
    const results = await Promise.all(
      Array.from({ length: DIRECT_UPLOAD_OPEN_CAP + 1 }, () => api("POST", START, { headers: auth, json: { contentType: "image/png", bytes: 100 } })),
    );
    // Starts are not serialised per user, so a burst may pass the cap by the requests in flight; one after them may not.
    expect(results.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(DIRECT_UPLOAD_OPEN_CAP);
    const after = await api("POST", START, { headers: auth, json: { contentType: "image/png", bytes: 100 } });
    expect(after.status).toBe(429);
    expect(errorOf(after).code).toBe("UPLOAD_QUOTA_EXCEEDED");
  });

  it("after the window: PUT answers 410 and completion 410", async () => {
    const { auth } = newUser();
    const file = await jpeg(64, 64);
    const grant = await start(auth, file.byteLength);
    expect((await send(grant, file)).status).toBe(200);
    await db().directUpload.update({ where: { id: grant.id }, data: { expiresAt: new Date(Date.now() - 2 * 3_600_000) } });
    expect(await send(grant, file)).toMatchObject({ status: 410, body: { error: { code: "UPLOAD_EXPIRED" } } });
    const late = await complete(auth, grant.id);
    expect(late.status).toBe(410);
  });

  it("concurrent completions store one upload", async () => {
    const { sub, auth } = newUser();
    const file = await jpeg(400, 300);
    const grant = await start(auth, file.byteLength);
    expect((await send(grant, file)).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 6 }, () => complete(auth, grant.id)));
    const ok = results.filter((r) => r.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.data.id)).size).toBe(1);
    for (const r of results.filter((r) => r.status !== 201)) expect(errorOf(r).code).toBe("UPLOAD_IN_PROGRESS");
    expect(await db().mediaUpload.count({ where: { userId: await userIdOf(sub), kind: "locker-media" } })).toBe(1);
  });

  it("the uploads sweep deletes grants (and their originals) long past their window", async () => {
    const { auth } = newUser();
    const file = await jpeg(64, 64);
    const grant = await start(auth, file.byteLength);
    expect((await send(grant, file)).status).toBe(200);
    const original = path.join(uploadDir(), ...grant.pathname.split("/"));
    await db().directUpload.update({ where: { id: grant.id }, data: { expiresAt: new Date(Date.now() - 25 * 3_600_000) } });
    const sweep = await api("GET", "/api/cron/uploads-sweep", { headers: { authorization: `Bearer ${cronSecret()}` } });
    expect(sweep.status).toBe(200);
    expect(existsSync(original)).toBe(false);
    expect(await db().directUpload.findUnique({ where: { id: grant.id } })).toBeNull();
  });
});

describe("direct uploads (Vercel Blob driver)", () => {
  it("issues Vercel Blob's client token for exactly the grant's pathname, size, type and window", async () => {
    const files = createVercelBlobStorage("vercel_blob_rw_teststore_0123456789abcdefghij");
    const validUntil = new Date(Date.now() + 15 * 60_000);
    const token = await files.clientUploadToken!("incoming/locker-media/u/abc", { maxBytes: 12_345, contentTypes: ["image/png"], validUntil });
    expect(token.startsWith("vercel_blob_client_teststore_")).toBe(true);
    expect(getPayloadFromClientToken(token)).toMatchObject({
      pathname: "incoming/locker-media/u/abc",
      maximumSizeInBytes: 12_345,
      allowedContentTypes: ["image/png"],
      validUntil: validUntil.getTime(),
      addRandomSuffix: false,
      allowOverwrite: false,
    });
  });
});
