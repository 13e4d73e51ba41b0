import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Fixture } from "../test-server";
import { selfSignedCertificate } from "../tls";

// Uploads and the image proxy:
//  - a temporary UPLOAD_DIR for the local storage driver (tests read and plant files there);
//  - an HTTPS image stand-in on 127.0.0.1 and ::1 (one port) with a throw-away self-signed certificate for
//    images.test, *.images.test, localhost, 127.0.0.1 and ::1, trusted by the server under test only
//    (NODE_EXTRA_CA_CERTS). The proxy reaches it through IMAGE_PROXY_HOST_OVERRIDES (images.test and
//    cdn.images.test pinned to 127.0.0.1:port), the test-only pin that skips DNS and the public-address check.
//    The certificate also covers localhost/127.0.0.1/::1 on purpose: if the private-address check ever broke,
//    a refused URL such as https://localhost:<port>/ would really be fetched, and the hit counter would show it;
//  - a plain HTTP control port: GET /hits answers { "<path?query>": count } of the image stand-in.

const MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 1_500;

async function images() {
  const noise = Buffer.alloc(64 * 48 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + (i >> 5)) % 251;
  const base = () => sharp(noise, { raw: { width: 64, height: 48, channels: 3 } });
  const frame = (r: number) =>
    sharp({ create: { width: 40, height: 30, channels: 4, background: { r, g: 40, b: 90, alpha: 1 } } })
      .png()
      .toBuffer();
  const anim = await sharp([await frame(250), await frame(10)], { join: { animated: true } })
    .gif({ loop: 0, delay: [100, 100] })
    .toBuffer();
  return {
    "/cat.png": { type: "image/png", bytes: await base().png().toBuffer() },
    "/photo.jpg": { type: "image/jpeg", bytes: await base().jpeg().toBuffer() },
    "/pic.webp": { type: "image/webp", bytes: await base().webp().toBuffer() },
    "/pic.avif": { type: "image/avif", bytes: await base().avif().toBuffer() },
    "/anim.gif": { type: "image/gif", bytes: anim },
    // The upstream's Content-Type is not trusted either way: a PNG labelled text/plain is still a PNG…
    "/mislabelled": { type: "text/plain", bytes: await base().png().toBuffer() },
    // …and text labelled image/png is not an image.
    "/text-as-png.png": { type: "image/png", bytes: Buffer.from("just some text, not an image\n") },
    "/drawing.svg": {
      type: "image/svg+xml",
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>'),
    },
  } as Record<string, { type: string; bytes: Buffer }>;
}

export default async function uploadsFixture(): Promise<Fixture> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "fan-uploads-"));
  const uploadDir = path.join(tmp, "uploads");
  // A file next to (outside) the upload directory: path traversal must never reach it.
  writeFileSync(path.join(tmp, "secret.txt"), "top secret");
  const { key, cert, certFile } = selfSignedCertificate(tmp, "images.test", "DNS:images.test,DNS:*.images.test,DNS:localhost,IP:127.0.0.1,IP:::1");
  const files = await images();
  const pngHeader = files["/cat.png"]!.bytes.subarray(0, 64);
  const hits = new Map<string, number>();

  const handler: http.RequestListener = (req, res) => {
    const url = new URL(req.url ?? "/", "https://standin");
    hits.set(req.url ?? "/", (hits.get(req.url ?? "/") ?? 0) + 1);
    const file = files[url.pathname];
    if (file) {
      res.writeHead(200, { "Content-Type": file.type, "Content-Length": file.bytes.byteLength });
      return res.end(file.bytes);
    }
    const p = url.pathname;
    let m: RegExpExecArray | null;
    if (p === "/redirect") {
      res.writeHead(302, { Location: url.searchParams.get("to") ?? "/cat.png" });
      return res.end();
    }
    if ((m = /^\/chain\/(\d+)$/.exec(p))) {
      const n = Number(m[1]);
      res.writeHead(n === 0 ? 200 : 301, n === 0 ? { "Content-Type": "image/png" } : { Location: `/chain/${n - 1}` });
      return res.end(n === 0 ? files["/cat.png"]!.bytes : undefined);
    }
    if ((m = /^\/status\/(\d+)$/.exec(p))) {
      res.writeHead(Number(m[1]), { "Content-Type": "image/png" });
      return res.end(files["/cat.png"]!.bytes);
    }
    if (p === "/huge-chunked") {
      // A PNG signature followed by more than the limit, chunked (no Content-Length).
      res.writeHead(200, { "Content-Type": "image/png" });
      res.write(pngHeader);
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed || sent > 4 * MAX_BYTES) {
          clearInterval(timer);
          return res.end();
        }
        sent += 32 * 1024;
        res.write(Buffer.alloc(32 * 1024, 7));
      }, 5);
      res.on("close", () => clearInterval(timer));
      return;
    }
    if (p === "/huge-declared") {
      res.writeHead(200, { "Content-Type": "image/png", "Content-Length": String(100 * 1024 * 1024) });
      res.write(pngHeader);
      return; // never finishes: the proxy must give up on the declared size alone
    }
    if (p === "/slow-headers") {
      const timer = setTimeout(() => {
        res.writeHead(200, { "Content-Type": "image/png" });
        res.end(files["/cat.png"]!.bytes);
      }, TIMEOUT_MS * 3);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    if (p === "/slow-body") {
      const bytes = files["/cat.png"]!.bytes;
      res.writeHead(200, { "Content-Type": "image/png", "Content-Length": bytes.byteLength });
      let i = 0;
      const timer = setInterval(() => {
        if (i >= bytes.byteLength || res.destroyed) {
          clearInterval(timer);
          return res.end();
        }
        res.write(bytes.subarray(i, i + 16));
        i += 16;
      }, 200);
      res.on("close", () => clearInterval(timer));
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("not found");
  };

  const v4 = https.createServer({ key, cert }, handler);
  await new Promise<void>((resolve) => v4.listen(0, "127.0.0.1", resolve));
  const port = (v4.address() as AddressInfo).port;
  const v6 = https.createServer({ key, cert }, handler);
  await new Promise<void>((resolve) => {
    v6.once("error", () => resolve()); // no IPv6 loopback here: the ::1 cases still must not be fetched
    v6.listen(port, "::1", resolve);
  });

  const control = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(Object.fromEntries(hits)));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const controlPort = (control.address() as AddressInfo).port;

  return {
    env: {
      UPLOAD_DIR: uploadDir,
      IMAGE_PROXY_ALLOWED_HOSTS: [
        "images.test",
        "*.images.test",
        // Allow-listed on purpose: the public-address check must refuse them anyway.
        "localhost",
        "127.0.0.1",
        "[::1]",
        "::ffff:7f00:1",
        "169.254.169.254",
        "10.0.0.1",
      ].join(","),
      IMAGE_PROXY_HOST_OVERRIDES: `images.test=127.0.0.1:${port},cdn.images.test=127.0.0.1:${port}`,
      IMAGE_PROXY_MAX_BYTES: String(MAX_BYTES),
      IMAGE_PROXY_TIMEOUT_MS: String(TIMEOUT_MS),
      NODE_EXTRA_CA_CERTS: certFile,
    },
    provided: {
      uploadDir,
      outsideDir: tmp,
      standinPort: String(port),
      hitsUrl: `http://127.0.0.1:${controlPort}/hits`,
      maxBytes: String(MAX_BYTES),
      timeoutMs: String(TIMEOUT_MS),
    },
    teardown: async () => {
      for (const server of [v4, v6, control]) {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
