import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { thumbHashToRGBA } from "thumbhash";
import { expect, inject } from "vitest";
import { baseUrl } from "../helpers";

// What the upload tests share (uploads.test.ts, uploads-locker-media.test.ts, uploads-access.test.ts): images
// generated here, a multipart upload, and the stored file as GET /files/{key} serves it and as the temporary
// UPLOAD_DIR holds it (tests/setup/server-env/uploads.ts).

export const fx = () => inject("fixtures").uploads!;
export const uploadDir = () => fx().uploadDir!;
export const MB = 1024 * 1024;

// ---------- images, generated here ----------

/** Deterministic noise, so encoders cannot shrink it to nothing. */
export function noise(width: number, height: number, channels = 3, seed = 1): Buffer {
  const buf = Buffer.alloc(width * height * channels);
  let x = seed * 2654435761;
  for (let i = 0; i < buf.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    buf[i] = x >>> 24;
  }
  return buf;
}
export const raw = (w: number, h: number, seed = 1) => sharp(noise(w, h, 3, seed), { raw: { width: w, height: h, channels: 3 } });
export const solid = (w: number, h: number, r: number, g: number, b: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r, g, b } } });

export const jpeg = (w = 800, h = 600, seed = 1) => raw(w, h, seed).jpeg({ quality: 90 }).toBuffer();
export const png = (w = 800, h = 600, seed = 1) => raw(w, h, seed).png().toBuffer();

type Part = { bytes: Uint8Array; name?: string; type?: string };
interface Upload {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function upload(route: string, auth: Record<string, string>, file?: Part | string, fields: Record<string, string> = {}): Promise<Upload> {
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

export async function fetchStored(url: string) {
  const res = await fetch(fileUrl(url));
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The stored file is a WebP of the given size, carrying no metadata. */
export async function expectStoredWebp(url: string, width: number, height: number) {
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

export function expectThumbhash(hash: string) {
  expect(hash).toMatch(/^[A-Za-z0-9+/]+=*$/);
  const decoded = thumbHashToRGBA(Buffer.from(hash, "base64"));
  expect(decoded.w).toBeGreaterThan(0);
  expect(decoded.h).toBeGreaterThan(0);
  expect(decoded.rgba.length).toBe(decoded.w * decoded.h * 4);
  return decoded;
}

export const keyOf = (url: string) => url.replace(/^.*\/files\//, "");
export const filesIn = (dir: string) => (existsSync(path.join(uploadDir(), dir)) ? readdirSync(path.join(uploadDir(), dir)).sort() : []);

const notImage = { bytes: Buffer.from("hello, I am a text file pretending to be a PNG\n"), name: "photo.png", type: "image/png" };
export const svg = {
  bytes: Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64" fill="red"/></svg>',
  ),
  name: "logo.svg",
  type: "image/svg+xml",
};

export async function badInputs(maxBytes: number) {
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
